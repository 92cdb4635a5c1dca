/**
 * textDocument/diagnostic (pull) and textDocument/publishDiagnostics (push, for clients without pull and for files
 * that are not open). A diagnostic is the engine's finding as is: same code, severity, range and message as
 * `agent-sandbox check --format json` (the parity test holds the two to that).
 */
import { DiagnosticSeverity, DiagnosticTag, DocumentDiagnosticReportKind, type Diagnostic, type DocumentDiagnosticReport } from "vscode-languageserver/node";
import { weakCache } from "../engine/caches";
import type { Finding, Severity } from "../engine/diagnostics";
import type { Analysis } from "./engineFacade";
import { docsUri } from "../docsLocation";

/**
 * Every code has a page (docs/checks/<code>.md), shipped with the extension: the link is that file's `file:` URI,
 * so the Problems panel opens the page of the installed version in an editor, offline. The CLI's SARIF output
 * links the same pages.
 */
export const DOCS_BASE = `${docsUri()}/checks`;
export const SOURCE = "agent-sandbox";

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toDiagnostic(finding: Finding, analysis: Analysis, uri: string): Diagnostic {
  const diagnostic: Diagnostic = {
    range: analysis.lines.rangeOf(finding.span),
    severity: SEVERITY[finding.severity],
    code: finding.code,
    source: SOURCE,
    message: finding.message,
  };
  if (finding.code !== "internal-error") diagnostic.codeDescription = { href: `${DOCS_BASE}/${finding.code}.md` };
  if (finding.related?.length) {
    diagnostic.relatedInformation = finding.related.map((r) => ({ location: { uri, range: analysis.lines.rangeOf(r.span) }, message: r.message }));
  }
  if (finding.tags?.includes("unnecessary")) diagnostic.tags = [DiagnosticTag.Unnecessary];
  // The witness is in the detail (which hover.ts shows over this range); kept as data so a client can offer it
  // (e.g. "Explain this path").
  if (finding.witness !== undefined) diagnostic.data = { witness: finding.witness };
  return diagnostic;
}

/**
 * Converted once per analysis: an analysis never changes (a new text, setting or second phase is a new one), and
 * the same list is asked for again and again (a pull after every refresh, a push and the pull of an open file).
 */
const converted = weakCache<Analysis, { uri: string; diagnostics: Diagnostic[] }>("lsp/diagnostics.converted");

/** The diagnostics of an analysis (shared: callers must not change them). */
export function diagnosticsOf(analysis: Analysis, uri: string): Diagnostic[] {
  const cached = converted.get(analysis);
  if (cached?.uri === uri) return cached.diagnostics;
  const diagnostics = analysis.findings.map((f) => toDiagnostic(f, analysis, uri));
  converted.set(analysis, { uri, diagnostics });
  return diagnostics;
}

/**
 * Result ids of pull reports: one per analysis, so a client that pulls again for a list it has (VS Code pulls every
 * open file on each refresh) is told "unchanged" instead of being sent it again (megabytes at 1,000 rules). The
 * prefix differs per server process, so an id from an earlier server never matches.
 */
const SERVER_RUN = `${process.pid.toString(36)}.${Date.now().toString(36)}`;
const resultIds = weakCache<Analysis, string>("lsp/diagnostics.resultIds");
let lastResultId = 0;

export function resultIdOf(analysis: Analysis): string {
  let id = resultIds.get(analysis);
  if (id === undefined) {
    id = `${SERVER_RUN}.${++lastResultId}`;
    resultIds.set(analysis, id);
  }
  return id;
}

/** The pull answer: "unchanged" when the client already has this analysis's list (`previousResultId`). */
export function fullReport(analysis: Analysis | undefined, uri: string, previousResultId?: string): DocumentDiagnosticReport {
  if (!analysis) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
  const resultId = resultIdOf(analysis);
  if (previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
  return { kind: DocumentDiagnosticReportKind.Full, resultId, items: diagnosticsOf(analysis, uri) };
}

export function countBySeverity(analysis: Analysis): { errors: number; warnings: number; information: number; hints: number } {
  const counts = { errors: 0, warnings: 0, information: 0, hints: 0 };
  for (const f of analysis.findings) {
    if (f.severity === "error") counts.errors++;
    else if (f.severity === "warning") counts.warnings++;
    else if (f.severity === "information") counts.information++;
    else counts.hints++;
  }
  return counts;
}

/**
 * The finding a diagnostic sent by this server came from (matched by code, range and message, as code actions
 * receive them): one check can report two findings on one range (subagent-escalation's tool and path halves), and
 * each has fixes of its own.
 */
export function findingOf(analysis: Analysis, diagnostic: Diagnostic): Finding | undefined {
  return analysis.findings.find((f) => {
    if (f.code !== diagnostic.code || f.message !== diagnostic.message) return false;
    const r = analysis.lines.rangeOf(f.span);
    return (
      r.start.line === diagnostic.range.start.line &&
      r.start.character === diagnostic.range.start.character &&
      r.end.line === diagnostic.range.end.line &&
      r.end.character === diagnostic.range.end.character
    );
  });
}
