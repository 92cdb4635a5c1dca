import type { Edit } from "../diagnostics";
import { CopiedValue, OnePerLine, Suppressed, type FixObject, type FixOperation, type FixRenderer, type FixValue, type FrontEnd } from "../fixOperations";
import { moveArrayElementBefore } from "./arrayMove";
import { indentationAt, insertFirstElement, removeArrayElement, removeArrayElements } from "./edits";
import { appendArrayElement, insertProperty, nodeText, reindent, removeProperty, replaceValue } from "./objectEdits";
import { spanOf, type JsonNode } from "./parse";

/**
 * The JSONC file's front end: it renders fix operations (fixOperations.ts) into text edits that keep the file's
 * layout: a list written one element per line gets its new elements one per line, in its indentation; one written
 * on a line gets them on that line; a removed element takes its comma and, when it stood alone, its line, never a
 * neighbour's comment; a moved rule takes its comment lines with it; plain data is written as JSON (lists and objects
 * on one line unless `OnePerLine`), a copied value as the user wrote it, re-indented where it lands.
 */
export const jsoncFrontEnd: FrontEnd = {
  syntax: "jsonc",
  renderer: (text) => new JsoncFixRenderer(text),
};

class JsoncFixRenderer implements FixRenderer {
  /** One level of the file's indentation, found when first needed. */
  private unitFound: string | undefined;
  /** Values shared by many fixes (one middleware entry for thousands of subagents) are written once. */
  private readonly written = new WeakMap<object, string>();

  constructor(private readonly text: string) {}

  render(operations: readonly FixOperation[]): Edit[] {
    if (operations.length === 1) return this.edits(operations[0]!);
    const edits: Edit[] = [];
    for (const op of operations) edits.push(...this.edits(op));
    return edits;
  }

  private edits(op: FixOperation): Edit[] {
    const text = this.text;
    switch (op.op) {
      case "replace":
        return [replaceValue(text, op.node, this.valueText(op.value))];
      case "rename-key":
        return [{ span: spanOf(op.key), newText: JSON.stringify(op.to) }];
      case "replace-element": {
        const separator = this.onePerLine(op.list) ? `,\n${indentationAt(text, op.element.offset)}` : ", ";
        return [{ span: spanOf(op.element), newText: op.values.map((v) => this.write(v, indentationAt(text, op.element.offset))).join(separator) }];
      }
      case "insert":
        return this.insert(op.list, op.index, op.values, op.onePerLine === true);
      case "remove": {
        const indices = op.elements.map((e) => this.indexOf(op.list, e));
        if (indices.some((i) => i < 0)) return [];
        if (indices.length === 1) return [removeArrayElement(text, op.list, indices[0]!)];
        return removeArrayElements(text, op.list, [...indices].sort((a, b) => a - b));
      }
      case "move": {
        const from = this.indexOf(op.list, op.element);
        const to = this.indexOf(op.list, op.before);
        return from < 0 || to < 0 ? [] : moveArrayElementBefore(text, op.list, from, to);
      }
      case "add-key":
        return [insertProperty(text, op.object, op.key, this.valueText(op.value))];
      case "remove-key": {
        const edit = removeProperty(text, op.value);
        return edit ? [edit] : [];
      }
    }
  }

