import { createScanner } from "jsonc-parser";
import { Token } from "./config/tokens";
import type { Finding } from "./diagnostics";
import type { LineIndex } from "./text";

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
