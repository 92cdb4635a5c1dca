import { dynamicOf, MAX_DEPTH, parts, spanOf, unescape, type AgentCall } from "./calls";
import { SourceFile, type Imported } from "./sourceFile";
import type { SyntaxNode, SyntaxTree } from "./treeSitter";
import type { Entry, Value } from "./values";
import { EXPORTED_FUNCTION, PARTS } from "../export/parts";

/**
 * The Python front end: finds the calls of deepagents' `create_deep_agent` (`from deepagents import
 * create_deep_agent as cda`, `import deepagents as da`) and evaluates their keyword arguments without running
 * anything: literals, lists, sets, tuples and dicts, names assigned once in the file, `+` of known lists and
 * strings, `*`/`**` unpacking of known values, functions defined in the file (a `@tool` function is a tool by its
 * name), lambdas (backend factories), and calls, kept as calls for toConfig.ts to recognise the runtime's own
 * (`FilesystemPermission(...)`, `FilesystemMiddleware(...)`, `CompositeBackend(...)`). Everything else is dynamic.
 */
export function pythonCalls(tree: SyntaxTree, text: string): AgentCall[] {
  const file = new PythonFile(tree.rootNode, text);
  const calls: AgentCall[] = [];
  for (const call of file.calls) {
    const callee = call.childForFieldName("function");
    if (!callee || file.runtimeName(callee) !== "create_deep_agent") continue;
    const value = file.evaluate(call, 0);
    if (value.kind !== "call") continue;
    const entries: Entry[] = [...value.keywords];
    // `create_deep_agent(model, tools, *, ...)`: the second positional argument is the tools.
    if (value.args[1]) entries.unshift({ key: "tools", keySpan: value.args[1].span, value: value.args[1] });
    calls.push({ span: spanOf(call), calleeSpan: spanOf(callee), options: { kind: "object", entries, span: spanOf(call.childForFieldName("arguments") ?? call) }, unknownSpreads: file.spreadsOf(value) });
  }
  // A half-typed call (`create_deep_agent(permissions=[...], middleware=[` and no end yet): tree-sitter keeps the
  // callee and the complete keyword arguments as children of an ERROR node. They are read as the options.
  for (const error of file.errors) {
    const children = parts(error);
    children.forEach((callee, i) => {
      if (file.runtimeName(callee) !== "create_deep_agent") return;
      const keywords: SyntaxNode[] = [];
      for (const next of children.slice(i + 1)) {
        if (next.type !== "keyword_argument") break;
        keywords.push(next);
      }
      if (keywords.length === 0) return;
      const span = { start: keywords[0]!.startIndex, end: keywords.at(-1)!.endIndex };
      const entries = file.keywordsOf(keywords);
      calls.push({ span: { start: callee.startIndex, end: span.end }, calleeSpan: spanOf(callee), options: { kind: "object", entries, span }, unknownSpreads: [] });
    });
  }
  return calls;
}

/** The characters `str.isspace()` is true of: what `strip()` without an argument removes. */
const PY_SPACE = "[\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const STRIPS = new Map<string, RegExp>([
  ["strip", new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "g")],
  ["lstrip", new RegExp(`^${PY_SPACE}+`)],
  ["rstrip", new RegExp(`${PY_SPACE}+$`)],
]);

class PythonFile extends SourceFile {
  /** Every call of the file, in order (found in the walk that reads the bindings), and every ERROR node. */
  readonly calls: SyntaxNode[] = [];
  readonly errors: SyntaxNode[];

