import { createScanner } from "jsonc-parser";
import { Token } from "./config/tokens";
import type { Finding, Severity } from "./diagnostics";
import type { LineIndex, Span } from "./text";

/** Per-code severity overrides, as the CLI's `--severity` and the editor's `agentSandbox.severities` give them. */
export type SeverityOverrides = Readonly<Record<string, Severity | "off">>;

/**
 * What the user asked to hear, applied to the findings of any kind of file (config or dry-run scenario), once, in
 * the engine, so that every host shows the same list: a code turned `off` and a finding silenced by an
 * `agent-sandbox-ignore` comment are dropped, an overridden code gets its new severity, and the list is put in
 * file order. In a file whose lines end in `\r\n` (as Windows editors save), fixes get its line ends too (they are
 * written with `\n`), so a fix never leaves a file with both kinds.
 */
export function finishFindings(findings: readonly Finding[], text: string, lines: LineIndex, severities: SeverityOverrides = {}, comments?: readonly Span[]): Finding[] {
  // A source file's comments come from its parser (`//`, `/* */`, `#`); a JSONC file's from the JSONC scanner.
  const suppressed = comments ? suppressedLinesOfComments(text, lines, comments) : suppressedLines(text, lines);
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
      const codes = codesOf(scanner.getTokenValue());
      if (!codes) continue;
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

/** The codes a comment's text names after the marker (none: it is no suppression comment). */
function codesOf(body: string): string[] | undefined {
  const at = body.indexOf(IGNORE_MARKER);
  if (at < 0) return undefined;
  return body.slice(at + IGNORE_MARKER.length).replace(/\*\/$/, "").split(/[\s,]+/).filter((c) => /^[a-z][a-z0-9-]*$/.test(c));
}

/**
 * The same rule as `suppressedLines`, for a file whose comments its own parser found (a TypeScript, JavaScript or
 * Python file: `// agent-sandbox-ignore CODE`, `/* … *\/`, `# agent-sandbox-ignore CODE`), given as spans in file
 * order. A comment after code on its line silences that line; one alone on its line, the next line holding code
 * (anything that is neither white space nor a comment).
 */
export function suppressedLinesOfComments(text: string, lines: LineIndex, comments: readonly Span[]): Map<number, Set<string>> {
  const result = new Map<number, Set<string>>();
  if (!text.includes(IGNORE_MARKER)) return result;
  // Whether `[from, to)` holds code: a character that is not white space, outside every comment.
  const holdsCode = (from: number, to: number): boolean => {
    // The first comment that ends after `from` (comments are in file order and do not overlap).
    let low = 0;
    let high = comments.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (comments[mid]!.end <= from) low = mid + 1;
      else high = mid;
    }
    for (let i = from, k = low; i < to; i++) {
      const c = comments[k];
      if (c && c.start <= i) {
        i = c.end - 1;
        k++;
        continue;
      }
      const code = text.charCodeAt(i);
      if (code !== 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12 && code !== 0xfeff) return true;
    }
    return false;
  };
  const lineCount = lines.lineCount();
  for (const comment of comments) {
    const codes = codesOf(text.slice(comment.start, comment.end));
    if (!codes) continue;
    const line = lines.positionAt(comment.start).line;
    if (holdsCode(lines.lineStart(line), comment.start)) {
      add(result, line, codes);
      continue;
    }
    for (let l = lines.positionAt(comment.end).line + 1; l < lineCount; l++) {
      if (holdsCode(lines.lineStart(l), l + 1 < lineCount ? lines.lineStart(l + 1) : text.length)) {
        add(result, l, codes);
        break;
      }
    }
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
