import type { JsonNode } from "../config/parse";
import type { CollectionNode } from "../config/model";
import type { DynamicField, DynamicValue } from "../config/dynamic";
import type { Span } from "../text";
import { entry, type Entry, type Value } from "./values";

/**
 * The config tree a `createDeepAgent` / `create_deep_agent` call describes: the same jsonc-parser-shaped nodes the
 * JSONC parser gives (`buildModel` reads either), each with its offsets in the source file, so that every finding
 * lands where the value is written. Keys the config does not mirror (`model`, `checkpointer`, `store`, …) are left
 * out; values that cannot be known without running the code are left out too, and listed in `dynamic`.
 */
export interface SourceConfig {
  root: JsonNode;
  dynamic: DynamicValue[];
}

/** The option and class names of one runtime's API (verified against deepagents 1.14.1's .d.ts and the spec's Python). */
export interface Dialect {
  /** The agent's options: config key → the option's name in this language. */
  top: Record<"permissions" | "tools" | "systemPrompt" | "backend" | "middleware" | "subagents" | "skills" | "name", string>;
  subagent: Record<"name" | "description" | "systemPrompt" | "mode" | "tools" | "permissions" | "middleware" | "skills", string>;
  /** The filesystem middleware's options (Python's `FilesystemMiddleware` takes the rules as `_permissions`). */
  filesystemMiddleware: { names: readonly string[]; tools: string; permissions: string; backend: string; systemPrompt: string };
  /** The rule's constructor (Python's `FilesystemPermission(...)`; JS rules are plain objects). */
  rule?: { names: readonly string[]; positional: readonly string[] };
  /** Backend classes: runtime name → config backend `type` (and the sandbox `provider`). */
  backends: Record<string, { type: "state" | "store" | "filesystem" | "sandbox" | "composite"; provider?: string }>;
  /** `FilesystemBackend`'s folder and virtual-mode options, and CompositeBackend's two arguments by keyword. */
  rootDir: string;
  virtualMode: string;
  composite: { default: string; routes: string };
  /** A subagent object with this key is a compiled one: its tools were fixed when it was compiled. */
  compiledSubagentKeys: readonly string[];
  /** The runtime's subagent `mode` names as the config writes them. */
  modes: Record<string, "handoff" | "fork">;
  /** A user tool's name, when the front end can tell it (`tool(fn, { name })`, `@tool def name`). */
  toolName(value: Value): { name: string; span: Span } | undefined;
  /** Middleware that is known not to be a filesystem middleware (the runtime's own and LangChain's): its name. */
  otherMiddleware(value: Value): string | undefined;
}

export function toConfig(options: Value & { kind: "object" }, span: Span, dialect: Dialect): SourceConfig {
  return new Builder(dialect).build(options, span);
}

class Builder {
  readonly dynamic: DynamicValue[] = [];
  constructor(private readonly d: Dialect) {}

  build(options: Value & { kind: "object" }, span: Span): SourceConfig {
    const root = node("object", span);
    const top = this.d.top;
    this.put(root, options, top.name, "name", (v) => this.string(v, "the agent's name", "name"));
    this.put(root, options, top.systemPrompt, "systemPrompt", (v) => this.string(v, "the system prompt", "system-prompt"));
    this.put(root, options, top.backend, "backend", (v) => this.backend(v, "the backend", true));
    this.put(root, options, top.tools, "tools", (v) => this.userTools(v, "the agent's tools"));
    this.put(root, options, top.permissions, "permissions", (v) => this.rules(v, "permissions"));
    this.put(root, options, top.middleware, "middleware", (v) => this.middlewareList(v, "the agent"));
    this.put(root, options, top.subagents, "subagents", (v) => this.subagents(v));
    this.put(root, options, top.skills, "skills", (v) => this.strings(v, "skills", "skills"));
    return { root, dynamic: this.dynamic };
  }

  /** Sets `key` on `target` from the option `option` of `from`, when it is there and can be read. */
  private put(target: JsonNode, from: Value & { kind: "object" }, option: string, key: string, convert: (v: Value) => JsonNode | undefined): void {
    const found = entry(from, option);
    if (!found) return;
    // `undefined` as a value is the option left out, in both runtimes.
    if (found.value.kind === "dynamic" && found.value.expression === "undefined") return;
    const value = convert(found.value);
    if (value) property(target, key, found.keySpan, value);
  }

