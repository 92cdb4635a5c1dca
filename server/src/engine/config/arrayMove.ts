import type { Edit } from "../diagnostics";
import { indentationAt, lineStartOf, removeArrayElement } from "./edits";
import type { JsonNode } from "./parse";

/**
 * Move element `from` of `array` to just before element `to` (`to < from`), keeping the user's layout: the element's
 * own text (with any comment inside it) is inserted before the target, indented like it, and removed from its old
 * place together with its comma (config/edits.ts `removeArrayElement`). Two non-overlapping edits.
 */
export function moveArrayElementBefore(text: string, array: JsonNode, from: number, to: number): Edit[] {
  const items = array.children ?? [];
  const item = items[from];
  const target = items[to];
  if (!item || !target || !(to < from)) return [];
  const elementText = text.slice(item.offset, item.offset + item.length);
  const previousEnd = to === 0 ? array.offset + 1 : items[to - 1]!.offset + items[to - 1]!.length;
  const ownLine = text.slice(previousEnd, target.offset).includes("\n");
  const indent = indentationAt(text, target.offset);
  const removal = removeArrayElement(text, array, from);
  // Comment lines right above an element on its own line are about it ("// Keep secrets out of reach."): they
  // move with it, rather than stay behind above whatever comes next (or, for the last element, be removed).
  const comments = ownLine ? leadingCommentLines(text, items[from - 1]!, item) : undefined;
  if (comments) {
    const insertion: Edit = {
      span: { start: target.offset, end: target.offset },
      newText: `${comments.lines.map((line) => `${line}\n${indent}`).join("")}${elementText},\n${indent}`,
    };
    const start = Math.min(removal.span.start, comments.start);
    // The last element's removal starts at the previous comma and keeps the comments: here they go with the element.
    return [insertion, { span: { start, end: removal.span.end }, newText: "" }];
  }
  const insertion: Edit = {
    span: { start: target.offset, end: target.offset },
    newText: ownLine ? `${elementText},\n${indent}` : `${elementText}, `,
  };
  return [insertion, removal];
}

/**
 * The whole lines between the previous element's line and `item`'s that hold only a comment, with where the first
 * starts: `undefined` when there are none, or when anything else (another element's text) shares those lines.
 */
function leadingCommentLines(text: string, previous: JsonNode, item: JsonNode): { start: number; lines: string[] } | undefined {
  const itemLine = lineStartOf(text, item.offset);
  if (itemLine < 0 || /\S/.test(text.slice(itemLine, item.offset))) return undefined;
  const afterPrevious = text.indexOf("\n", previous.offset + previous.length);
  if (afterPrevious < 0 || afterPrevious >= itemLine) return undefined;
  const block = text.slice(afterPrevious + 1, itemLine - 1);
  const lines = block.split("\n").map((line) => line.trim());
  if (!lines.some((line) => line !== "") || !lines.every((line) => line === "" || line.startsWith("//") || (line.startsWith("/*") && line.endsWith("*/")))) return undefined;
  return { start: afterPrevious + 1, lines: lines.filter((line) => line !== "") };
}
