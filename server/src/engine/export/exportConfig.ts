import { getNodeValue } from "jsonc-parser";
import type { BackendSpec, ConfigModel, MiddlewareSpec, SubagentSpec } from "../config/model";
import { property, type JsonNode } from "../config/parse";
import { EXPORTED_FUNCTION, PARTS } from "./parts";
import { call, code, construct, list, object, Printer, stringLiteral, value, withComment, type Comment, type Entry, type Expr, type Language } from "./code";

/**
 * `agent-sandbox export CONFIG --to ts|py`: the `createDeepAgent({...})` (deepagents-js) or `create_deep_agent(...)`
 * (deepagents-py) call that builds what a config describes, with its imports, as one module that exports a function
 * taking the model (and what only the application can supply: its tools, a sandbox, custom backends and middleware).
 *
 * What the runtime takes as given is exported as written, so the exported code behaves as the config says, its
 * mistakes included: a rule's `operations` given as a string, a misspelled key, a subagent's `permissions: null`.
 * The renderer reads only the model (what the checks see, and each value's node for the value as written), never
 * the text, so a model that another front end built (a source file's call) exports the same way.
 */
export interface ExportOptions {
  to: Language;
  /** The config's file name as the user gave it, for the header. */
  source?: string;
  /** A file named relative to the config (`systemPromptFile`), or `undefined` when it cannot be read. */
  readFile?: (relativePath: string) => string | undefined;
}

export { EXPORTED_FUNCTION, PARTS } from "./parts";

export function exportConfig(model: ConfigModel, options: ExportOptions): string {
  return new Exporter(model, options).module();
}

/** What the config names but only the application can supply (each becomes a field of the function's `parts`). */
interface Parts {
  /** In the order the config first names them (a set: a config may list thousands of subagents naming the same tools). */
  tools: Set<string>;
  sandbox: boolean;
  customBackend: boolean;
  middleware: Set<string>;
}

class Exporter {
  private readonly ts: boolean;
  private readonly printer: Printer;
  private readonly parts: Parts = { tools: new Set(), sandbox: false, customBackend: false, middleware: new Set() };
  private readonly imports = new Set<string>();
  /** Comments said once before the call: what has no equivalent in the runtime's options. */
  private readonly notes: string[][] = [];

  constructor(
    private readonly model: ConfigModel,
    private readonly options: ExportOptions,
  ) {
    this.ts = options.to === "ts";
    this.printer = new Printer(options.to);
  }

  module(): string {
    const entries = this.topLevel();
    const callExpr = this.ts ? call("createDeepAgent", [object([{ key: "model", value: code("model") }, ...entries])]) : call("create_deep_agent", [], [{ key: "model", value: code("model") }, ...entries]);
    this.imports.add(this.ts ? "createDeepAgent" : "create_deep_agent");
    const body = this.printer.print(callExpr, 1, (this.ts ? "  return " : "    return ").length);
    const notes = this.notes.map((n) => `${this.printer.comment(n, 1)}\n`).join("");
    return this.ts ? this.typescript(notes, body) : this.python(notes, body);
  }

  // -------------------------------------------------------------------------------------------------------
  // The options, in the order the config writes them
  // -------------------------------------------------------------------------------------------------------

