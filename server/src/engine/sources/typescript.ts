import type { Span } from "../text";
import { dynamicOf, MAX_DEPTH, parts, spanOf, unescape, type AgentCall } from "./calls";
import { SourceFile, type Imported } from "./sourceFile";
import type { SyntaxNode, SyntaxTree } from "./treeSitter";
import type { Entry, Value } from "./values";
import { EXPORTED_FUNCTION, PARTS } from "../export/parts";

/**
 * The TypeScript/JavaScript front end: finds the calls of deepagents' `createDeepAgent` (imported or required
 * from "deepagents", under any alias, or through a namespace) and evaluates their options without running
 * anything: literals, names bound once in the file (`const`), spreads and `concat` of known lists, string
 * concatenation, `new Set([...])`, arrow functions that return a value (backend factories), and calls and `new`
 * of anything, kept as calls for toConfig.ts to recognise the runtime's own (`new FilesystemBackend({...})`,
 * `createFilesystemMiddleware({...})`). Everything else is dynamic.
 */
export function typeScriptCalls(tree: SyntaxTree, text: string): AgentCall[] {
  const file = new TypeScriptFile(tree.rootNode, text);
  const calls: AgentCall[] = [];
  for (const call of file.calls) {
    const callee = call.childForFieldName("function");
    if (!callee || file.runtimeName(callee) !== "createDeepAgent") continue;
    const args = call.childForFieldName("arguments");
    const first = args ? parts(args)[0] : undefined;
    const options = first ? file.evaluate(first, 0) : undefined;
    if (options && options.kind !== "object" && options.kind !== "dynamic") continue;
    calls.push({
      span: spanOf(call),
      calleeSpan: spanOf(callee),
      options: options?.kind === "object" ? options : { kind: "object", entries: [], span: first ? spanOf(first) : spanOf(call) },
      unknownSpreads: options?.kind === "dynamic" ? [options] : options?.kind === "object" ? file.spreadsOf(options) : [],
    });
  }
  // A half-typed call (`createDeepAgent({ permissions: [...], middleware: [` and no end yet): tree-sitter keeps
  // the callee and the complete `key: value` pairs as children of an ERROR node. They are read as the options.
  for (const error of file.errors) {
    const children = parts(error);
    children.forEach((callee, i) => {
      if (file.runtimeName(callee) !== "createDeepAgent") return;
      const pairs: SyntaxNode[] = [];
      for (const next of children.slice(i + 1)) {
        if (next.type !== "pair" && next.type !== "shorthand_property_identifier") break;
        pairs.push(next);
      }
      if (pairs.length === 0) return;
      const span = { start: pairs[0]!.startIndex, end: pairs.at(-1)!.endIndex };
      const options = file.objectOf(pairs, span, 0);
      calls.push({ span: { start: callee.startIndex, end: span.end }, calleeSpan: spanOf(callee), options, unknownSpreads: file.spreadsOf(options) });
    });
  }
  return calls;
}

class TypeScriptFile extends SourceFile {
  /** Every call of the file, in order (found in the walk that reads the bindings), and every ERROR node. */
  readonly calls: SyntaxNode[] = [];
  readonly errors: SyntaxNode[];

