import type { Finding, Fix, Severity } from "./diagnostics";
import type { LineIndex, Range } from "./text";

/** The stable JSON shape of a diagnostic (cli.md): positions are 0-based line/character, as in LSP. */
export interface DiagnosticJson {
  code: string;
  severity: Severity;
  message: string;
  range: Range;
  /** The longer explanation behind `message` (plain text): the runtime's own words, the witness's story. */
  detail?: string;
  related?: { message: string; range: Range }[];
  witness?: string;
  fixes?: { title: string; safe: boolean; edits: { range: Range; newText: string }[] }[];
  tags?: string[];
}

export function toDiagnosticJson(finding: Finding, lines: LineIndex): DiagnosticJson {
  const json: DiagnosticJson = {
    code: finding.code,
    severity: finding.severity,
    message: finding.message,
    range: lines.rangeOf(finding.span),
  };
  // After the range: the first four keys are the shape consumers already read, in their order.
  if (finding.detail !== undefined) json.detail = finding.detail;
  if (finding.related?.length) json.related = finding.related.map((r) => ({ message: r.message, range: lines.rangeOf(r.span) }));
  if (finding.witness !== undefined) json.witness = finding.witness;
  if (finding.fixes?.length) json.fixes = finding.fixes.map((f: Fix) => ({ title: f.title, safe: f.safe, edits: f.edits.map((e) => ({ range: lines.rangeOf(e.span), newText: e.newText })) }));
  if (finding.tags?.length) json.tags = [...finding.tags];
  return json;
}
