import type { Edit } from "../diagnostics";
import { indentationAt, lineStartOf, nextNonSpace, removeArrayElement } from "./edits";
import type { JsonNode } from "./parse";

/**
 * Move element `from` of `array` to just before element `to` (`to < from`), keeping the user's layout and comments
 * with what they describe. When both elements stand on lines of their own (a rule per line, as people write rule
 * lists), the moved element takes its lines with it: the comment lines right above it, a comment before it on its
 * line (`/* secrets *\/ { … }`) and the comment after it (`{ … }, // added 2025`); it lands above the target's own
 * comment lines, which stay with the target. Otherwise the element's text alone moves (config/edits.ts
 * `removeArrayElement`). Non-overlapping edits.
 */
export function moveArrayElementBefore(text: string, array: JsonNode, from: number, to: number): Edit[] {
  const items = array.children ?? [];
  const item = items[from];
  const target = items[to];
  if (!item || !target || !(to < from)) return [];
  const moved = ownLines(text, array, from);
  const before = moved && ownLines(text, array, to);
  if (moved && before) {
    const indent = indentationAt(text, target.offset);
    const element = text.slice(item.offset, item.offset + item.length).replace(/\r\n/g, "\n");
    const block = `${moved.comments.map((line) => `${indent}${line}\n`).join("")}${indent}${moved.before}${element},${moved.after}\n`;
    const edits: Edit[] = [{ span: { start: before.start, end: before.start }, newText: block }];
    if (!moved.comma) {
      // It was the last element and had no comma: the element before it is the last one now, and loses its comma,
      // as the list was written without a trailing one.
      const previous = items[from - 1]!;
      const comma = nextNonSpace(text, previous.offset + previous.length);
      if (text[comma] === "," && comma < moved.start) edits.push({ span: { start: comma, end: comma + 1 }, newText: "" });
    }
    edits.push({ span: { start: moved.start, end: moved.end }, newText: "" });
    return edits;
  }
  // An element that shares a line with another: its text moves, the comments stay where they are.
  const elementText = text.slice(item.offset, item.offset + item.length);
  const previousEnd = to === 0 ? array.offset + 1 : items[to - 1]!.offset + items[to - 1]!.length;
  const ownLine = text.slice(previousEnd, target.offset).includes("\n");
  const indent = indentationAt(text, target.offset);
  const insertion: Edit = {
    span: { start: target.offset, end: target.offset },
    newText: ownLine ? `${elementText},\n${indent}` : `${elementText}, `,
  };
  return [insertion, removeArrayElement(text, array, from)];
}

/** The lines an element owns, and what is on them besides its text. */
interface OwnLines {
  /** Where the first of them starts (its comment lines' first, or its own line's). */
  readonly start: number;
  /** Just past the line break ending its last line (the text's end when there is none). */
  readonly end: number;
  /** The comment lines right above it (no blank line between), trimmed. */
  readonly comments: readonly string[];
  /** Block comments before it on its first line (`/* … *\/ `). */
  readonly before: string;
  /** What follows its comma (or it, when it has none) on its last line: spaces and comments, right-trimmed. */
  readonly after: string;
  /** Whether a comma follows it on that line. */
  readonly comma: boolean;
}

/**
 * `undefined` unless the element stands on lines of its own: nothing but spaces and block comments before it on
 * its first line, nothing but its comma, spaces and comments after it on its last. Its comment lines are the
 * lines right above it that hold only a `//` comment or a one-line block comment; a blank line ends them (a
 * comment above a blank line heads a group of rules, not this one).
 */
function ownLines(text: string, array: JsonNode, index: number): OwnLines | undefined {
  const items = array.children ?? [];
  const item = items[index]!;
  const lineStart = lineStartOf(text, item.offset);
  const previousEnd = index === 0 ? array.offset + 1 : items[index - 1]!.offset + items[index - 1]!.length;
  if (lineStart < 0 || lineStart <= previousEnd) return undefined;
  const lead = /^([ \t]*)((?:\/\*(?:(?!\*\/)[^\n])*\*\/[ \t]*)*)$/.exec(text.slice(lineStart, item.offset));
  if (!lead) return undefined;
  const itemEnd = item.offset + item.length;
  const newline = text.indexOf("\n", itemEnd);
  const lineEnd = newline < 0 ? text.length : newline;
  const tail = /^([ \t]*)(,?)((?:[ \t]*\/\*(?:(?!\*\/)[^\n])*\*\/)*[ \t]*(?:\/\/[^\n]*)?)$/.exec(text.slice(itemEnd, lineEnd).replace(/\r$/, ""));
  if (!tail) return undefined;
  const comma = tail[2] === ",";
  // A comma on a later line (or none between two elements) is a layout this does not take apart.
  if (!comma && index < items.length - 1) return undefined;
  const comments: string[] = [];
  let start = lineStart;
  while (start > previousEnd + 1) {
    const above = lineStartOf(text, start - 1);
    if (above < 0 || above <= previousEnd) break;
    const line = text.slice(above, start - 1).replace(/\r$/, "").trim();
    if (!(line.startsWith("//") || /^\/\*(?:(?!\*\/).)*\*\/$/.test(line))) break;
    comments.unshift(line);
    start = above;
  }
  return { start, end: newline < 0 ? text.length : newline + 1, comments, before: lead[2]!, after: (comma ? tail[3]! : tail[1]! + tail[3]!).trimEnd(), comma };
}
