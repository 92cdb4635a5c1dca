/** textDocument/formatting and rangeFormatting: jsonc-parser's formatter, which keeps comments. */
import { format } from "jsonc-parser";
import type { FormattingOptions, Range, TextEdit } from "vscode-languageserver/node";
import type { LineIndex } from "../engine/text";

export function formatEdits(text: string, lines: LineIndex, options: FormattingOptions, range?: Range): TextEdit[] {
  const eol = /\r\n/.test(text) ? "\r\n" : "\n";
  const span = range ? { offset: lines.offsetAt(range.start), length: lines.offsetAt(range.end) - lines.offsetAt(range.start) } : undefined;
  const edits = format(text, span, {
    tabSize: options.tabSize,
    insertSpaces: options.insertSpaces,
    eol,
    insertFinalNewline: options.insertFinalNewline ?? false,
  });
  return edits.map((e) => ({ range: lines.rangeOf({ start: e.offset, end: e.offset + e.length }), newText: e.content }));
}
