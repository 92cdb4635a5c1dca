import { createScanner } from "jsonc-parser";
import { Token } from "./config/tokens";
import type { Finding, Severity } from "./diagnostics";
import type { LineIndex } from "./text";

/** Per-code severity overrides, as the CLI's `--severity` and the editor's `agentSandbox.severities` give them. */
export type SeverityOverrides = Readonly<Record<string, Severity | "off">>;

/**
 * What the user asked to hear, applied to the findings of any kind of file (config or dry-run scenario), once, in
 * the engine, so that every host shows the same list: a code turned `off` and a finding silenced by an
 * `agent-sandbox-ignore` comment are dropped, an overridden code gets its new severity, and the list is put in
 * file order. In a file whose lines end in `\r\n` (as Windows editors save), fixes get its line ends too (they are
 * written with `\n`), so a fix never leaves a file with both kinds.
 */
export function finishFindings(findings: readonly Finding[], text: string, lines: LineIndex, severities: SeverityOverrides = {}): Finding[] {
  const suppressed = suppressedLines(text, lines);
  const crlf = usesCrlf(text);
  const result: Finding[] = [];
  for (const f of findings) {
    const override = severities[f.code];
    if (override === "off" || isSuppressed(f, lines, suppressed)) continue;
    const found = crlf && f.fixes?.length ? { ...f, fixes: f.fixes.map((x) => ({ ...x, edits: x.edits.map((e) => ({ ...e, newText: withCrlf(e.newText) })) })) } : f;
    result.push(override ? { ...found, severity: override } : found);
  }
  return result.sort(compareFindings);
}

/** The file's first line break is `\r\n`. */
export function usesCrlf(text: string): boolean {
  const at = text.indexOf("\n");
  return at > 0 && text.charCodeAt(at - 1) === 13;
}

/** Every bare `\n` as `\r\n`. */
function withCrlf(newText: string): string {
  return newText.includes("\n") ? newText.replace(/\r?\n/g, "\r\n") : newText;
}

/** File order: by start, then end, then code; the sort is stable, so findings of one check keep their order. */
export function compareFindings(a: Finding, b: Finding): number {
  return a.span.start - b.span.start || a.span.end - b.span.end || byCodePoints(a.code, b.code);
}

/**
 * Plain string order. (`localeCompare` gives the same order for codes, which are lowercase ASCII and `-`, but its
 * first call loads ICU's collator: some 7 ms of every CLI run.)
 */
export function byCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `// agent-sandbox-ignore <code> [<code> …]` silences those codes on the element that starts on the comment's own
 * line (a trailing comment) or on the next line that holds code. `all` silences every code there.
 */
export const IGNORE_MARKER = "agent-sandbox-ignore";

export function suppressedLines(text: string, lines: LineIndex): Map<number, Set<string>> {
  const result = new Map<number, Set<string>>();
  if (!text.includes(IGNORE_MARKER)) return result;
  const scanner = createScanner(text, false);
  const pending: { codes: string[]; line: number }[] = [];
  let lastCodeLine = -1;
  for (let kind = scanner.scan(); kind !== Token.EOF; kind = scanner.scan()) {
    const line = lines.positionAt(scanner.getTokenOffset()).line;
    if (kind === Token.LineComment || kind === Token.BlockComment) {
      const body = scanner.getTokenValue();
      const at = body.indexOf(IGNORE_MARKER);
      if (at < 0) continue;
      const codes = body.slice(at + IGNORE_MARKER.length).replace(/\*\/$/, "").split(/[\s,]+/).filter((c) => /^[a-z][a-z0-9-]*$/.test(c));
      if (line === lastCodeLine) add(result, line, codes);
      else pending.push({ codes, line });
      continue;
    }
    if (kind === Token.Trivia || kind === Token.LineBreak) continue;
    lastCodeLine = line;
    while (pending.length) add(result, line, pending.pop()!.codes);
  }
  return result;
}

function add(map: Map<number, Set<string>>, line: number, codes: string[]): void {
  let set = map.get(line);
  if (!set) map.set(line, (set = new Set()));
  for (const c of codes) set.add(c);
}

export function isSuppressed(finding: Finding, lines: LineIndex, suppressed: Map<number, Set<string>>): boolean {
  if (suppressed.size === 0) return false;
  const codes = suppressed.get(lines.positionAt(finding.span.start).line);
  return !!codes && (codes.has(finding.code) || codes.has("all"));
}