  private unknown(value: Value, what: string, field: DynamicField): undefined {
    const expression = value.kind === "dynamic" ? value.expression : value.kind === "call" ? value.expression : value.kind === "function" || value.kind === "part" ? value.name : value.kind;
    this.dynamic.push({ what, field, expression, span: value.span });
    return undefined;
  }

  private string(v: Value, what: string, field: DynamicField): JsonNode | undefined {
    if (v.kind === "string") return leaf("string", v.value, v.span);
    return this.unknown(v, what, field);
  }

  /** A plain JSON value (a rule's `operations`, `paths`, `mode`; a middleware's `tools`), or undefined when dynamic. */
  private json(v: Value, what: string, field: DynamicField): JsonNode | undefined {
    switch (v.kind) {
      case "string":
        return leaf("string", v.value, v.span);
      case "number":
        return leaf("number", v.value, v.span);
      case "boolean":
        return leaf("boolean", v.value, v.span);
      case "null":
        return leaf("null", null, v.span);
      case "list": {
        const list: CollectionNode = node("array", v.span);
        if (v.collection) list.collection = v.collection;
        for (const item of v.items) {
          const child = this.json(item, what, field);
          if (!child) return undefined;
          add(list, child);
        }
        return list;
      }
      case "call":
        // `new Set([...])`: JS copies any iterable (a filesystem middleware's `tools` reads it as a set).
        if (v.callee === "Set" && v.args.length === 1 && v.args[0]!.kind === "list") return this.json({ ...v.args[0]!, collection: "set", span: v.span }, what, field);
        return this.unknown(v, what, field);
      case "object": {
        const object = node("object", v.span);
        for (const e of v.entries) {
          const child = this.json(e.value, what, field);
          if (!child) return undefined;
          property(object, e.key, e.keySpan, child);
        }
        return object;
      }
      default:
        return this.unknown(v, what, field);
    }
  }

  private strings(v: Value, what: string, field: DynamicField): JsonNode | undefined {
    if (v.kind !== "list") return this.unknown(v, what, field);
    const list = node("array", v.span);
    for (const item of v.items) {
      if (item.kind === "string") add(list, leaf("string", item.value, item.span));
      else this.unknown(item, what, field);
    }
    return list;
  }

  private rules(v: Value, what: string): JsonNode | undefined {
    if (v.kind === "null") return leaf("null", null, v.span);
    if (v.kind !== "list") return this.unknown(v, what, "permissions");
    const list = node("array", v.span);
    for (const item of v.items) {
      const rule = this.rule(item, what);
      if (rule) add(list, rule);
    }
    return list;
  }

  private rule(v: Value, what: string): JsonNode | undefined {
    let fields: Entry[] | undefined;
    if (v.kind === "object") fields = v.entries;
    else if (v.kind === "call" && this.d.rule && v.runtime && this.d.rule.names.includes(v.runtime)) {
      const positional = this.d.rule.positional;
      fields = [...v.args.slice(0, positional.length).map((value, i) => ({ key: positional[i]!, keySpan: value.span, value })), ...v.keywords];
    }
    if (!fields) return this.unknown(v, `a rule of ${what}`, "permissions");
    const rule = node("object", v.span);
    for (const f of fields) {
      if (f.key !== "operations" && f.key !== "paths" && f.key !== "mode") continue;
      const value = this.json(f.value, `a rule of ${what}`, "permissions");
      // A rule with a part unknown is left out whole: half a rule would decide what the real one does not.
      if (!value) return undefined;
      property(rule, f.key, f.keySpan, value);
    }
    return rule;
  }

  private userTools(v: Value, what: string): JsonNode | undefined {
    if (v.kind !== "list") return this.unknown(v, what, "user-tools");
    const list = node("array", v.span);
    for (const item of v.items) {
      const named = item.kind === "part" && item.part === "tools" ? { name: item.name, span: item.span } : this.d.toolName(item);
      if (named) add(list, leaf("string", named.name, named.span));
      else this.unknown(item, `a tool in ${what}`, "user-tools");
    }
    return list;
  }

