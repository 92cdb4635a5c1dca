import type { Edit } from "../diagnostics";
import { indentationAt, removeArrayElement } from "./edits";
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
  const insertion: Edit = {
    span: { start: target.offset, end: target.offset },
    newText: ownLine ? `${elementText},\n${indentationAt(text, target.offset)}` : `${elementText}, `,
  };
  return [insertion, removeArrayElement(text, array, from)];
}
