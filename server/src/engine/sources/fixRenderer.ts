import type { JsonNode } from "../config/parse";
import type { CollectionNode } from "../config/model";
import type { Edit } from "../diagnostics";
import { CopiedValue, OnePerLine, Suppressed, type FixObject, type FixOperation, type FixRenderer, type FixValue } from "../fixOperations";
import type { Dialect } from "./toConfig";

/**
 * The checks' fixes (operations on the model's values, fixOperations.ts) rendered in TypeScript/JavaScript or Python
 * syntax, at the source spans toConfig.ts gave the model's nodes.
 *
 * The model's nodes are not all written where their span points: a backend's `type` is the class it was made
 * with, a list may come from a spread or a concatenation, a rule from `FilesystemPermission("read", ...)`'s
 * positional arguments. So every operation first checks that the text at its target is the literal it stands for
 * (a list is `[...]` whose elements are written inside it, a string is a quoted string, a key is spelt as the key);
 * an operation whose target is not, or a value this syntax cannot write, renders no edit for the whole fix, which
 * is then not offered (rather than an edit that lands somewhere else).
 */
export type SourceSyntax = "typescript" | "python";

class CannotRender extends Error {}

export function sourceFixRenderer(text: string, syntax: SourceSyntax, dialect: Dialect): FixRenderer {
  return {
    render(operations) {
      try {
        return new Rendering(text, syntax, dialect).render(operations);
      } catch (error) {
        if (error instanceof CannotRender) return [];
        throw error;
      }
    },
  };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const end = (n: JsonNode) => n.offset + n.length;
const within = (n: JsonNode, outer: JsonNode) => n.offset >= outer.offset && end(n) <= end(outer);

class Rendering {
  constructor(
    private readonly text: string,
    private readonly syntax: SourceSyntax,
    private readonly dialect: Dialect,
  ) {}

  render(operations: readonly FixOperation[]): Edit[] {
    const edits: Edit[] = [];
    // The list operations of one list are applied to its elements together, and the list is written once.
    const lists = new Map<JsonNode, string[]>();
    const listItems = (list: JsonNode) => {
      let items = lists.get(list);
      if (!items) {
        items = this.elements(list).map((e) => this.slice(e));
        lists.set(list, items);
      }
      return items;
    };
    const indexIn = (list: JsonNode, element: JsonNode) => {
      const i = this.elements(list).indexOf(element);
      if (i < 0) throw new CannotRender();
      return i;
    };
    // Positions are those of the list as written; removals mark their slot, so later indices still hold.
    const REMOVED = "\u0000";
    for (const op of operations) {
      switch (op.op) {
        case "replace":
          this.literal(op.node);
          edits.push({ span: this.span(op.node), newText: this.value(op.value) });
          break;
        case "insert": {
          const items = listItems(op.list);
          const at = op.index >= this.elements(op.list).length ? items.length : items.indexOf(this.slice(this.elements(op.list)[op.index]!));
          items.splice(at < 0 ? items.length : at, 0, ...op.values.map((v) => this.value(v)));
          break;
        }
        case "remove": {
          const items = listItems(op.list);
          for (const element of op.elements) {
            const i = items.indexOf(this.slice(this.elements(op.list)[indexIn(op.list, element)]!));
            if (i < 0) throw new CannotRender();
            items[i] = REMOVED;
          }
          break;
        }
        case "replace-element": {
          const items = listItems(op.list);
          const i = items.indexOf(this.slice(this.elements(op.list)[indexIn(op.list, op.element)]!));
          if (i < 0) throw new CannotRender();
          items.splice(i, 1, ...op.values.map((v) => this.value(v)));
          break;
        }
        case "move": {
          const items = listItems(op.list);
          const moved = this.slice(this.elements(op.list)[indexIn(op.list, op.element)]!);
          const from = items.indexOf(moved);
          if (from < 0) throw new CannotRender();
          items.splice(from, 1);
          const to = items.indexOf(this.slice(this.elements(op.list)[indexIn(op.list, op.before)]!));
          if (to < 0) throw new CannotRender();
          items.splice(to, 0, moved);
          break;
        }
        case "add-key":
          edits.push(this.addKey(op.object, op.key, op.value));
          break;
        case "remove-key":
          edits.push(this.removeKey(op.value));
          break;
        case "rename-key":
          edits.push(this.renameKey(op.key, op.to));
          break;
      }
    }
    for (const [list, items] of lists) edits.push({ span: this.span(list), newText: this.list(list, items.filter((i) => i !== REMOVED)) });
    edits.sort((a, b) => a.span.start - b.span.start);
    for (let i = 1; i < edits.length; i++) if (edits[i]!.span.start < edits[i - 1]!.span.end) throw new CannotRender();
    return edits;
  }

  private span(n: JsonNode) {
    return { start: n.offset, end: end(n) };
  }

  private slice(n: JsonNode): string {
    return this.text.slice(n.offset, end(n));
  }

  /** A list's elements, when it is written as a list literal holding each of them (not a spread or a concatenation). */
  private elements(list: JsonNode): JsonNode[] {
    if (list.type !== "array") throw new CannotRender();
    const written = this.slice(list);
    const collection = (list as CollectionNode).collection;
    const open = collection === "set" ? "{" : collection === "tuple" ? "(" : "[";
    if (!written.startsWith(open)) throw new CannotRender();
    const children = list.children ?? [];
    if (!children.every((c) => within(c, list) && c.offset > list.offset && end(c) < end(list))) throw new CannotRender();
    // Elements in order and apart (a spread's elements would share or reverse spans).
    for (let i = 1; i < children.length; i++) if (children[i]!.offset < end(children[i - 1]!)) throw new CannotRender();
    return children;
  }

  /** The list written again with `items`, one per line when it was written over several lines. */
  private list(list: JsonNode, items: string[]): string {
    const written = this.slice(list);
    const [open, close] = (list as CollectionNode).collection === "tuple" ? ["(", ")"] : (list as CollectionNode).collection === "set" && items.length > 0 ? ["{", "}"] : ["[", "]"];
    if (items.length === 0) return (list as CollectionNode).collection === "tuple" ? "()" : "[]";
    const trailing = (list as CollectionNode).collection === "tuple" && items.length === 1 ? "," : "";
    if (!written.includes("\n")) return `${open}${items.join(", ")}${trailing}${close}`;
    const first = list.children?.[0];
    const lineStart = this.text.lastIndexOf("\n", list.offset) + 1;
    const outer = /^[ \t]*/.exec(this.text.slice(lineStart))![0];
    const inner = first ? /[ \t]*$/.exec(this.text.slice(this.text.lastIndexOf("\n", first.offset) + 1, first.offset))![0] : `${outer}    `;
    return `${open}\n${items.map((i) => `${inner}${i},`).join("\n")}\n${outer}${close}`;
  }

  /** Throws unless `n` is written at its span as the literal it stands for. */
  private literal(n: JsonNode): void {
    const written = this.slice(n);
    const ok =
      n.type === "string"
        ? /^[rRbBuU]?["'`]/.test(written)
        : n.type === "array"
          ? /^[[({]/.test(written)
          : n.type === "object"
            ? written.startsWith("{")
            : n.type === "number"
              ? /^-?[\d.]/.test(written)
              : n.type === "boolean"
                ? /^(true|false|True|False)$/.test(written)
                : /^(null|None)$/.test(written);
    if (!ok) throw new CannotRender();
  }

  private value(v: FixValue): string {
    if (v instanceof CopiedValue) return this.slice(v.node);
    if (v instanceof OnePerLine) return this.value(v.value);
    // An ignore note has no place in source: the fix that wants one is not offered.
    if (v instanceof Suppressed) throw new CannotRender();
    if (v === null) return this.syntax === "python" ? "None" : "null";
    if (typeof v === "boolean") return this.syntax === "python" ? (v ? "True" : "False") : String(v);
    if (typeof v === "number") return String(v);
    // JSON's string escapes are valid in both languages.
    if (typeof v === "string") return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map((x) => this.value(x)).join(", ")}]`;
    return this.object(v as FixObject);
  }

  /** Plain data as an object literal; in Python only a rule can be written, as `FilesystemPermission(...)`. */
  private object(o: FixObject): string {
    const keys = Object.keys(o);
    // A middleware or backend is a constructor call with imports of its own: not written by a fix.
    if (keys.includes("type")) throw new CannotRender();
    if (this.syntax === "typescript") return keys.length === 0 ? "{}" : `{ ${keys.map((k) => `${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${this.value(o[k]!)}`).join(", ")} }`;
    const rule = this.dialect.rule;
    const name = rule?.names.find((n) => new RegExp(`\\b${n}\\b`).test(this.text));
    if (!rule || !name || !keys.every((k) => rule.positional.includes(k))) throw new CannotRender();
    return `${name}(${keys.map((k) => `${k}=${this.value(o[k]!)}`).join(", ")})`;
  }

  /** `key: value` added to an object literal or dict, or `key=value` to a Python call's keyword arguments. */
  private addKey(object: JsonNode, key: string, value: FixValue): Edit {
    const written = this.slice(object);
    const rendered = this.value(value);
    const members = object.children ?? [];
    const call = /^[A-Za-z_$][\w$.]*\s*\(/.exec(written);
    if (call) {
      // A constructor or factory: the filesystem middleware (the only object a fix adds keys to that is a call).
      const fs = this.dialect.filesystemMiddleware;
      const name = (fs as unknown as Record<string, string>)[key];
      // Called by its name, an alias, or through a namespace (`deepagents.createFilesystemMiddleware(...)`).
      const type = members.find((m) => m.children?.[0]?.value === "type")?.children?.[1]?.value;
      if (!name || type !== "filesystem" || !written.endsWith(")")) throw new CannotRender();
      if (this.syntax === "python") {
        const inside = written.slice(call[0].length, -1);
        return this.before(end(object) - 1, inside, `${name}=${rendered}`);
      }
      // createFilesystemMiddleware({ ... }) or createFilesystemMiddleware()
      const args = written.slice(call[0].length, -1).trim();
      if (args === "") return { span: { start: end(object) - 1, end: end(object) - 1 }, newText: `{ ${name}: ${rendered} }` };
      if (!args.startsWith("{") || !args.endsWith("}")) throw new CannotRender();
      const close = object.offset + written.lastIndexOf("}");
      const open = object.offset + written.indexOf("{", call[0].length);
      return this.before(close, this.text.slice(open + 1, close), `${name}: ${rendered}`);
    }
    if (this.syntax === "python" && written.startsWith("(") && written.endsWith(")")) {
      // create_deep_agent(...)'s own keyword arguments.
      const name = (this.dialect.top as Record<string, string>)[key];
      if (!name) throw new CannotRender();
      return this.before(end(object) - 1, written.slice(1, -1), `${name}=${rendered}`);
    }
    if (!written.startsWith("{") || !written.endsWith("}")) throw new CannotRender();
    if (!members.every((m) => within(m, object))) throw new CannotRender();
    const subagentKey = (this.dialect.subagent as Record<string, string>)[key] ?? key;
    const spelt = this.syntax === "python" ? JSON.stringify(subagentKey) : IDENTIFIER.test(subagentKey) ? subagentKey : JSON.stringify(subagentKey);
    return this.before(end(object) - 1, written.slice(1, -1), `${spelt}: ${rendered}`);
  }

  /** `member` inserted at `at` (just before the closing bracket), after the members `inside` holds. */
  private before(at: number, inside: string, member: string): Edit {
    const trimmed = inside.trimEnd();
    if (trimmed === "") return { span: { start: at, end: at }, newText: member };
    // Right after the last member (or its trailing comma), so that the closing bracket keeps its line.
    const after = at - (inside.length - trimmed.length);
    if (inside.includes("\n")) {
      // Written one member per line: the new member gets a line of its own, indented as the last one.
      const lineStart = this.text.lastIndexOf("\n", after - 1) + 1;
      const indent = /^[ \t]*/.exec(this.text.slice(lineStart, after))![0];
      return { span: { start: after, end: after }, newText: trimmed.endsWith(",") ? `\n${indent}${member},` : `,\n${indent}${member}` };
    }
    return trimmed.endsWith(",") ? { span: { start: after, end: after }, newText: ` ${member},` } : { span: { start: after, end: after }, newText: `, ${member}` };
  }

  private removeKey(value: JsonNode): Edit {
    const member = value.parent;
    const object = member?.parent;
    const key = member?.children?.[0];
    if (!member || !object || !key || !within(member, object)) throw new CannotRender();
    this.keyWritten(key);
    // The member and the comma after it (or before it, when it is the last).
    const rest = this.text.slice(end(member));
    const comma = /^\s*,[ \t]*/.exec(rest);
    if (comma) return { span: { start: member.offset, end: end(member) + comma[0].length }, newText: "" };
    const before = /,\s*$/.exec(this.text.slice(object.offset, member.offset));
    if (before) return { span: { start: object.offset + before.index, end: end(member) }, newText: "" };
    return { span: this.span(member), newText: "" };
  }

  private renameKey(key: JsonNode, to: string): Edit {
    const quote = this.keyWritten(key);
    return { span: this.span(key), newText: !quote && IDENTIFIER.test(to) ? to : JSON.stringify(to) };
  }

  /** Throws unless the key is spelt at its span (bare or quoted); whether it is quoted. */
  private keyWritten(key: JsonNode): boolean {
    const written = this.slice(key);
    if (written === key.value) return false;
    if (/^["']/.test(written) && written.slice(1, -1) === key.value) return true;
    throw new CannotRender();
  }
}