  private backend(v: Value, what: string, topLevel: boolean): JsonNode | undefined {
    if (v.kind === "factory") {
      const made = v.returns.kind === "call" ? this.backend(v.returns, what, false) : this.unknown(v.returns, what, "backend");
      // Only the agent's and a middleware's own backend may be a factory (inside a composite the runtime takes
      // instances), and the config says so only of a sandbox: a factory of any other backend behaves as its instance does.
      const type = made?.children?.find((p) => p.children?.[0]?.value === "type")?.children?.[1]?.value;
      if (made && topLevel && type === "sandbox") property(made, "factory", v.span, leaf("boolean", true, v.span));
      return made;
    }
    if (v.kind === "call" && v.part) return this.exportedBackend(v, v.part);
    if (v.kind !== "call" || !v.runtime || !this.d.backends[v.runtime]) return this.unknown(v, what, "backend");
    const known = this.d.backends[v.runtime]!;
    const backend = node("object", v.span);
    property(backend, "type", v.span, leaf("string", known.type, v.span));
    if (known.provider) property(backend, "provider", v.span, leaf("string", known.provider, v.span));
    const options = v.args[0]?.kind === "object" ? v.args[0].entries : [];
    if (known.type === "filesystem") {
      const option = (key: string) => [...options, ...v.keywords].filter((e) => e.key === key).at(-1);
      const rootDir = option(this.d.rootDir);
      if (rootDir?.value.kind === "string") property(backend, "rootDir", rootDir.keySpan, leaf("string", rootDir.value.value, rootDir.value.span));
      // `root_dir=Path(__file__).parent`: no check needs the folder, but what it is cannot be said either.
      else if (rootDir) this.unknown(rootDir.value, `the root folder of ${what}`, "backend-root");
      const virtualMode = option(this.d.virtualMode);
      if (virtualMode?.value.kind === "boolean") property(backend, "virtualMode", virtualMode.keySpan, leaf("boolean", virtualMode.value.value, virtualMode.value.span));
      else if (virtualMode) this.unknown(virtualMode.value, `the virtual mode of ${what}`, "backend-root");
    }
    if (known.type === "composite") {
      const byKey = (key: string, index: number) => v.keywords.filter((e) => e.key === key).at(-1)?.value ?? v.args[index];
      const fallback = byKey(this.d.composite.default, 0);
      if (fallback) {
        const made = this.backend(fallback, `the default of ${what}`, false);
        if (made) property(backend, "default", fallback.span, made);
      }
      const routes = byKey(this.d.composite.routes, 1);
      if (routes?.kind === "object") {
        const table = node("object", routes.span);
        for (const route of routes.entries) {
          const made = this.backend(route.value, `the route ${route.key} of ${what}`, false);
          if (made) property(table, route.key, route.keySpan, made);
        }
        property(backend, "routes", routes.span, table);
      } else if (routes) this.unknown(routes, `the routes of ${what}`, "backend");
    }
    return backend;
  }

  /**
   * A backend an agent-sandbox export's function is given (export/parts.ts): `sandbox(provider)` is a sandbox of
   * that provider, `backend(name, { execute, delete })` a custom backend with those capabilities.
   */
  private exportedBackend(v: Value & { kind: "call" }, part: "sandbox" | "backend"): JsonNode {
    const backend = node("object", v.span);
    const [first, second] = v.args;
    property(backend, "type", v.span, leaf("string", part === "sandbox" ? "sandbox" : "custom", v.span));
    if (first?.kind === "string") property(backend, part === "sandbox" ? "provider" : "name", first.span, leaf("string", first.value, first.span));
    if (part === "backend") {
      const flags = [...(second?.kind === "object" ? second.entries : []), ...v.keywords];
      const capabilities = node("object", v.span);
      for (const name of ["execute", "delete"]) {
        const given = flags.filter((e) => e.key === name).at(-1);
        if (given?.value.kind === "boolean") property(capabilities, name, given.keySpan, leaf("boolean", given.value.value, given.value.span));
      }
      property(backend, "capabilities", v.span, capabilities);
    }
    return backend;
  }

  private middlewareList(v: Value, owner: string): JsonNode | undefined {
    if (v.kind !== "list") return this.unknown(v, `the middleware of ${owner}`, "middleware");
    const list = node("array", v.span);
    for (const item of v.items) {
      const made = this.middleware(item, owner);
      if (made) add(list, made);
    }
    return list;
  }

