/** Offsets ↔ LSP positions (0-based line, UTF-16 character), computed once per text. */
export interface Position {
  line: number;
  character: number;
}
export interface Range {
  start: Position;
  end: Position;
}
/** A half-open span of UTF-16 offsets into the text. */
export interface Span {
  start: number;
  end: number;
}

export class LineIndex {
  private readonly lineStarts: number[];
  constructor(readonly text: string) {
    const starts = [0];
    if (!text.includes("\r")) {
      // The usual text: the native search finds each line break, where a loop over every character runs once per
      // file, so never gets optimised (a 1,000-rule file is 115,000 characters).
      for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    } else {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 13 /* \r */) {
          if (text.charCodeAt(i + 1) === 10) i++;
          starts.push(i + 1);
        } else if (c === 10) starts.push(i + 1);
      }
    }
    this.lineStarts = starts;
  }
  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.lineStarts[mid]! <= o) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: o - this.lineStarts[low]! };
  }
  offsetAt(position: Position): number {
    if (position.line >= this.lineStarts.length) return this.text.length;
    if (position.line < 0) return 0;
    const start = this.lineStarts[position.line]!;
    const next = position.line + 1 < this.lineStarts.length ? this.lineStarts[position.line + 1]! : this.text.length;
    // Before the line break, as vscode-languageserver-textdocument keeps it: a character past the end of a CRLF
    // line must not land between `\r` and `\n`.
    let end = next;
    if (end > start && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return Math.min(start + Math.max(0, position.character), end);
  }
  rangeOf(span: Span): Range {
    return { start: this.positionAt(span.start), end: this.positionAt(span.end) };
  }
  lineCount(): number {
    return this.lineStarts.length;
  }
  lineStart(line: number): number {
    return this.lineStarts[Math.max(0, Math.min(line, this.lineStarts.length - 1))]!;
  }
}

/**
 * A UTF-8 byte order mark (U+FEFF) in front of a file: Notepad and other Windows editors write one, VS Code keeps it
 * out of the document's text, and a JSON parser reads it as an invalid symbol at 1:1. Text read from disk goes
 * through this, so what the engine checks, and every position it reports, is what the editor shows.
 */
export const BYTE_ORDER_MARK = "\uFEFF";
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * A config value as text for a message: a string as it is, anything else as JSON. Not `String(value)`: the
 * parser's objects have no prototype, and `String` throws on them.
 */
export function valueText(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}
