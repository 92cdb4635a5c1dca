/** textDocument/formatting and rangeFormatting: jsonc-parser's formatter, which keeps comments. */
import { format } from "jsonc-parser";
import type { FormattingOptions, Range, TextEdit } from "vscode-languageserver/node";
import type { LineIndex } from "../engine/text";

export function formatEdits(text: string, lines: LineIndex, options: FormattingOptions, range?: Range): TextEdit[] {
  // jsonc-parser's formatter indents only to its cache's depth (beyond it an edit has no text), and its output grows
  // with the square of the depth: 20,000 levels ran the server out of memory. Such a file is left as it is.
  if (nestingDepthOver(text, FORMAT_MAX_DEPTH)) return [];
  const eol = /\r\n/.test(text) ? "\r\n" : "\n";
  const span = range ? { offset: lines.offsetAt(range.start), length: lines.offsetAt(range.end) - lines.offsetAt(range.start) } : undefined;
  const edits = format(text, span, {
    tabSize: options.tabSize,
    insertSpaces: options.insertSpaces,
    eol,
    insertFinalNewline: options.insertFinalNewline ?? false,
  });
  // An edit without text would be read as `undefined` by a client: then nothing is formatted.
  if (edits.some((e) => typeof e.content !== "string")) return [];
  return edits.map((e) => ({ range: lines.rangeOf({ start: e.offset, end: e.offset + e.length }), newText: e.content }));
}

/** jsonc-parser's formatter has indentation text for this many levels. */
const FORMAT_MAX_DEPTH = 100;

/** Whether brackets outside strings and comments nest deeper than `limit`. */
export function nestingDepthOver(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92 /* \ */) i++;
    } else if (c === 47 /* / */ && text.charCodeAt(i + 1) === 47) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42 /* * */) {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === 91 || c === 123) {
      if (++depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}