  private middleware(v: Value, owner: string): JsonNode | undefined {
    const fs = this.d.filesystemMiddleware;
    if (v.kind === "call" && v.runtime && fs.names.includes(v.runtime)) {
      const options = [...(v.args[0]?.kind === "object" ? v.args[0].entries : []), ...v.keywords];
      const object: Value & { kind: "object" } = { kind: "object", entries: options, span: v.span };
      const made = node("object", v.span);
      property(made, "type", v.span, leaf("string", "filesystem", v.span));
      const what = `the filesystem middleware of ${owner}`;
      this.put(made, object, fs.tools, "tools", (t) => this.json(t, `the tools of ${what}`, "filesystem-tools"));
      this.put(made, object, fs.permissions, "permissions", (p) => this.rules(p, `the permissions of ${what}`));
      // A middleware takes a factory as the agent does (the export writes one for `factory: true` there too).
      this.put(made, object, fs.backend, "backend", (b) => this.backend(b, `the backend of ${what}`, true));
      this.put(made, object, fs.systemPrompt, "systemPrompt", (s) => this.string(s, `the system prompt of ${what}`, "system-prompt"));
      return made;
    }
    if (v.kind === "part" && v.part === "middleware") {
      const made = node("object", v.span);
      property(made, "type", v.span, leaf("string", "custom", v.span));
      property(made, "name", v.span, leaf("string", v.name, v.span));
      return made;
    }
    const name = this.d.otherMiddleware(v);
    if (name === undefined) return this.unknown(v, `a middleware of ${owner}`, "middleware");
    const made = node("object", v.span);
    property(made, "type", v.span, leaf("string", "custom", v.span));
    property(made, "name", v.span, leaf("string", name, v.span));
    return made;
  }

  private subagents(v: Value): JsonNode | undefined {
    if (v.kind !== "list") return this.unknown(v, "subagents", "subagents");
    const list = node("array", v.span);
    for (const item of v.items) {
      if (item.kind !== "object") {
        this.unknown(item, "a subagent", "subagents");
        continue;
      }
      const s = this.d.subagent;
      const nameValue = entry(item, s.name)?.value;
      const label = nameValue?.kind === "string" ? `subagent ${nameValue.value}` : "a subagent";
      // A compiled (or remote) subagent's tools and rules were fixed where its graph was built, not here.
      const compiled = this.d.compiledSubagentKeys.map((k) => entry(item, k)).find((e) => e !== undefined);
      if (compiled) {
        const v = compiled.value;
        const expression = v.kind === "dynamic" || v.kind === "call" ? v.expression : v.kind === "string" ? `${compiled.key}: "${v.value}"` : compiled.key;
        this.dynamic.push({ what: `the tools of compiled ${label}`, field: "subagents", expression, span: item.span });
        continue;
      }
      const made = node("object", item.span);
      this.put(made, item, s.name, "name", (x) => this.string(x, `the name of ${label}`, "subagents"));
      this.put(made, item, s.description, "description", (x) => this.string(x, `the description of ${label}`, "subagents"));
      this.put(made, item, s.systemPrompt, "systemPrompt", (x) => this.string(x, `the system prompt of ${label}`, "system-prompt"));
      // deepagents-py's subagents have no mode (no dialect modes): it ignores the key, and so does the model.
      if (Object.keys(this.d.modes).length > 0) this.put(made, item, s.mode, "mode", (x) => (x.kind === "string" && this.d.modes[x.value] ? leaf("string", this.d.modes[x.value]!, x.span) : this.unknown(x, `the mode of ${label}`, "subagents")));
      this.put(made, item, s.tools, "tools", (x) => this.userTools(x, `the tools of ${label}`));
      this.put(made, item, s.permissions, "permissions", (x) => this.rules(x, `the permissions of ${label}`));
      this.put(made, item, s.middleware, "middleware", (x) => this.middlewareList(x, label));
      this.put(made, item, s.skills, "skills", (x) => this.strings(x, `the skills of ${label}`, "skills"));
      add(list, made);
    }
    return list;
  }
}

function node(type: JsonNode["type"], span: Span): JsonNode {
  return { type, offset: span.start, length: span.end - span.start, children: type === "object" || type === "array" ? [] : undefined } as JsonNode;
}

function leaf(type: JsonNode["type"], value: unknown, span: Span): JsonNode {
  return { type, offset: span.start, length: span.end - span.start, value } as JsonNode;
}

function add(parent: JsonNode, child: JsonNode): void {
  (child as { parent?: JsonNode }).parent = parent;
  parent.children!.push(child);
}

function property(object: JsonNode, key: string, keySpan: Span, value: JsonNode): void {
  const start = Math.min(keySpan.start, value.offset);
  const end = Math.max(keySpan.end, value.offset + value.length);
  const prop = { type: "property", offset: start, length: end - start, children: [] } as unknown as JsonNode;
  add(prop, leaf("string", key, keySpan));
  add(prop, value);
  add(object, prop);
}