  constructor(root: SyntaxNode, text: string) {
    super(text);
    // Apart (a list of types that includes ERROR matches nothing at all in this build of the parser), and only in a
    // tree that has one: the walk costs as much as parsing after an edit.
    this.errors = root.hasError ? root.descendantsOfType("ERROR").filter((n): n is SyntaxNode => n !== null) : [];
    for (const statement of parts(root)) {
      if (statement.type !== "import_statement") continue;
      const source = statement.childForFieldName("source");
      const module = source ? source.text.slice(1, -1) : "";
      for (const clause of parts(statement).filter((n) => n.type === "import_clause")) {
        for (const part of parts(clause)) {
          if (part.type === "identifier") this.imports.set(part.text, { module, name: "default" });
          else if (part.type === "namespace_import") {
            const id = parts(part).find((n) => n.type === "identifier");
            if (id) this.imports.set(id.text, { module, name: "*" });
          } else if (part.type === "named_imports") {
            for (const spec of parts(part).filter((n) => n.type === "import_specifier")) {
              const name = spec.childForFieldName("name")?.text;
              const alias = spec.childForFieldName("alias")?.text ?? name;
              if (name && alias) this.imports.set(alias, { module, name: name.replace(/^["']|["']$/g, "") });
            }
          }
        }
      }
    }
    const declare = (name: string, value: SyntaxNode | null) => this.bound.set(name, this.bound.has(name) ? null : value);
    for (const declarator of root.descendantsOfType(["variable_declarator", "function_declaration", "class_declaration", "assignment_expression", "augmented_assignment_expression", "required_parameter", "optional_parameter", "formal_parameters", "call_expression"])) {
      if (!declarator) continue;
      if (declarator.type === "call_expression") {
        this.calls.push(declarator);
        this.markMutated(declarator.childForFieldName("function"), declarator.childForFieldName("arguments"));
      } else if (declarator.type === "variable_declarator") {
        const name = declarator.childForFieldName("name");
        const value = declarator.childForFieldName("value");
        if (name?.type === "identifier") {
          const required = value ? this.requiredModule(value) : undefined;
          if (required !== undefined) this.imports.set(name.text, { module: required, name: "*" });
          else declare(name.text, value);
        } else if (name?.type === "object_pattern" && value) {
          // `const { createDeepAgent: cda } = require("deepagents")`
          const required = this.requiredModule(value);
          for (const p of parts(name)) {
            const key = p.type === "pair_pattern" ? p.childForFieldName("key")?.text : p.type === "shorthand_property_identifier_pattern" ? p.text : undefined;
            const local = p.type === "pair_pattern" ? p.childForFieldName("value")?.text : key;
            if (key && local) {
              if (required !== undefined) this.imports.set(local, { module: required, name: key });
              else declare(local, null);
            }
          }
        }
      } else if (declarator.type === "assignment_expression" || declarator.type === "augmented_assignment_expression") {
        const left = declarator.childForFieldName("left");
        if (left?.type === "identifier") this.bound.set(left.text, null);
        // `options.permissions = loadRules()`: the object `options` names is not the one its literal wrote.
        else if (left) this.unbindRoot(left);
      } else if (declarator.type === "formal_parameters") {
        // Parameters shadow: a name that is also a parameter somewhere is not known.
        for (const p of parts(declarator)) {
          const id = p.childForFieldName("pattern") ?? p;
          if (id.type === "identifier") this.bound.set(id.text, null);
        }
      } else {
        const name = declarator.childForFieldName("name");
        if (name) this.bound.set(name.text, null);
      }
    }
  }

  /** `require("x")`, `import("x")`, `await import("x")` → "x". */
  private requiredModule(node: SyntaxNode): string | undefined {
    if (node.type === "await_expression") {
      const inner = parts(node)[0];
      return inner?.type === "call_expression" && inner.childForFieldName("function")?.type === "import" ? this.requiredModule(inner) : undefined;
    }
    const callee = node.type === "call_expression" ? node.childForFieldName("function") : null;
    if (!callee || (callee.text !== "require" && callee.type !== "import")) return undefined;
    const arg = parts(node.childForFieldName("arguments")!)[0];
    return arg?.type === "string" ? arg.text.slice(1, -1) : undefined;
  }

  /** deepagents-js is `deepagents` and its subpath exports (`deepagents/...`). */
  protected isDeepagents(module: string): boolean {
    return module === "deepagents" || module.startsWith("deepagents/");
  }

  protected importOf(callee: SyntaxNode, depth = 0): Imported | undefined {
    callee = unwrapped(callee);
    if (callee.type === "identifier") {
      const found = this.imports.get(callee.text);
      if (found) return found.name !== "*" ? found : undefined;
      // `const make = createDeepAgent as unknown as Factory`: a name bound once to an imported function is that function.
      const value = this.bound.get(callee.text);
      return value && depth < MAX_DEPTH ? this.importOf(value, depth + 1) : undefined;
    }
    if (callee.type === "member_expression") {
      const object = callee.childForFieldName("object");
      const property = callee.childForFieldName("property");
      const namespace = object?.type === "identifier" ? this.imports.get(object.text) : undefined;
      if (namespace?.name === "*" && property) return { module: namespace.module, name: property.text };
    }
    return undefined;
  }

  evaluate(node: SyntaxNode, depth: number): Value {
    if (depth > MAX_DEPTH) return dynamicOf(node, this.text);
    const span = spanOf(node);
    switch (node.type) {
      case "parenthesized_expression":
      case "as_expression":
      case "satisfies_expression":
      case "non_null_expression": {
        const inner = parts(node)[0];
        return inner ? this.evaluate(inner, depth + 1) : dynamicOf(node, this.text);
      }
      case "type_assertion": {
        const inner = parts(node).at(-1);
        return inner ? this.evaluate(inner, depth + 1) : dynamicOf(node, this.text);
      }
      case "string":
        return { kind: "string", value: unescape(node.text.slice(1, -1)), span };
      case "template_string":
        if (parts(node).some((p) => p.type === "template_substitution")) return dynamicOf(node, this.text);
        return { kind: "string", value: unescape(node.text.slice(1, -1)), span };
      case "number":
        return { kind: "number", value: Number(node.text.replace(/_/g, "")), span };
      case "true":
      case "false":
        return { kind: "boolean", value: node.type === "true", span };
      case "null":
        return { kind: "null", span };
      case "undefined":
        return { kind: "dynamic", expression: "undefined", span };
      case "array":
        return this.listOf(node, depth, "spread_element");
      case "object":
        return this.object(node, depth);
      case "identifier":
        return this.name(node, depth);
      case "binary_expression": {
        const left = node.childForFieldName("left");
        const right = node.childForFieldName("right");
        if (node.childForFieldName("operator")?.text === "+" && left && right) {
          const a = this.evaluate(left, depth + 1);
          const b = this.evaluate(right, depth + 1);
          if (a.kind === "string" && b.kind === "string") return { kind: "string", value: a.value + b.value, span };
        }
        return dynamicOf(node, this.text);
      }
      case "call_expression":
      case "new_expression":
        return this.call(node, depth);
      case "member_expression":
      case "subscript_expression":
        return this.part(node) ?? dynamicOf(node, this.text);
      case "arrow_function": {
        let body = node.childForFieldName("body");
        if (body?.type === "statement_block") {
          const statements = parts(body);
          body = statements.length === 1 && statements[0]!.type === "return_statement" ? parts(statements[0]!)[0] ?? null : null;
        }
        if (!body) return dynamicOf(node, this.text);
        return { kind: "factory", returns: this.evaluate(body, depth + 1), span };
      }
      default:
        return dynamicOf(node, this.text);
    }
  }

  /** `parts.tools.web_search`, `parts.middleware["Audit"]` inside an agent-sandbox export's `createAgent`. */
  private part(node: SyntaxNode): Value | undefined {
    const object = node.childForFieldName("object");
    const key = node.type === "member_expression" ? node.childForFieldName("property") : node.childForFieldName("index");
    if (object?.type !== "member_expression" || !key) return undefined;
    const root = object.childForFieldName("object");
    const part = object.childForFieldName("property")?.text;
    const [parameter] = PARTS.ts.tools.split(".");
    if (root?.type !== "identifier" || root.text !== parameter || (part !== "tools" && part !== "middleware")) return undefined;
    const name = key.type === "property_identifier" ? key.text : key.type === "string" ? unescape(key.text.slice(1, -1)) : undefined;
    if (name === undefined || !this.inExportedFunction(node, parameter!, ["function_declaration", "function_expression", "function"], EXPORTED_FUNCTION.ts)) return undefined;
    return { kind: "part", part, name, span: spanOf(node) };
  }

  private name(node: SyntaxNode, depth: number): Value {
    if (node.text === "undefined") return { kind: "dynamic", expression: "undefined", span: spanOf(node) };
    const value = this.bound.get(node.text);
    // Imported from another module, a parameter, a name bound twice, or a name bound without a value.
    if (!value || this.imports.has(node.text)) return dynamicOf(node, this.text);
    // A name whose value refers back to itself (`const a = [...a]`) is not known.
    return this.evaluateBound(node, value, depth);
  }

  private object(node: SyntaxNode, depth: number): Value {
    return this.objectOf(parts(node), spanOf(node), depth);
  }

  /** An object literal's value from its members (also the pairs a half-typed call leaves in an ERROR node). */
  objectOf(members: readonly SyntaxNode[], span: Span, depth: number): Value & { kind: "object" } {
    const entries: Entry[] = [];
    const spreads: Value[] = [];
    for (const member of members) {
      if (member.type === "pair") {
        const key = member.childForFieldName("key");
        const value = member.childForFieldName("value");
        if (!key || !value) continue;
        const name = key.type === "string" ? unescape(key.text.slice(1, -1)) : key.type === "computed_property_name" ? undefined : key.text;
        if (name === undefined) {
          spreads.push(dynamicOf(key, this.text));
          continue;
        }
        entries.push({ key: name, keySpan: spanOf(key), value: this.evaluate(value, depth + 1) });
      } else if (member.type === "shorthand_property_identifier") {
        entries.push({ key: member.text, keySpan: spanOf(member), value: this.name(member, depth + 1) });
      } else if (member.type === "spread_element") {
        this.spreadInto(member, depth, entries, spreads);
      }
    }
    const value: Value & { kind: "object" } = { kind: "object", entries, span };
    if (spreads.length) this.spreads.set(value, spreads);
    return value;
  }

  private call(node: SyntaxNode, depth: number): Value {
    const callee = node.childForFieldName(node.type === "new_expression" ? "constructor" : "function");
    const argsNode = node.childForFieldName("arguments");
    if (!callee) return dynamicOf(node, this.text);
    const args = argsNode ? parts(argsNode).map((a) => (a.type === "spread_element" ? dynamicOf(a, this.text) : this.evaluate(a, depth + 1))) : [];
    if (callee.type === "member_expression") {
      const object = callee.childForFieldName("object");
      const property = callee.childForFieldName("property")?.text;
      // `` `...`.trim() ``: a known string without its surrounding whitespace (JavaScript's own definition of it).
      if (property === "trim" && object && args.length === 0) {
        const base = this.evaluate(object, depth + 1);
        if (base.kind === "string") return { kind: "string", value: base.value.trim(), span: spanOf(node) };
      }
      // `Object.assign({}, defaults, { ... })`: the objects' properties in order, later ones winning, as a spread does.
      if (property === "assign" && object?.type === "identifier" && object.text === "Object" && !this.bound.has("Object") && !this.imports.has("Object")) {
        const spreads: Value[] = [];
        const entries: Entry[] = [];
        for (const arg of args) {
          if (arg.kind === "object") {
            entries.push(...arg.entries);
            spreads.push(...this.spreadsOf(arg));
          } else spreads.push(arg);
        }
        const merged: Value & { kind: "object" } = { kind: "object", entries, span: spanOf(node) };
        if (spreads.length) this.spreads.set(merged, spreads);
        return merged;
      }
    }
    // `[...].concat([...])`: a known list with known lists added.
    if (callee.type === "member_expression" && callee.childForFieldName("property")?.text === "concat") {
      const object = callee.childForFieldName("object");
      const base = object ? this.evaluate(object, depth + 1) : undefined;
      if (base?.kind === "list" && args.every((a) => a.kind === "list" || a.kind !== "dynamic")) {
        const items = [...base.items];
        for (const a of args) {
          if (a.kind === "list") items.push(...a.items);
          else items.push(a);
        }
        return { kind: "list", items, span: spanOf(node) };
      }
    }
    const imported = this.importOf(callee);
    const result: Value & { kind: "call" } = { kind: "call", callee: this.text.slice(callee.startIndex, Math.min(callee.endIndex, callee.startIndex + 60)), args, keywords: [], expression: (dynamicOf(node, this.text) as { expression: string }).expression, span: spanOf(node) };
    if (imported) {
      result.module = imported.module;
      if (this.isDeepagents(imported.module)) result.runtime = imported.name;
    }
    // `parts.sandbox("daytona")`, `parts.backend("name", caps)` inside an agent-sandbox export's `createAgent`.
    const [parameter] = PARTS.ts.sandbox.split(".");
    if (callee.type === "member_expression" && callee.childForFieldName("object")?.text === parameter && this.inExportedFunction(node, parameter!, ["function_declaration", "function_expression", "function"], EXPORTED_FUNCTION.ts)) {
      const property = callee.childForFieldName("property")?.text;
      if (property === "sandbox" || property === "backend") result.part = property;
    }
    return result;
  }
}

/** The expression inside type assertions and parentheses (`x as unknown as T`, `(x)`, `x!`). */
function unwrapped(node: SyntaxNode): SyntaxNode {
  let inner = node;
  while (["as_expression", "satisfies_expression", "non_null_expression", "parenthesized_expression"].includes(inner.type)) {
    const first = parts(inner)[0];
    if (!first) break;
    inner = first;
  }
  return inner;
}

export type { Span };
