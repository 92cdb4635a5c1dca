import type { Edit } from "../diagnostics";
import type { JsonNode } from "./parse";

/**
 * Text edits on arrays that keep the user's layout and comments: a removed element takes its own comma and the
 * rest of its line with it, never a neighbour's comment.
 */
export function removeArrayElement(text: string, array: JsonNode, index: number, takePreviousComma = false): Edit {
  const items = array.children ?? [];
  const item = items[index]!;
  let start = item.offset;
  let end = item.offset + item.length;
  const comma = nextNonSpace(text, end);
  if (text[comma] === "," && !takePreviousComma) {
    end = comma + 1;
  } else if (index > 0) {
    // The last element: take the comma that separates it from the previous one.
    const prev = items[index - 1]!;
    const prevComma = nextNonSpace(text, prev.offset + prev.length);
    if (text[prevComma] === ",") start = prevComma;
  }
  // Swallow the whole line when the element stood alone on it. Line ends are looked for in a bounded window: a
  // minified file is one line of megabytes, and checks build fixes for thousands of findings in it.
  const lineStart = lineStartOf(text, item.offset);
  const lineEnd = lineEndAfter(text, end);
  // A `\r` before the line break belongs to the break (a file saved with CRLF line ends).
  const breakAt = lineEnd > 0 && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
  if (lineStart >= 0 && lineEnd >= 0 && /^[ \t]*$/.test(text.slice(end, breakAt))) {
    if (start < lineStart) {
      // The last element took the previous element's comma: remove through the end of its line, keep the line break.
      end = breakAt;
      // Comments between that comma and the element (on the previous element's line, or lines of their own) are
      // the user's: they stay, only the comma goes.
      const between = text.slice(start + 1, lineStart).replace(/\r?\n$/, "");
      if (/\S/.test(between)) return { span: { start, end }, newText: between };
    } else if (/^[ \t]*$/.test(text.slice(lineStart, start))) {
      start = lineStart;
      end = Math.min(text.length, lineEnd + 1);
    }
  }
  // The last element on a line it shares: the comments between the comma it takes and its text stay. When a line
  // break came between them, it stays too: a line comment (`"a", // note⏎ "a"]`) would otherwise run on over the
  // closing bracket after it (`--fix` wrote `["a" // note]`).
  if (start < item.offset) {
    const raw = text.slice(start + 1, item.offset);
    const between = raw.trim();
    if (between !== "") return { span: { start, end }, newText: /[\r\n]/.test(raw) ? ` ${raw.trimStart()}` : ` ${between}` };
  }
  return { span: { start, end }, newText: "" };
}

/**
 * Edits that remove several elements of `array` at once (`indices` ascending, each once), none overlapping another:
 * each element takes its own comma, except in a run of removed elements that reaches the end of the array, where
 * each takes the comma before it (the last survivor's comma goes with them). All of them removed: the array's
 * contents go, comments included.
 */
export function removeArrayElements(text: string, array: JsonNode, indices: readonly number[]): Edit[] {
  const items = array.children ?? [];
  if (indices.length === 0) return [];
  if (indices.length === items.length) return [{ span: { start: array.offset + 1, end: array.offset + array.length - 1 }, newText: "" }];
  // The removed run that ends the array, if any: it starts after the last element that stays.
  let tail = items.length;
  for (let k = indices.length - 1; k >= 0 && indices[k] === tail - 1; k--) tail--;
  return indices.map((index) => removeArrayElement(text, array, index, index >= tail));
}

/** Insert `elementText` as the new first element of `array`, indented like its current first element. */
export function insertFirstElement(text: string, array: JsonNode, elementText: string): Edit {
  const first = array.children?.[0];
  if (!first) return { span: { start: array.offset + 1, end: array.offset + 1 }, newText: elementText };
  const indent = indentationAt(text, first.offset);
  const sameLine = !text.slice(array.offset, first.offset).includes("\n");
  const newText = sameLine ? `${elementText}, ` : `${elementText},\n${indent}`;
  return { span: { start: first.offset, end: first.offset }, newText };
}

/** The indentation of the line holding `offset` (empty for a line longer than any indentation could be). */
export function indentationAt(text: string, offset: number): string {
  const lineStart = lineStartOf(text, offset);
  if (lineStart < 0) return "";
  const match = /^[ \t]*/.exec(text.slice(lineStart, offset));
  return match ? match[0] : "";
}

/** How far the line helpers look for a line break before giving up (a line that long is not hand-formatted). */
const LINE_WINDOW = 4096;

/** Start of the line holding `offset`, or -1 when it lies beyond the window. */
export function lineStartOf(text: string, offset: number): number {
  const from = Math.max(0, offset - LINE_WINDOW);
  const newline = text.slice(from, offset).lastIndexOf("\n");
  if (newline >= 0) return from + newline + 1;
  return from === 0 ? 0 : -1;
}

/** Offset of the line break ending the line that holds `from` (the text length at the end), or -1 beyond the window. */
function lineEndAfter(text: string, from: number): number {
  const to = Math.min(text.length, from + LINE_WINDOW);
  const newline = text.slice(from, to).indexOf("\n");
  if (newline >= 0) return from + newline;
  return to === text.length ? text.length : -1;
}

/** The first offset at or after `from` that is not white space (the text's length when there is none). */
export function nextNonSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}
