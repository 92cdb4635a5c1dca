import { dynamicOf, parts, spanOf } from "./calls";
import type { SyntaxNode } from "./treeSitter";
import type { Entry, Value } from "./values";

/** Methods of JS arrays, sets and maps and of Python lists, dicts and sets that change the value they are called on. */
const MUTATING_METHODS = new Set(["push", "unshift", "splice", "pop", "shift", "sort", "reverse", "fill", "copyWithin", "add", "set", "delete", "clear", "append", "extend", "insert", "remove", "update", "setdefault", "discard", "popitem"]);

/** Where a name of the file comes from, when an import binds it. */
export interface Imported {
  module: string;
  /** The imported name, or `*` for a module or namespace (`import deepagents as da`, `import * as da`). */
  name: string;
}

/**
 * What the two language front ends (typescript.ts, python.ts) share: the file's imports and the names bound once
 * in it, the values spread into lists, and evaluating a bound name's value with a guard against a name whose value
 * refers back to itself. Each front end reads its own syntax into these maps and evaluates its own expressions.
 */
export abstract class SourceFile {
  protected readonly imports = new Map<string, Imported>();
  /** Names bound once in the file and never again: their value (`null`: bound twice, or without a value). */
  protected readonly bound = new Map<string, SyntaxNode | null>();
  protected readonly spreads = new WeakMap<Value, Value[]>();
  private readonly evaluating = new Set<number>();

  constructor(protected readonly text: string) {}

  abstract evaluate(node: SyntaxNode, depth: number): Value;

  /** The import a callee names (`cda`, `da.create_deep_agent`), if any. */
  protected abstract importOf(callee: SyntaxNode): Imported | undefined;

  /** Whether a module is deepagents itself or one of its submodules. */
  protected abstract isDeepagents(module: string): boolean;

  /** The runtime's name a callee refers to when it is deepagents' (`cda` → `createDeepAgent`), else undefined. */
  runtimeName(callee: SyntaxNode): string | undefined {
    const found = this.importOf(callee);
    return found && this.isDeepagents(found.module) ? found.name : undefined;
  }

  /**
   * A value changed in place after it was bound (`rules.push(x)`, `defaults.tools.append(t)`, `Object.assign(opts,
   * more)`, `options.backend = b`) is not the value its initializer wrote: the name it is reached through is
   * unknown from then on.
   */
  protected markMutated(callee: SyntaxNode | null, args: SyntaxNode | null): void {
    if (!callee) return;
    const method = callee.childForFieldName("property") ?? callee.childForFieldName("attribute");
    const receiver = callee.childForFieldName("object");
    if (method && receiver && MUTATING_METHODS.has(method.text)) this.unbindRoot(receiver);
    // `Object.assign(target, ...)` changes its first argument.
    if (method?.text === "assign" && receiver?.text === "Object" && args) {
      const target = args.namedChildren.find((n) => n && n.type !== "comment");
      if (target) this.unbindRoot(target);
    }
  }

  /** Forgets the name at the root of `a.b[c].d` (a name whose value is reached and changed through it). */
  protected unbindRoot(node: SyntaxNode): void {
    let root: SyntaxNode | null = node;
    while (root && root.type !== "identifier") root = root.childForFieldName("object") ?? root.childForFieldName("value") ?? null;
    if (root) this.bound.set(root.text, null);
  }

  spreadsOf(value: Value): Value[] {
    return this.spreads.get(value) ?? [];
  }

  /**
   * Whether `name` is a parameter of the agent-sandbox export's function (`createAgent(model, parts)`,
   * `create_agent(model, *, tools, ...)`) that encloses `node`: only there are its parts read (export/parts.ts).
   */
  protected inExportedFunction(node: SyntaxNode, name: string, functionTypes: readonly string[], exportedName: string): boolean {
    for (let at = node.parent; at; at = at.parent) {
      if (!functionTypes.includes(at.type)) continue;
      if (at.childForFieldName("name")?.text !== exportedName) return false;
      const parameters = at.childForFieldName("parameters");
      return !!parameters?.descendantsOfType("identifier").some((id) => id?.text === name);
    }
    return false;
  }

  /**
   * A list literal's value: its elements evaluated, a spread element (`...xs`, `*xs`, of node type `spreadType`)
   * replaced by the items of a known list, or kept as one dynamic item.
   */
  protected listOf(node: SyntaxNode, depth: number, spreadType: string): Value & { kind: "list" } {
    const items: Value[] = [];
    for (const element of parts(node)) {
      if (element.type === spreadType) {
        const inner = parts(element)[0];
        const spread = inner ? this.evaluate(inner, depth + 1) : dynamicOf(element, this.text);
        if (spread.kind === "list") items.push(...spread.items);
        else items.push(spread.kind === "dynamic" ? spread : dynamicOf(element, this.text));
      } else items.push(this.evaluate(element, depth + 1));
    }
    return { kind: "list", items, span: spanOf(node) };
  }

  /**
   * An object spread into an object or keyword arguments (`...o`, `**o`): a known object's entries join `entries`
   * (with what was spread into it); anything else is one value in `spreads`.
   */
  protected spreadInto(member: SyntaxNode, depth: number, entries: Entry[], spreads: Value[]): void {
    const inner = parts(member)[0];
    const spread = inner ? this.evaluate(inner, depth + 1) : dynamicOf(member, this.text);
    if (spread.kind === "object") {
      entries.push(...spread.entries);
      spreads.push(...this.spreadsOf(spread));
    } else spreads.push(spread);
  }

  /** The value a name is bound to, evaluated; a name whose value refers back to itself (`a = [*a]`) is not known. */
  protected evaluateBound(name: SyntaxNode, value: SyntaxNode, depth: number): Value {
    if (this.evaluating.has(value.startIndex)) return dynamicOf(name, this.text);
    this.evaluating.add(value.startIndex);
    try {
      return this.evaluate(value, depth + 1);
    } finally {
      this.evaluating.delete(value.startIndex);
    }
  }
}
