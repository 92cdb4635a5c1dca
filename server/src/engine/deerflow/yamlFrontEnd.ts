/**
 * The YAML front end (DeerFlow's config.yaml, a SKILL.md's frontmatter): yamlTree.ts reads the text into the
 * Node-shaped trees the checks walk, with offsets into the YAML; this file renders the checks' fix operations
 * (fixOperations.ts) back into YAML, in the file's own style:
 * - a scalar is quoted as the one it replaces was (plain, `'single'`, `"double"`), and plain only when PyYAML reads
 *   the plain text back as the same string;
 * - in a block list an element is a `- item` line, in the indentation of its neighbours; in a flow list it sits
 *   between commas;
 * - a removed element or key takes its line in block style, its comma in flow style; the last one of a block
 *   collection leaves `[]` or `{}` after its key's colon (an empty block would be null);
 * - a block collection replaced by a scalar (`allow:` + `- "*"` → `allow: "*"`) is written after its key's colon;
 * - new lists and mappings are written in flow style (`[a, b]`, `{k: v}`), which fits anywhere a value goes;
 * - in a file whose lines end in `\r\n`, every line a fix writes ends so too.
 * An operation this cannot write (a suppression note, a copy of a block collection, an element reached through an
 * alias or a merge key, which is written elsewhere in the text) makes the whole fix render to nothing: not offered.
 */
import { isScalar, parseDocument } from "yaml";
import { removeArrayElement, removeArrayElements } from "../config/edits";
import type { JsonNode } from "../config/parse";
import type { Edit } from "../diagnostics";
import { CopiedValue, OnePerLine, Suppressed, type FixObject, type FixOperation, type FixRenderer, type FixValue, type FrontEnd } from "../fixOperations";
import { usesCrlf } from "../suppressions";

export const yamlFrontEnd: FrontEnd = {
  syntax: "yaml",
  renderer: (text) => new YamlFixRenderer(text),
};

class YamlFixRenderer implements FixRenderer {
  /** The file's line break. */
  private readonly eol: string;

  constructor(private readonly text: string) {
    this.eol = usesCrlf(text) ? "\r\n" : "\n";
  }

  render(operations: readonly FixOperation[]): Edit[] {
    const edits: Edit[] = [];
    for (const op of operations) {
      const rendered = this.edits(op);
      // Half a fix is not the fix: one operation that cannot be written withdraws all of it.
      if (!rendered) return [];
      edits.push(...rendered);
    }
    return edits;
  }

  private edits(op: FixOperation): Edit[] | undefined {
    switch (op.op) {
      case "replace":
        return one(this.replace(op.node, op.value));
      case "rename-key": {
        const written = this.text.slice(op.key.offset, op.key.offset + op.key.length);
        return [{ span: spanOf(op.key), newText: yamlScalar(op.to, written, this.inFlow(op.key)) }];
      }
      case "replace-element":
        return op.values.length === 0 ? this.remove(op.list, [op.element]) : one(this.replaceElement(op.list, op.element, op.values));
      case "insert":
        return one(this.insert(op.list, op.index, op.values));
      case "remove":
        return this.remove(op.list, op.elements);
      case "move":
        return this.move(op.list, op.element, op.before);
      case "add-key":
        return one(this.addKey(op.object, op.key, op.value));
      case "remove-key":
        return one(this.removeKey(op.value));
    }
  }

  private replace(node: JsonNode, value: FixValue): Edit | undefined {
    const text = this.text;
    const prop = node.parent?.type === "property" && node.parent.children?.[1] === node ? node.parent : undefined;
    const key = prop?.children?.[0];
    // An empty value (`deny:`) is a null on its key's span: the new value goes after the colon.
    if (key && node.offset === key.offset && node.type === "null") {
      const colon = colonAfter(text, key);
      const written = this.write(value, "", this.inFlow(node));
      return colon === undefined || written === undefined ? undefined : { span: { start: colon + 1, end: colon + 1 }, newText: ` ${written}` };
    }
    if (!isCollection(node) || isFlow(text, node)) {
      const written = this.write(value, isCollection(node) ? "" : this.source(node), this.inFlow(node));
      return written === undefined ? undefined : { span: this.valueSpan(node), newText: written };
    }
    // A block list or mapping: the new value after its key's colon, in flow style (a comment after it stays).
    const colon = key ? colonAfter(text, key) : undefined;
    const written = this.write(value, "", true);
    if (colon === undefined || colon >= node.offset || written === undefined) return undefined;
    return { span: { start: colon + 1, end: end(node) }, newText: ` ${written}` };
  }