  constructor(root: SyntaxNode, text: string) {
    super(text);
    // Apart (a list of types that includes ERROR matches nothing at all in this build of the parser), and only in a
    // tree that has one: the walk costs as much as parsing after an edit.
    this.errors = root.hasError ? root.descendantsOfType("ERROR").filter((n): n is SyntaxNode => n !== null) : [];
    const declare = (name: string, value: SyntaxNode | null) => this.bound.set(name, this.bound.has(name) ? null : value);
    for (const node of root.descendantsOfType(["import_from_statement", "import_statement", "assignment", "augmented_assignment", "function_definition", "class_definition", "parameters", "for_statement", "with_item", "named_expression", "call"])) {
      if (!node) continue;
      switch (node.type) {
        case "call":
          this.calls.push(node);
          this.markMutated(node.childForFieldName("function"), node.childForFieldName("arguments"));
          break;
        case "import_from_statement": {
          const module = node.childForFieldName("module_name")?.text ?? "";
          for (const name of node.childrenForFieldName("name")) {
            if (!name) continue;
            if (name.type === "aliased_import") {
              const original = name.childForFieldName("name")?.text;
              const alias = name.childForFieldName("alias")?.text;
              if (original && alias) this.imports.set(alias, { module, name: original });
            } else this.imports.set(name.text, { module, name: name.text });
          }
          break;
        }
        case "import_statement":
          for (const name of node.childrenForFieldName("name")) {
            if (!name) continue;
            if (name.type === "aliased_import") {
              const alias = name.childForFieldName("alias")?.text;
              const module = name.childForFieldName("name")?.text;
              if (alias && module) this.imports.set(alias, { module, name: "*" });
            } else {
              // `import deepagents.middleware` binds `deepagents`.
              const first = name.text.split(".")[0]!;
              this.imports.set(first, { module: first, name: "*" });
            }
          }
          break;
        case "assignment": {
          const left = node.childForFieldName("left");
          const right = node.childForFieldName("right");
          if (left?.type === "identifier") declare(left.text, right);
          else if (left) for (const id of left.descendantsOfType("identifier")) if (id) this.bound.set(id.text, null);
          break;
        }
        case "function_definition": {
          const name = node.childForFieldName("name");
          if (name) declare(name.text, node);
          break;
        }
        case "class_definition": {
          const name = node.childForFieldName("name");
          if (name) this.bound.set(name.text, null);
          break;
        }
        case "augmented_assignment":
        case "for_statement":
        case "with_item":
        case "named_expression": {
          const target = node.childForFieldName("left") ?? node.childForFieldName("name") ?? node.childForFieldName("alias") ?? node.childForFieldName("value");
          if (target) for (const id of [target, ...target.descendantsOfType("identifier")]) if (id?.type === "identifier") this.bound.set(id.text, null);
          break;
        }
        case "parameters":
          for (const id of node.descendantsOfType("identifier")) if (id) this.bound.set(id.text, null);
          break;
      }
    }
  }

  /** deepagents-py is the `deepagents` package and its submodules (`deepagents.backends`). */
  protected isDeepagents(module: string): boolean {
    return module === "deepagents" || module.startsWith("deepagents.");
  }

  protected importOf(callee: SyntaxNode, depth = 0): Imported | undefined {
    while (callee.type === "parenthesized_expression" && parts(callee)[0]) callee = parts(callee)[0]!;
    if (callee.type === "identifier") {
      const found = this.imports.get(callee.text);
      if (found) return found.name !== "*" ? found : undefined;
      // `make_agent = create_deep_agent`: a name assigned once to an imported function is that function.
      const value = this.bound.get(callee.text);
      return value && value.type !== "function_definition" && depth < MAX_DEPTH ? this.importOf(value, depth + 1) : undefined;
    }
    if (callee.type === "attribute") {
      // `da.create_deep_agent`, `deepagents.backends.FilesystemBackend`
      const object = callee.childForFieldName("object");
      const attribute = callee.childForFieldName("attribute");
      if (!object || !attribute) return undefined;
      const root = object.type === "identifier" ? object : object.descendantsOfType("identifier")[0];
      const namespace = root ? this.imports.get(root.text) : undefined;
      if (namespace?.name === "*") return { module: namespace.module + object.text.slice(root!.text.length), name: attribute.text };
    }
    return undefined;
  }

  /** Keyword arguments' values (also those a half-typed call leaves in an ERROR node). */
  keywordsOf(nodes: readonly SyntaxNode[]): Entry[] {
    const entries: Entry[] = [];
    for (const arg of nodes) {
      const name = arg.childForFieldName("name");
      const value = arg.childForFieldName("value");
      if (name && value) entries.push({ key: name.text, keySpan: spanOf(name), value: this.evaluate(value, 1) });
    }
    return entries;
  }