  private topLevel(): Entry[] {
    const entries: Entry[] = [];
    for (const [key, node] of properties(this.model.root)) {
      switch (key) {
        case "$schema":
        case "version":
        case "runtime":
        case "compatibleWith":
          // agent-sandbox's own keys: the runtime is chosen by which package the code imports.
          break;
        case "systemPromptFile":
          entries.push(this.promptFile(node));
          break;
        case "backend":
          entries.push({ key, value: this.backend(node, this.model.backend, true) });
          break;
        case "tools":
          entries.push({ key, value: this.tools(node) });
          break;
        case "permissions":
          entries.push({ key, value: this.permissions(node) });
          break;
        case "middleware":
          entries.push({ key, value: this.middlewareList(node, this.model.middleware) });
          break;
        case "subagents":
          entries.push({ key, value: this.subagents(node) });
          break;
        case "authorization":
          this.notes.push([
            "DeerFlow's `authorization` block has no createDeepAgent equivalent (deepagents has no roles): it is not",
            "exported. DeerFlow enforces it from its config.yaml, where `roles` sits under `provider.config`. As written:",
            ...jsonLines(getNodeValue(node)),
          ]);
          break;
        case "workspace":
          this.notes.push(["`workspace` (the sample files agent-sandbox previews and dry runs read) is no agent option: not exported."]);
          break;
        case "model":
          // Not a config key (the schema reports it): the model is the function's parameter, which must win.
          this.notes.push(["The config's `model` is not exported: the model is this function's parameter."]);
          break;
        default:
          entries.push({ key: this.optionName(key), value: value(getNodeValue(node)) });
      }
    }
    return entries;
  }

  /** The runtime's name of a config key that both share (deepagents-py spells options in snake_case). */
  private optionName(key: string): string {
    if (this.ts) return key;
    return ({ systemPrompt: "system_prompt", interruptOn: "interrupt_on", toolDescriptions: "custom_tool_descriptions" } as Record<string, string>)[key] ?? key;
  }

  private promptFile(node: JsonNode): Entry {
    const key = this.optionName("systemPrompt");
    const file = getNodeValue(node);
    const text = typeof file === "string" ? this.options.readFile?.(file) : undefined;
    if (text === undefined) {
      const comment = [`systemPromptFile ${JSON.stringify(file)} could not be read: put the prompt here.`];
      return { key, value: value(""), comment };
    }
    return { key, value: value(text), comment: [`From systemPromptFile ${JSON.stringify(file)}.`] };
  }

  /** User tools are the application's code: each name becomes the application's tool of that name. */
  private tools(node: JsonNode): Expr {
    if (node.type !== "array") return value(getNodeValue(node));
    return list(
      (node.children ?? []).map((child) => {
        if (child.type !== "string") return value(getNodeValue(child));
        const name = child.value as string;
        this.parts.tools.add(name);
        return code(this.ts ? `${PARTS.ts.tools}${member(name)}` : `${PARTS.py.tools}[${stringLiteral(name)}]`);
      }),
    );
  }

  /** Rules are plain objects in deepagents-js and `FilesystemPermission` instances in deepagents-py. */
  private permissions(node: JsonNode): Expr {
    if (this.ts || node.type !== "array") return value(getNodeValue(node));
    return list(
      (node.children ?? []).map((rule) => {
        if (rule.type !== "object") return value(getNodeValue(rule));
        this.imports.add("FilesystemPermission");
        return call(
          "FilesystemPermission",
          [],
          properties(rule).map(([key, v]) => ({ key, value: value(getNodeValue(v)) })),
        );
      }),
    );
  }

  // -------------------------------------------------------------------------------------------------------
  // Backends
  // -------------------------------------------------------------------------------------------------------

  private backend(node: JsonNode, spec: BackendSpec | undefined, mayBeFactory: boolean): Expr {
    if (!spec) return value(getNodeValue(node));
    const instance = this.backendInstance(spec);
    // `factory` means something only where the SDK takes a function; elsewhere the config's schema reports it.
    // The placeholder's comment goes before the function, which is where a reader meets it.
    return spec.factory && mayBeFactory ? withComment({ kind: "factory", body: { ...instance, comment: undefined } }, instance.comment) : instance;
  }