  private replaceElement(list: JsonNode, element: JsonNode, values: readonly FixValue[]): Edit | undefined {
    if (this.indexOf(list, element) < 0) return undefined;
    const style = this.source(element);
    if (isFlow(this.text, list)) return this.joined(values, style, true, ", ", this.valueSpan(element));
    const prefix = this.itemPrefix(element);
    return prefix === undefined ? undefined : this.joined(values, style, false, `${this.eol}${prefix}`, this.valueSpan(element));
  }

  private insert(list: JsonNode, index: number, values: readonly FixValue[]): Edit | undefined {
    const text = this.text;
    const items = list.children ?? [];
    if (list.type !== "array" || values.length === 0 || index < 0 || index > items.length || !items.every((item) => within(list, item))) return undefined;
    // New elements are written as a neighbour is (quoted as it is), else plain where plain reads back.
    const neighbour = items[Math.min(index, items.length - 1)];
    const style = neighbour && !isCollection(neighbour) ? this.source(neighbour) : "";
    if (isFlow(text, list)) {
      if (items.length === 0) return this.joined(values, style, true, ", ", { start: list.offset + 1, end: list.offset + 1 });
      if (index === 0) return this.joined(values, style, true, ", ", { start: items[0]!.offset, end: items[0]!.offset }, "", ", ");
      const at = end(items[index - 1]!);
      return this.joined(values, style, true, ", ", { start: at, end: at }, ", ");
    }
    // A block list (never empty: an empty list is written `[]`): `- item` lines, as its elements are written.
    const prefix = this.itemPrefix(neighbour!);
    if (prefix === undefined) return undefined;
    if (index < items.length) {
      const at = lineStart(text, items[index]!.offset);
      return this.joined(values, style, false, `${this.eol}${prefix}`, { start: at, end: at }, prefix, this.eol);
    }
    const at = this.lineEnd(end(items[items.length - 1]!));
    return this.joined(values, style, false, `${this.eol}${prefix}`, { start: at, end: at }, `${this.eol}${prefix}`);
  }

  private remove(list: JsonNode, elements: readonly JsonNode[]): Edit[] | undefined {
    const text = this.text;
    const items = list.children ?? [];
    const indices = [...new Set(elements.map((e) => this.indexOf(list, e)))].sort((a, b) => a - b);
    if (indices.length === 0 || indices[0]! < 0) return undefined;
    if (isFlow(text, list)) return (indices.length === 1 ? [removeArrayElement(text, list, indices[0]!)] : removeArrayElements(text, list, indices)).map((e) => this.withSpaces(e));
    if (indices.length === items.length) return one(this.emptied(list));
    const edits: Edit[] = [];
    for (const i of indices) {
      const lines = this.ownLines(list, items[i]!);
      if (!lines) return undefined;
      // Adjacent elements go as one edit: the edits of a fix never touch.
      const last = edits[edits.length - 1];
      if (last && last.span.end === lines.start) last.span = { start: last.span.start, end: lines.end };
      else edits.push({ span: lines, newText: "" });
    }
    return edits;
  }

  private move(list: JsonNode, element: JsonNode, before: JsonNode): Edit[] | undefined {
    const text = this.text;
    const from = this.indexOf(list, element);
    const to = this.indexOf(list, before);
    if (from < 0 || to < 0 || to >= from) return undefined;
    if (isFlow(text, list)) {
      return [{ span: { start: before.offset, end: before.offset }, newText: `${this.source(element)}, ` }, this.withSpaces(removeArrayElement(text, list, from))];
    }
    const lines = this.ownLines(list, element);
    const target = this.ownLines(list, before);
    if (!lines || !target) return undefined;
    const moved = text.slice(lines.start, lines.end);
    return [
      { span: { start: target.start, end: target.start }, newText: /\n$/.test(moved) ? moved : `${moved}${this.eol}` },
      { span: lines, newText: "" },
    ];
  }

  private addKey(object: JsonNode, key: string, value: FixValue): Edit | undefined {
    const text = this.text;
    const members = object.children ?? [];
    if (object.type !== "object" || !members.every((m) => within(object, m))) return undefined;
    const written = this.write(value, "", isFlow(text, object) || this.inFlow(object));
    if (written === undefined) return undefined;
    const member = `${yamlScalar(key, "", isFlow(text, object))}: ${written}`;
    if (isFlow(text, object)) {
      if (members.length === 0) return { span: { start: object.offset + 1, end: object.offset + 1 }, newText: member };
      const at = end(members[members.length - 1]!);
      return { span: { start: at, end: at }, newText: `, ${member}` };
    }
    // A block mapping: a line of its own after its last member's, in the indentation of its keys.
    const first = members[0];
    if (!first) return undefined;
    const prefix = text.slice(lineStart(text, first.offset), first.offset);
    if (!/^[ \t]*(-[ \t]+)?$/.test(prefix)) return undefined;
    const at = this.lineEnd(end(members[members.length - 1]!));
    return { span: { start: at, end: at }, newText: `${this.eol}${prefix.replace("-", " ")}${member}` };
  }