  evaluate(node: SyntaxNode, depth: number): Value {
    if (depth > MAX_DEPTH) return dynamicOf(node, this.text);
    const span = spanOf(node);
    switch (node.type) {
      case "parenthesized_expression": {
        const inner = parts(node)[0];
        return inner ? this.evaluate(inner, depth + 1) : dynamicOf(node, this.text);
      }
      case "string":
        return this.string(node) ?? dynamicOf(node, this.text);
      case "concatenated_string": {
        let value = "";
        for (const piece of parts(node)) {
          const s = this.string(piece);
          if (!s) return dynamicOf(node, this.text);
          value += s.value;
        }
        return { kind: "string", value, span };
      }
      case "integer":
      case "float":
        return { kind: "number", value: Number(node.text.replace(/_/g, "")), span };
      case "true":
      case "false":
        return { kind: "boolean", value: node.type === "true", span };
      case "none":
        return { kind: "null", span };
      case "list":
      case "set":
      case "tuple":
        return { ...this.listOf(node, depth, "list_splat"), ...(node.type === "list" ? {} : { collection: node.type }) };
      case "dictionary":
        return this.dictionary(node, depth);
      case "identifier":
        return this.name(node, depth);
      case "binary_operator": {
        const left = node.childForFieldName("left");
        const right = node.childForFieldName("right");
        if (node.childForFieldName("operator")?.text === "+" && left && right) {
          const a = this.evaluate(left, depth + 1);
          const b = this.evaluate(right, depth + 1);
          if (a.kind === "string" && b.kind === "string") return { kind: "string", value: a.value + b.value, span };
          if (a.kind === "list" && b.kind === "list" && a.collection === b.collection) return { kind: "list", items: [...a.items, ...b.items], ...(a.collection ? { collection: a.collection } : {}), span };
        }
        return dynamicOf(node, this.text);
      }
      case "call":
        return this.call(node, depth);
      case "subscript":
        return this.part(node) ?? dynamicOf(node, this.text);
      case "lambda": {
        const body = node.childForFieldName("body");
        return body ? { kind: "factory", returns: this.evaluate(body, depth + 1), span } : dynamicOf(node, this.text);
      }
      default:
        return dynamicOf(node, this.text);
    }
  }

  /** `tools["web_search"]`, `middleware["Audit"]` inside an agent-sandbox export's `create_agent`. */
  private part(node: SyntaxNode): Value | undefined {
    const value = node.childForFieldName("value");
    const key = node.childForFieldName("subscript");
    const part = value?.text === PARTS.py.tools ? "tools" : value?.text === PARTS.py.middleware ? "middleware" : undefined;
    const name = key ? this.string(key) : undefined;
    if (value?.type !== "identifier" || !part || !name || !this.inExportedFunction(node, value.text, ["function_definition"], EXPORTED_FUNCTION.py)) return undefined;
    return { kind: "part", part, name: name.value, span: spanOf(node) };
  }