  private insert(list: JsonNode, index: number, values: readonly FixValue[], onePerLine: boolean): Edit[] {
    const text = this.text;
    const items = list.children ?? [];
    if (values.length === 0 || index < 0 || index > items.length) return [];
    // Laid out one per line: a list on one line (or empty) is written anew, its elements as the user wrote them.
    if (onePerLine && !this.onePerLine(list)) {
      const all: FixValue[] = items.map((item) => new CopiedValue(item));
      all.splice(index, 0, ...values);
      return [replaceValue(text, list, this.valueText(new OnePerLine(all)))];
    }
    if (items.length === 0) return [{ span: { start: list.offset + 1, end: list.offset + 1 }, newText: values.map((v) => this.write(v, "")).join(", ") }];
    if (index === 0) {
      // Before the first element, in its indentation when the list is one per line.
      const indent = indentationAt(text, items[0]!.offset);
      const multiline = this.onePerLine(list);
      return [insertFirstElement(text, list, values.map((v) => this.write(v, multiline ? indent : "")).join(multiline ? `,\n${indent}` : ", "))];
    }
    if (index === items.length && values.length === 1) return [appendArrayElement(text, list, this.valueText(values[0]!))];
    // After element `index - 1`: on its line, or each on a line of its own in its indentation.
    const previous = items[index - 1]!;
    const end = previous.offset + previous.length;
    const multiline = text.slice(list.offset, previous.offset).includes("\n");
    const indent = multiline ? indentationAt(text, previous.offset) : "";
    return [{ span: { start: end, end }, newText: values.map((v) => (multiline ? `,\n${indent}` : ", ") + this.write(v, indent)).join("") }];
  }

  /** Whether a line break comes between the list's `[` and its first element (an empty list: no). */
  private onePerLine(list: JsonNode): boolean {
    const first = list.children?.[0];
    return first !== undefined && this.text.slice(list.offset, first.offset).includes("\n");
  }

  /** The element's position in the list (-1: not one of its elements), by its offset: a list of 100,000 is not scanned per fix. */
  private indexOf(list: JsonNode, element: JsonNode): number {
    const items = list.children ?? [];
    let low = 0;
    let high = items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (items[mid]!.offset < element.offset) low = mid + 1;
      else high = mid;
    }
    return items[low] === element ? low : -1;
  }

  /**
   * `value` as the text of a value whose line starts unindented (the edit helpers move its continuation lines to
   * where it lands): a copied value as written, with its own indentation, which those helpers re-indent.
   */
  private valueText(value: FixValue): string {
    if (value instanceof CopiedValue) return nodeText(this.text, value.node);
    if (typeof value !== "object" || value === null) return this.write(value, "");
    let written = this.written.get(value);
    if (written === undefined) this.written.set(value, (written = this.write(value, "")));
    return written;
  }

  /** `value` written to start on a line indented `indent`: its continuation lines carry their full indentation. */
  private write(value: FixValue, indent: string): string {
    if (value instanceof CopiedValue) return reindent(nodeText(this.text, value.node), indent);
    if (value instanceof Suppressed) return `/* agent-sandbox-ignore ${value.codes.join(" ")} */ ${this.write(value.value, indent)}`;
    if (value instanceof OnePerLine) {
      const inner = indent + this.unit();
      const lines = Array.isArray(value.value)
        ? (value.value as readonly FixValue[]).map((v) => `${inner}${this.write(v, inner)}`)
        : Object.entries(value.value as FixObject).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${this.write(v, inner)}`);
      const [open, close] = Array.isArray(value.value) ? ["[", "]"] : ["{", "}"];
      return `${open}\n${lines.join(",\n")}\n${indent}${close}`;
    }
    if (Array.isArray(value)) return `[${(value as readonly FixValue[]).map((v) => this.write(v, indent)).join(", ")}]`;
    if (typeof value === "object" && value !== null) {
      const members = Object.entries(value as FixObject).map(([k, v]) => `${JSON.stringify(k)}: ${this.write(v, indent)}`);
      return members.length === 0 ? "{}" : `{ ${members.join(", ")} }`;
    }
    return JSON.stringify(value);
  }

  /** One level of the file's indentation: the shortest indentation of any line (two spaces when none is). */
  private unit(): string {
    if (this.unitFound !== undefined) return this.unitFound;
    let unit: string | undefined;
    for (const m of this.text.matchAll(/\n([ \t]+)\S/g)) {
      if (unit === undefined || m[1]!.length < unit.length) unit = m[1]!;
      if (unit.length === 1) break;
    }
    return (this.unitFound = unit ?? "  ");
  }
}