  private removeKey(value: JsonNode): Edit | undefined {
    const prop = value.parent;
    const object = prop?.parent;
    if (prop?.type !== "property" || object?.type !== "object") return undefined;
    const members = object.children ?? [];
    const at = members.indexOf(prop);
    if (at < 0 || !within(object, prop)) return undefined;
    if (isFlow(this.text, object)) return members.every((m) => within(object, m)) ? this.withSpaces(removeArrayElement(this.text, object, at)) : undefined;
    if (members.length === 1) return this.emptied(object);
    const lines = this.ownLines(object, prop);
    return lines && { span: lines, newText: "" };
  }

  /** A block collection that loses its last entry: `[]` or `{}` after its key's colon (an empty block would be null). */
  private emptied(collection: JsonNode): Edit | undefined {
    const prop = collection.parent;
    const key = prop?.type === "property" && prop.children?.[1] === collection ? prop.children[0] : undefined;
    const colon = key ? colonAfter(this.text, key) : undefined;
    if (colon === undefined || colon >= collection.offset) return undefined;
    // Through the end of its last line: an empty value (`deny:`) ends before its own colon.
    return { span: { start: colon + 1, end: this.lineEnd(end(collection)) }, newText: collection.type === "array" ? " []" : " {}" };
  }

  /**
   * The lines a block collection's element (a `- item`, or a `key: value` member) is written on, through its line
   * break; `undefined` when something else shares its first line (`- key: value`, the first key of a list's mapping).
   */
  private ownLines(collection: JsonNode, element: JsonNode): { start: number; end: number } | undefined {
    const text = this.text;
    if (!within(collection, element)) return undefined;
    const start = lineStart(text, element.offset);
    if (!(collection.type === "array" ? /^[ \t]*-[ \t]+$/ : /^[ \t]*$/).test(text.slice(start, element.offset))) return undefined;
    const lineBreak = text.indexOf("\n", end(element) - 1);
    return { start, end: lineBreak < 0 ? text.length : lineBreak + 1 };
  }

  /** A flow removal that takes an element and its comma takes the spaces after the comma too (`[a, b]` → `[b]`). */
  private withSpaces(edit: Edit): Edit {
    let end = edit.span.end;
    if (edit.newText !== "" || this.text[end - 1] !== ",") return edit;
    while (this.text[end] === " " || this.text[end] === "\t") end++;
    return { span: { start: edit.span.start, end }, newText: "" };
  }

  /** What comes before a block list's element on its line (`    - `), when that is all. */
  private itemPrefix(element: JsonNode): string | undefined {
    const prefix = this.text.slice(lineStart(this.text, element.offset), element.offset);
    return /^[ \t]*-[ \t]+$/.test(prefix) ? prefix : undefined;
  }

  /** `values` written and joined by `separator`, between `before` and `after`, as the edit of `span`. */
  private joined(values: readonly FixValue[], style: string, inFlow: boolean, separator: string, span: Edit["span"], before = "", after = ""): Edit | undefined {
    const written: string[] = [];
    for (const v of values) {
      const w = this.write(v, style, inFlow);
      if (w === undefined) return undefined;
      written.push(w);
    }
    return { span, newText: `${before}${written.join(separator)}${after}` };
  }

  /**
   * `value` as YAML that fits on one line where a scalar stands: strings in `style` (the replaced scalar's
   * text), lists and mappings in flow style; `undefined` for what cannot be written so.
   */
  private write(value: FixValue, style: string, inFlow: boolean): string | undefined {
    if (typeof value === "string") return yamlScalar(value, style, inFlow);
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    if (value === null) return "null";
    // The layout wish is the JSONC file's (a long line of copied rules); a flow collection is read the same.
    if (value instanceof OnePerLine) return this.write(value.value, style, inFlow);
    // A suppression note is a `#` comment, which ends only at the line's end: no place inside a value.
    if (value instanceof Suppressed) return undefined;
    if (value instanceof CopiedValue) {
      // A scalar or a flow collection as written; a block one depends on its indentation and is not moved.
      const node = value.node;
      return isCollection(node) && !isFlow(this.text, node) ? undefined : this.source(node);
    }
    const parts: string[] = [];
    if (Array.isArray(value)) {
      for (const v of value as readonly FixValue[]) {
        const w = this.write(v, style, true);
        if (w === undefined) return undefined;
        parts.push(w);
      }
      return `[${parts.join(", ")}]`;
    }
    for (const [k, v] of Object.entries(value as FixObject)) {
      const w = this.write(v, "", true);
      if (w === undefined) return undefined;
      parts.push(`${yamlScalar(k, "", true)}: ${w}`);
    }
    return `{${parts.join(", ")}}`;
  }