  private string(node: SyntaxNode): (Value & { kind: "string" }) | undefined {
    if (node.type !== "string") return undefined;
    const pieces = parts(node);
    if (pieces.some((p) => p.type === "interpolation")) return undefined;
    const start = pieces.find((p) => p.type === "string_start");
    const end = pieces.find((p) => p.type === "string_end");
    if (!start || !end) return undefined;
    const body = this.text.slice(start.endIndex, end.startIndex);
    const raw = /r/i.test(start.text.replace(/["']/g, ""));
    return { kind: "string", value: raw ? body : unescape(body), span: spanOf(node) };
  }

  private name(node: SyntaxNode, depth: number): Value {
    const value = this.bound.get(node.text);
    if (!value || this.imports.has(node.text)) return dynamicOf(node, this.text);
    if (value.type === "function_definition") {
      const decorated = value.parent?.type === "decorated_definition" ? value.parent : undefined;
      const decorators = decorated ? parts(decorated).filter((d) => d.type === "decorator").map((d) => d.text.replace(/^@\s*/, "")) : [];
      return { kind: "function", name: node.text, decorators, span: spanOf(value.childForFieldName("name") ?? value) };
    }
    return this.evaluateBound(node, value, depth);
  }

  private dictionary(node: SyntaxNode, depth: number): Value {
    const entries: Entry[] = [];
    const spreads: Value[] = [];
    for (const member of parts(node)) {
      if (member.type === "pair") {
        const key = member.childForFieldName("key");
        const value = member.childForFieldName("value");
        const name = key ? this.string(key) : undefined;
        if (!key || !value) continue;
        if (!name) {
          spreads.push(dynamicOf(key, this.text));
          continue;
        }
        entries.push({ key: name.value, keySpan: spanOf(key), value: this.evaluate(value, depth + 1) });
      } else if (member.type === "dictionary_splat") {
        this.spreadInto(member, depth, entries, spreads);
      }
    }
    const value: Value = { kind: "object", entries, span: spanOf(node) };
    if (spreads.length) this.spreads.set(value, spreads);
    return value;
  }

  private call(node: SyntaxNode, depth: number): Value {
    const callee = node.childForFieldName("function");
    const argsNode = node.childForFieldName("arguments");
    if (!callee) return dynamicOf(node, this.text);
    const args: Value[] = [];
    const keywords: Entry[] = [];
    const spreads: Value[] = [];
    for (const arg of argsNode ? parts(argsNode) : []) {
      if (arg.type === "keyword_argument") {
        const name = arg.childForFieldName("name");
        const value = arg.childForFieldName("value");
        if (name && value) keywords.push({ key: name.text, keySpan: spanOf(name), value: this.evaluate(value, depth + 1) });
      } else if (arg.type === "dictionary_splat") {
        this.spreadInto(arg, depth, keywords, spreads);
      } else if (arg.type === "list_splat") {
        args.push(dynamicOf(arg, this.text));
      } else args.push(this.evaluate(arg, depth + 1));
    }
    // `"""...""".strip()`: a known string without its surrounding whitespace (Python's own definition of it).
    const strip = callee.type === "attribute" ? STRIPS.get(callee.childForFieldName("attribute")?.text ?? "") : undefined;
    if (strip && args.length === 0 && keywords.length === 0 && spreads.length === 0) {
      const base = this.evaluate(callee.childForFieldName("object")!, depth + 1);
      if (base.kind === "string") return { kind: "string", value: base.value.replace(strip, ""), span: spanOf(node) };
    }
    // `dict(tools=[...], **base)`: the builtin builds the same object a dict literal does (unless the file rebinds it).
    if (callee.type === "identifier" && callee.text === "dict" && !this.bound.has("dict") && !this.imports.has("dict") && args.length <= 1) {
      const first = args[0];
      if (first === undefined || first.kind === "object") {
        const object: Value & { kind: "object" } = { kind: "object", entries: [...(first?.entries ?? []), ...keywords], span: spanOf(node) };
        const unknown = [...(first ? this.spreadsOf(first) : []), ...spreads];
        if (unknown.length) this.spreads.set(object, unknown);
        return object;
      }
    }
    const imported = this.importOf(callee);
    const result: Value & { kind: "call" } = { kind: "call", callee: this.text.slice(callee.startIndex, Math.min(callee.endIndex, callee.startIndex + 60)), args, keywords, expression: (dynamicOf(node, this.text) as { expression: string }).expression, span: spanOf(node) };
    if (imported) {
      result.module = imported.module;
      if (this.isDeepagents(imported.module)) result.runtime = imported.name;
    }
    // `sandbox("daytona")`, `backend("name", execute=..., delete=...)` inside an agent-sandbox export's `create_agent`.
    const part = callee.text === PARTS.py.sandbox ? "sandbox" : callee.text === PARTS.py.backend ? "backend" : undefined;
    if (callee.type === "identifier" && part && this.inExportedFunction(node, callee.text, ["function_definition"], EXPORTED_FUNCTION.py)) result.part = part;
    if (spreads.length) this.spreads.set(result, spreads);
    return result;
  }
}

