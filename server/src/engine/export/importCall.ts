import type { DynamicValue } from "../config/dynamic";
import type { JsonNode } from "../config/parse";
import type { RuntimeId } from "../runtime";

/**
 * `agent-sandbox import FILE[:LINE]`: the `agent-sandbox.jsonc` that a `createDeepAgent` / `create_deep_agent` call
 * describes, from the config tree the source front end read (sources/toConfig.ts). What the front end could not
 * read without running the code is not guessed: each such value becomes a comment where it is written, saying what
 * could not be read (`// permissions: loadRules() could not be read without running the code`).
 *
 * The tree's nodes carry source offsets; a comment goes into the innermost object or list whose source span holds
 * the value it stands for, before the first entry written after it in the source.
 */
export interface ImportOptions {
  /** The runtime of the file's language (deepagents-js for TypeScript and JavaScript, deepagents-py for Python). */
  runtime: RuntimeId;
  /** Where the call is, for the header (`src/agent.ts:12`). */
  source?: string;
  /** The callee as written (`createDeepAgent`, `da.create_deep_agent`). */
  callee?: string;
}

/** Lines past this width are broken: short rules and lists stay on one line, as people write them. */
const WIDTH = 100;

export function importConfig(root: JsonNode, dynamic: readonly DynamicValue[], options: ImportOptions): string {
  const header = [`The agent read by agent-sandbox${options.source ? ` from ${options.source}` : ""}${options.callee ? ` (${options.callee})` : ""}, without running it.`];
  if (dynamic.length > 0) header.push(`${dynamic.length === 1 ? "One value" : `${dynamic.length} values`} could not be read: each is a comment where it belongs, and the checks that need it stay silent.`);
  const printer = new JsoncPrinter(dynamic, options.runtime);
  const lead = [`"version": 1`, `"runtime": ${JSON.stringify(options.runtime)}`];
  const body = printer.container(root, 0, lead);
  return `${header.map((l) => `// ${l}`).join("\n")}\n${body}\n`;
}

/** The words of a dynamic value's comment (also what the CLI says on stderr). */
export function dynamicWords(d: DynamicValue): string {
  return `${d.what}: ${d.expression} could not be read without running the code`;
}

class JsoncPrinter {
  /** Each dynamic value, placed once: in the innermost container that holds it. */
  private readonly placed = new Set<DynamicValue>();

  constructor(
    private readonly dynamic: readonly DynamicValue[],
    private readonly runtime: RuntimeId,
  ) {}

  /** An object or list, with `lead` lines first (the top level's `version` and `runtime`). */
  container(node: JsonNode, depth: number, lead: string[] = []): string {
    const isObject = node.type === "object";
    // Entries in the order the source writes them (the front end builds some in its own order): by the key's place,
    // since a value bound to a name once (`permissions: rules`) carries the span where the name was bound.
    const at = (child: JsonNode) => (isObject ? (child.children?.[0]?.offset ?? child.offset) : child.offset);
    const children = [...(node.children ?? [])].sort((a, b) => at(a) - at(b));
    // The comments that belong here: inside this node's span, and in none of its containers' children.
    // (The top level takes any left over: a value spread into the call's options from outside its span.)
    const top = lead.length > 0;
    const inside = this.dynamic.filter((d) => !this.placed.has(d) && (top || within(d, node)) && !children.some((c) => containsContainer(valueOf(c), d)));
    for (const d of inside) this.placed.add(d);
    const items: { offset: number; text: string; comment?: boolean }[] = [];
    for (const child of children) {
      if (isObject) {
        const [key, value] = child.children ?? [];
        if (!key || !value) continue;
        const unread = this.unreadTools(String(key.value), value);
        if (unread) {
          items.push({ offset: at(child), text: `// ${unread}`, comment: true });
          continue;
        }
        items.push({ offset: at(child), text: `${JSON.stringify(String(key.value))}: ${this.value(value, depth + 1)}` });
      } else items.push({ offset: child.offset, text: this.value(child, depth + 1) });
    }
    // A comment goes before the first entry that starts after the value it stands for (a stable sort keeps order).
    const comments = inside.map((d) => ({ offset: d.span.start, text: `// ${dynamicWords(d)}`, comment: true }));
    const all = [...items, ...comments].sort((a, b) => a.offset - b.offset);
    const hasComment = all.some((e) => e.comment);
    const open = isObject ? "{" : "[";
    const close = isObject ? "}" : "]";
    const entries = [...lead.map((text) => ({ text, comment: false })), ...all];
    if (entries.length === 0) return `${open}${close}`;
    // One line when it fits and holds no comment or line break.
    if (!hasComment && !top) {
      const flat = isObject ? `{ ${items.map((i) => i.text).join(", ")} }` : `[${items.map((i) => i.text).join(", ")}]`;
      if (!flat.includes("\n") && !flat.includes("//") && flat.length + depth * 2 <= WIDTH) return flat;
    }
    const pad = "  ".repeat(depth + 1);
    const lines: string[] = [];
    // Commas after every entry but the last; comments take none.
    const lastEntry = entries.map((e) => !e.comment).lastIndexOf(true);
    entries.forEach((e, i) => lines.push(`${pad}${e.text}${!e.comment && i < lastEntry ? "," : ""}`));
    return `${open}\n${lines.join("\n")}\n${"  ".repeat(depth)}${close}`;
  }

  /**
   * deepagents-py reads a filesystem middleware's `tools` only as a list: a set or tuple there keeps all eight tools
   * (tools-not-list), which a JSONC list would not say. The key is left out, as the runtime leaves the value out,
   * and a comment says why. (deepagents-js copies any iterable, so a `new Set([...])` is the list it holds.)
   */
  private unreadTools(key: string, value: JsonNode): string | undefined {
    const collection = (value as { collection?: string }).collection;
    if (key !== "tools" || !collection || this.runtime !== "deepagents-py") return undefined;
    const items = (value.children ?? []).map((c) => JSON.stringify(c.value ?? null)).join(", ");
    return `tools: a ${collection} in the source (${items}), which deepagents-py does not read as a list: all eight tools stay (tools-not-list)`;
  }

  private value(node: JsonNode, depth: number): string {
    if (node.type === "object" || node.type === "array") return this.container(node, depth);
    return JSON.stringify(node.value ?? null);
  }
}

function valueOf(child: JsonNode): JsonNode | undefined {
  return child.type === "property" ? child.children?.[1] : child;
}

function within(d: DynamicValue, node: JsonNode): boolean {
  return d.span.start >= node.offset && d.span.end <= node.offset + node.length;
}

/** Whether `node` is an object or list (at any depth below) whose span holds the dynamic value. */
function containsContainer(node: JsonNode | undefined, d: DynamicValue): boolean {
  if (!node || (node.type !== "object" && node.type !== "array")) return false;
  if (within(d, node)) return true;
  return false;
}