  /** Whether `node` stands inside a flow collection (its nearest list or mapping is written in brackets). */
  private inFlow(node: JsonNode): boolean {
    for (let p = node.parent; p; p = p.parent) if (isCollection(p)) return isFlow(this.text, p);
    return false;
  }

  /** The element's position in the list, when it is written there (-1: not its element, or one an alias brings). */
  private indexOf(list: JsonNode, element: JsonNode): number {
    const index = (list.children ?? []).indexOf(element);
    return index >= 0 && within(list, element) ? index : -1;
  }

  /** A value's span without the line break a block scalar (`|`, `>`) ends with, which the next line needs. */
  private valueSpan(node: JsonNode): Edit["span"] {
    return { start: node.offset, end: node.offset + this.source(node).trimEnd().length };
  }

  private source(node: JsonNode): string {
    return this.text.slice(node.offset, node.offset + node.length);
  }

  /** Where the line break of the line holding offset `at - 1` (a node's last character) is (before a `\r`). */
  private lineEnd(at: number): number {
    const lineBreak = this.text.indexOf("\n", Math.max(0, at - 1));
    if (lineBreak < 0) return this.text.length;
    return this.text[lineBreak - 1] === "\r" ? lineBreak - 1 : lineBreak;
  }
}

const one = (edit: Edit | undefined): Edit[] | undefined => (edit ? [edit] : undefined);
const spanOf = (node: JsonNode): Edit["span"] => ({ start: node.offset, end: node.offset + node.length });
const end = (node: JsonNode): number => node.offset + node.length;
const isCollection = (node: JsonNode): boolean => node.type === "array" || node.type === "object";
/** Whether `node` is written inside `container`'s text (a merged or aliased one is written elsewhere). */
const within = (container: JsonNode, node: JsonNode): boolean => node.offset >= container.offset && end(node) <= end(container);

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

function isFlow(text: string, node: JsonNode): boolean {
  const c = text[node.offset];
  return (node.type === "array" && c === "[") || (node.type === "object" && c === "{");
}

/** The colon after a mapping's key. */
function colonAfter(text: string, key: JsonNode): number | undefined {
  const colon = text.indexOf(":", end(key));
  return colon >= 0 ? colon : undefined;
}

/**
 * A string as a YAML scalar in the style `written` uses: double- or single-quoted as it was, else plain when
 * PyYAML reads the plain text back as this very string (not `yes`, `~`, `12`, `*`, `a: b`), else double-quoted.
 */
export function yamlScalar(value: string, written: string, inFlow = false): string {
  if (written.startsWith('"')) return JSON.stringify(value);
  if (written.startsWith("'")) return `'${value.replace(/'/g, "''")}'`;
  if (plainReadsAs(value, inFlow)) return value;
  return JSON.stringify(value);
}

/** YAML 1.1's words for booleans and null, which a plain scalar must not be to stay a string. */
const SPECIAL_WORDS = /^(y|n|yes|no|on|off|true|false|null|~)$/i;

function plainReadsAs(value: string, inFlow: boolean): boolean {
  if (value === "" || /[\n\r\t#]/.test(value) || value !== value.trim()) return false;
  // Most names (tool names, roles): a letter or `_` first, then letters, digits, `_`, `-`, `.`: plain, unless a YAML 1.1 word.
  if (/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(value)) return !SPECIAL_WORDS.test(value);
  if (inFlow && /[,[\]{}]/.test(value)) return false;
  try {
    const document = parseDocument(inFlow ? `[${value}]` : `k: ${value}`, { schema: "yaml-1.1" });
    if (document.errors.length > 0) return false;
    const contents = document.contents as { items?: { value?: unknown }[] } | null;
    const item = inFlow ? contents?.items?.[0] : (contents?.items?.[0] as { value?: unknown } | undefined)?.value;
    if (inFlow && contents?.items?.length !== 1) return false;
    return isScalar(item) && item.value === value;
  } catch {
    return false;
  }
}
