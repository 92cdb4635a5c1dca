/** textDocument/foldingRange: objects and arrays over several lines, block comments, `// #region` markers. */
import { createScanner } from "jsonc-parser";
import { FoldingRangeKind, type FoldingRange } from "vscode-languageserver/node";
import type { LineIndex } from "../engine/text";

/** jsonc-parser `SyntaxKind` values (a const enum, which isolated builds cannot inline). */
const OPEN_BRACE = 1, CLOSE_BRACE = 2, OPEN_BRACKET = 3, CLOSE_BRACKET = 4, LINE_COMMENT = 12, BLOCK_COMMENT = 13, EOF = 17;

export function foldingRanges(text: string, lines: LineIndex, limit = 5000): FoldingRange[] {
  const ranges: FoldingRange[] = [];
  const open: number[] = [];
  const regions: number[] = [];
  const scanner = createScanner(text, false);
  for (let kind = scanner.scan(); kind !== EOF && ranges.length < limit; kind = scanner.scan()) {
    const line = lines.positionAt(scanner.getTokenOffset()).line;
    if (kind === OPEN_BRACE || kind === OPEN_BRACKET) open.push(line);
    else if (kind === CLOSE_BRACE || kind === CLOSE_BRACKET) {
      const start = open.pop();
      // The closing line stays visible: fold up to the line before it.
      if (start !== undefined && line - 1 > start) ranges.push({ startLine: start, endLine: line - 1 });
    } else if (kind === BLOCK_COMMENT) {
      const end = lines.positionAt(scanner.getTokenOffset() + scanner.getTokenLength()).line;
      if (end > line) ranges.push({ startLine: line, endLine: end, kind: FoldingRangeKind.Comment });
    } else if (kind === LINE_COMMENT) {
      const body = text.slice(scanner.getTokenOffset(), scanner.getTokenOffset() + scanner.getTokenLength());
      if (/^\/\/\s*#region\b/.test(body)) regions.push(line);
      else if (/^\/\/\s*#endregion\b/.test(body)) {
        const start = regions.pop();
        if (start !== undefined && line > start) ranges.push({ startLine: start, endLine: line, kind: FoldingRangeKind.Region });
      }
    }
  }
  return ranges.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}
