import type { Edit } from "../diagnostics";
import { indentationAt, removeArrayElement } from "./edits";
import type { JsonNode } from "./parse";

/**
 * Edits that add to or take from JSON objects and arrays while keeping the user's layout: a new member goes after
 * the last one, on its own line and with its indentation when the object spans lines, inline otherwise.
 * (Array element removal and first-element insertion are in ./edits.ts.)
 */
export function insertProperty(text: string, object: JsonNode, key: string, valueText: string): Edit {
  const members = object.children ?? [];
  const last = members.at(-1);
  const close = object.offset + object.length - 1; // the `}`
  if (!last) {
    const multiline = text.slice(object.offset, close).includes("\n");
    const indent = multiline ? indentationAt(text, object.offset) : "";
    const member = `${JSON.stringify(key)}: ${reindent(valueText, indent + "  ")}`;
    return { span: { start: object.offset + 1, end: close }, newText: multiline ? `\n${indent}  ${member}\n${indent}` : ` ${member} ` };
  }
  const end = last.offset + last.length;
  const between = text.slice(end, close);
  // Keep a trailing comma that is already there; the new member then needs its own only if more follow (none do).
  const commaAt = between.search(/\S/) >= 0 && between.trimStart().startsWith(",") ? end + between.indexOf(",") + 1 : -1;
  const multiline = text.slice(object.offset, last.offset).includes("\n");
  const indent = multiline ? indentationAt(text, last.offset) : "";
  const member = `${JSON.stringify(key)}: ${reindent(valueText, indent)}`;
  if (commaAt >= 0) return { span: { start: commaAt, end: commaAt }, newText: multiline ? `\n${indent}${member},` : ` ${member},` };
  return { span: { start: end, end }, newText: multiline ? `,\n${indent}${member}` : `, ${member}` };
}

/** Removes the member whose value is `valueNode` (with its comma, and its line when it stood alone). */
export function removeProperty(text: string, valueNode: JsonNode): Edit | undefined {
  const property = valueNode.parent;
  const object = property?.parent;
  if (!property || property.type !== "property" || !object) return undefined;
  const index = object.children?.indexOf(property) ?? -1;
  return index < 0 ? undefined : removeArrayElement(text, object, index);
}

/** Adds `elementText` as the last element of `array`. */
export function appendArrayElement(text: string, array: JsonNode, elementText: string): Edit {
  const items = array.children ?? [];
  const last = items.at(-1);
  if (!last) return { span: { start: array.offset + 1, end: array.offset + array.length - 1 }, newText: elementText };
  const end = last.offset + last.length;
  const multiline = text.slice(array.offset, last.offset).includes("\n");
  const indent = multiline ? indentationAt(text, last.offset) : "";
  return { span: { start: end, end }, newText: multiline ? `,\n${indent}${reindent(elementText, indent)}` : `, ${elementText}` };
}

/** Replaces a value with new text, indented for where it lands. */
export function replaceValue(text: string, node: JsonNode, valueText: string): Edit {
  const indent = valueText.includes("\n") ? indentationAt(text, node.offset) : "";
  return { span: { start: node.offset, end: node.offset + node.length }, newText: reindent(valueText, indent) };
}

/**
 * Text copied from one place of the file to another: its continuation lines were indented for where it came from
 * (`sourceIndent`, inferred from its last line, the closing bracket); move them to `targetIndent`.
 */
export function reindent(valueText: string, targetIndent: string): string {
  const lines = valueText.split("\n");
  if (lines.length === 1) return valueText;
  const closing = lines.at(-1)!;
  const sourceIndent = /^[ \t]*/.exec(closing)![0];
  if (sourceIndent === targetIndent) return valueText;
  return lines.map((line, i) => (i === 0 ? line : line.startsWith(sourceIndent) ? targetIndent + line.slice(sourceIndent.length) : line)).join("\n");
}

/** The source text of a node (for copying a value elsewhere). */
export function nodeText(text: string, node: JsonNode): string {
  return text.slice(node.offset, node.offset + node.length);
}