  private backendInstance(spec: BackendSpec): Expr {
    const rest = properties(spec.node).filter(([key]) => key !== "type" && key !== "factory");
    switch (spec.type) {
      case "state":
      case "store": {
        const name = spec.type === "state" ? "StateBackend" : "StoreBackend";
        this.imports.add(name);
        return this.ts ? construct(name, []) : call(name, []);
      }
      case "filesystem": {
        this.imports.add("FilesystemBackend");
        if (this.ts) return construct("FilesystemBackend", rest.length > 0 ? [object(rest.map(([key, v]) => ({ key, value: value(getNodeValue(v)) })))] : []);
        const pyName: Record<string, string> = { rootDir: "root_dir", virtualMode: "virtual_mode" };
        return call("FilesystemBackend", [], rest.map(([key, v]) => ({ key: pyName[key] ?? key, value: value(getNodeValue(v)) })));
      }
      case "composite": {
        this.imports.add("CompositeBackend");
        const defaultNode = property(spec.node, "default");
        const fallback = defaultNode ? this.backend(defaultNode, spec.default, false) : value(undefined);
        const routesNode = property(spec.node, "routes");
        const routes: Entry[] = [];
        const byNode = new Map(spec.routes.map((r) => [r.backend.node, r.backend]));
        for (const [prefix, node] of routesNode ? properties(routesNode) : []) routes.push({ key: prefix, value: this.backend(node, byNode.get(node), false) });
        const routesExpr = routesNode && routesNode.type !== "object" ? value(getNodeValue(routesNode)) : object(routes);
        return this.ts ? construct("CompositeBackend", [fallback, routesExpr]) : call("CompositeBackend", [], [{ key: "default", value: fallback }, { key: "routes", value: routesExpr }]);
      }
      case "sandbox": {
        this.parts.sandbox = true;
        const provider = value(spec.provider);
        return withComment(
          call(PARTS[this.options.to].sandbox, spec.provider === undefined ? [] : [provider]),
          [`PLACEHOLDER: a sandbox backend${spec.provider ? ` (${spec.provider})` : ""}, which your application supplies.`],
        );
      }
      case "custom": {
        this.parts.customBackend = true;
        const caps = spec.capabilities ?? { execute: false, delete: false };
        const args = [value(spec.name ?? null)];
        const comment = [`PLACEHOLDER: your backend ${JSON.stringify(spec.name ?? "")}; the config says it ${caps.execute ? "executes" : "does not execute"} and ${caps.delete ? "deletes" : "does not delete"}.`];
        if (this.ts) return withComment(call(PARTS.ts.backend, [...args, object([{ key: "execute", value: value(caps.execute) }, { key: "delete", value: value(caps.delete) }])]), comment);
        return withComment(call(PARTS.py.backend, args, [{ key: "execute", value: value(caps.execute) }, { key: "delete", value: value(caps.delete) }]), comment);
      }
      default:
        return withComment(value(getNodeValue(spec.node)), ["A backend of a type agent-sandbox does not know, as written."]);
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Middleware and subagents
  // -------------------------------------------------------------------------------------------------------

  private middlewareList(node: JsonNode, specs: readonly MiddlewareSpec[]): Expr {
    if (node.type !== "array") return value(getNodeValue(node));
    const byIndex = new Map(specs.map((m) => [m.index, m]));
    return list((node.children ?? []).map((child, index) => this.middleware(child, byIndex.get(index))));
  }

  private middleware(node: JsonNode, spec: MiddlewareSpec | undefined): Expr {
    if (!spec) return value(getNodeValue(node));
    if (spec.type !== "filesystem") {
      const name = spec.name ?? spec.type ?? "";
      this.parts.middleware.add(name);
      return code(this.ts ? `${PARTS.ts.middleware}${member(name)}` : `${PARTS.py.middleware}[${stringLiteral(name)}]`);
    }
    const entries: Entry[] = [];
    let comment: Comment | undefined;
    for (const [key, v] of properties(node)) {
      if (key === "type") continue;
      if (key === "backend") entries.push({ key, value: this.backend(v, spec.backend, true) });
      else if (key === "permissions") {
        if (!this.ts) comment = ["deepagents-py takes a custom FilesystemMiddleware's rules only by its private _permissions argument."];
        entries.push({ key: this.ts ? "permissions" : "_permissions", value: this.permissions(v) });
      } else entries.push({ key: this.ts ? (key === "toolDescriptions" ? "customToolDescriptions" : key) : this.optionName(key), value: value(getNodeValue(v)) });
    }
    const name = this.ts ? "createFilesystemMiddleware" : "FilesystemMiddleware";
    this.imports.add(name);
    return withComment(this.ts ? call(name, entries.length > 0 ? [object(entries)] : []) : call(name, [], entries), comment);
  }

  private subagents(node: JsonNode): Expr {
    if (node.type !== "array") return value(getNodeValue(node));
    const byIndex = new Map(this.model.subagents.map((s) => [s.index, s]));
    return list(
      (node.children ?? []).map((child, index) => {
        const spec = byIndex.get(index);
        return spec ? this.subagent(spec) : value(getNodeValue(child));
      }),
    );
  }

  private subagent(spec: SubagentSpec): Expr {
    const entries: Entry[] = [];
    for (const [key, v] of properties(spec.node)) {
      if (key === "tools") entries.push({ key, value: this.tools(v) });
      else if (key === "permissions") entries.push({ key, value: this.permissions(v) });
      else if (key === "middleware") entries.push({ key, value: this.middlewareList(v, spec.middleware) });
      else entries.push({ key: this.optionName(key), value: value(getNodeValue(v)) });
    }
    return object(entries);
  }

  // -------------------------------------------------------------------------------------------------------
  // The module around the call
  // -------------------------------------------------------------------------------------------------------

  private header(): string[] {
    const source = this.options.source ? ` from ${this.options.source}` : "";
    const runtime = this.ts ? "deepagents-js" : "deepagents-py";
    const lines = [`The agent${this.model.name ? ` ${JSON.stringify(this.model.name)}` : ""}, exported by agent-sandbox${source} for ${runtime}.`];
    if (this.model.runtime.id !== runtime) lines.push(`The config's runtime is ${this.model.runtime.id}: its checks answer for that runtime, not this one.`);
    return lines;
  }

  private typescript(notes: string, body: string): string {
    const values = [...this.imports].filter((n) => n !== "FilesystemPermission").sort();
    const types = ["CreateDeepAgentParams"];
    if (this.parts.sandbox) types.push("SandboxBackendProtocolV2");
    if (this.parts.customBackend) types.push("AnyBackendProtocol");
    const lines = [this.printer.comment(this.header(), 0)];
    lines.push(tsImport("", values, "deepagents"), tsImport("type ", types.sort(), "deepagents"));
    if (this.parts.tools.size > 0) lines.push(tsImport("type ", ["StructuredTool"], "@langchain/core/tools"));
    if (this.parts.middleware.size > 0) lines.push(tsImport("type ", ["AgentMiddleware"], "langchain"));
    lines.push("");
    const fields: string[] = [];
    if (this.parts.tools.size > 0) {
      fields.push("  /** Your tools, by the names the config gives them. */");
      fields.push(`  tools: { ${[...this.parts.tools].map((t) => `${tsKey(t)}: StructuredTool`).join("; ")} };`);
    }
    if (this.parts.sandbox) {
      fields.push("  /** PLACEHOLDER: your sandbox backend for the config's provider (deepagents' LocalShellBackend for \"local-shell\"). */");
      fields.push("  sandbox(provider?: string): SandboxBackendProtocolV2;");
    }
    if (this.parts.customBackend) {
      fields.push("  /** PLACEHOLDER: your custom backends, by name, with the capabilities the config declares. */");
      fields.push("  backend(name: string | null, capabilities: { execute: boolean; delete: boolean }): AnyBackendProtocol;");
    }
    if (this.parts.middleware.size > 0) {
      fields.push("  /** Your own middleware, by name. */");
      fields.push(`  middleware: { ${[...this.parts.middleware].map((m) => `${tsKey(m)}: AgentMiddleware`).join("; ")} };`);
    }
    let signature = `export function ${EXPORTED_FUNCTION.ts}(model: CreateDeepAgentParams["model"]) {`;
    if (fields.length > 0) {
      lines.push("/** What the config names but only your application can supply. */", "export interface AgentParts {", ...fields, "}", "");
      signature = `export function ${EXPORTED_FUNCTION.ts}(model: CreateDeepAgentParams["model"], parts: AgentParts) {`;
    }
    lines.push(signature, `${notes}  return ${body};`, "}", "");
    return lines.join("\n");
  }

  private python(notes: string, body: string): string {
    const lines = [this.printer.comment(this.header(), 0)];
    const pyImport = (module: string, names: string[]) => names.length > 0 && lines.push(`from ${module} import ${names.sort().join(", ")}`);
    const has = (n: string) => this.imports.has(n);
    pyImport("deepagents", ["create_deep_agent"]);
    pyImport("deepagents.backends", ["CompositeBackend", "FilesystemBackend", "StateBackend", "StoreBackend"].filter(has));
    pyImport("deepagents.middleware.filesystem", ["FilesystemMiddleware"].filter(has));
    pyImport("deepagents.middleware.permissions", ["FilesystemPermission"].filter(has));
    lines.push("", "");
    const params = ["model"];
    const doc: string[] = [];
    if (this.parts.tools.size > 0) {
      params.push("tools");
      doc.push(`tools: your tools, by the names the config gives them: ${[...this.parts.tools].map((t) => JSON.stringify(t)).join(", ")}.`);
    }
    if (this.parts.sandbox) {
      params.push("sandbox");
      doc.push("sandbox: PLACEHOLDER, returns your sandbox backend for the config's provider.");
    }
    if (this.parts.customBackend) {
      params.push("backend");
      doc.push("backend: PLACEHOLDER, returns your custom backend of a name, with the capabilities the config declares.");
    }
    if (this.parts.middleware.size > 0) {
      params.push("middleware");
      doc.push(`middleware: your own middleware, by name: ${[...this.parts.middleware].map((m) => JSON.stringify(m)).join(", ")}.`);
    }
    const signature = params.length > 1 ? `def ${EXPORTED_FUNCTION.py}(model, *, ${params.slice(1).join(", ")}):` : `def ${EXPORTED_FUNCTION.py}(model):`;
    lines.push(signature);
    lines.push(`    """Builds the agent the config describes.${doc.length > 0 ? "" : '"""'}`);
    if (doc.length > 0) lines.push("", "    What the config names but only your application can supply:", ...doc.map((d) => `    ${d}`), '    """');
    lines.push(`${notes}    return ${body}`, "");
    return lines.join("\n");
  }
}

function properties(node: JsonNode | undefined): [string, JsonNode][] {
  if (node?.type !== "object") return [];
  const out: [string, JsonNode][] = [];
  for (const prop of node.children ?? []) {
    const [key, v] = prop.children ?? [];
    if (key && v) out.push([String(key.value), v]);
  }
  return out;
}

/**
 * An import line of the exported module. The module name is quoted here, not written in a template, so that a
 * scan of this file's own imports (the engine's structure test) does not take the exported code's for its own.
 */
function tsImport(kind: "" | "type ", names: readonly string[], module: string): string {
  return `import ${kind}{ ${names.join(", ")} } from ${stringLiteral(module)};`;
}

/** `.name` for an identifier, `["name"]` for anything else. */
function member(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${stringLiteral(name)}]`;
}

function tsKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : stringLiteral(name);
}

/** A value quoted in a comment, laid out as the exported code is (one line when it fits), in JSON. */
function jsonLines(v: unknown): string[] {
  return new Printer("ts", true).print(value(v), 0).split("\n");
}
