import type { Edit } from "../diagnostics";
import type { JsonNode } from "./parse";

/**
 * Text edits on arrays that keep the user's layout and comments: a removed element takes its own comma and the
 * rest of its line with it, never a neighbour's comment.
 */
export function removeArrayElement(text: string, array: JsonNode, index: number): Edit {
  const items = array.children ?? [];
  const item = items[index]!;
  let start = item.offset;
  let end = item.offset + item.length;
  const comma = nextNonSpace(text, end);
  if (text[comma] === ",") {
    end = comma + 1;
  } else if (index > 0) {
    // The last element: take the comma that separates it from the previous one.
    const prev = items[index - 1]!;
    const prevComma = nextNonSpace(text, prev.offset + prev.length);
    if (text[prevComma] === ",") start = prevComma;
  }
  // Swallow the whole line when the element stood alone on it.
  const lineStart = text.lastIndexOf("\n", item.offset - 1) + 1;
  const before = text.slice(lineStart, start);
  const lineEnd = lineEndAfter(text, end);
  if (/^[ \t]*$/.test(before) && /^[ \t]*$/.test(text.slice(end, lineEnd))) {
    start = lineStart;
    end = Math.min(text.length, lineEnd + 1);
  }
  return { span: { start, end }, newText: "" };
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

export function indentationAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const match = /^[ \t]*/.exec(text.slice(lineStart, offset));
  return match ? match[0] : "";
}

function nextNonSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

function lineEndAfter(text: string, from: number): number {
  const nl = text.indexOf("\n", from);
  return nl < 0 ? text.length : nl;
}
