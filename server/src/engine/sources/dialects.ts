import type { Dialect } from "./toConfig";
import type { Value } from "./values";

/** The backend classes both runtimes export under the same names. */
const BACKENDS_OF_BOTH: Dialect["backends"] = {
    StateBackend: { type: "state" },
    StoreBackend: { type: "store" },
    FilesystemBackend: { type: "filesystem" },
    CompositeBackend: { type: "composite" },
    LocalShellBackend: { type: "sandbox", provider: "local-shell" },
};

/**
 * deepagents-js 1.14.1's names (its `CreateDeepAgentParams`, `FilesystemMiddlewareOptions` and `SubAgent` types,
 * and its exported classes): the sandbox classes it exports are `LocalShellBackend` and `LangSmithSandbox`.
 */
export const DEEPAGENTS_JS: Dialect = {
  top: { permissions: "permissions", tools: "tools", systemPrompt: "systemPrompt", backend: "backend", middleware: "middleware", subagents: "subagents", skills: "skills", name: "name" },
  subagent: { name: "name", description: "description", systemPrompt: "systemPrompt", mode: "mode", tools: "tools", permissions: "permissions", middleware: "middleware", skills: "skills" },
  filesystemMiddleware: { names: ["createFilesystemMiddleware"], tools: "tools", permissions: "permissions", backend: "backend", systemPrompt: "systemPrompt" },
  backends: { ...BACKENDS_OF_BOTH, LangSmithSandbox: { type: "sandbox", provider: "langsmith" } },
  rootDir: "rootDir",
  virtualMode: "virtualMode",
  composite: { default: "default", routes: "routes" },
  // `runnable`: a CompiledSubAgent; `graphId`/`url`: an AsyncSubAgent (run elsewhere).
  compiledSubagentKeys: ["runnable", "graphId", "url"],
  modes: { isolated: "handoff", fork: "fork" },
  toolName(value) {
    // `tool(fn, { name: "web_search", ... })` (LangChain), `new DynamicStructuredTool({ name, ... })`.
    if (value.kind !== "call") return undefined;
    const options = value.callee === "tool" ? value.args[1] : /^(DynamicStructuredTool|DynamicTool)$/.test(value.callee) ? value.args[0] : undefined;
    if (options?.kind !== "object") return undefined;
    const name = options.entries.filter((e) => e.key === "name").at(-1)?.value;
    return name?.kind === "string" ? { name: name.value, span: name.span } : undefined;
  },
  otherMiddleware: (value) => otherMiddleware(value, (m) => m === "langchain" || m.startsWith("@langchain/")),
};

/**
 * deepagents-py 0.7.8's names: `create_deep_agent(model, tools, *, system_prompt=..., ...)`, `FilesystemMiddleware`
 * (whose rules are the private `_permissions`: it has no public `permissions` parameter), `FilesystemPermission`
 * (a dataclass: `operations`, `paths`, `mode`), subagents as dicts.
 */
export const DEEPAGENTS_PY: Dialect = {
  top: { permissions: "permissions", tools: "tools", systemPrompt: "system_prompt", backend: "backend", middleware: "middleware", subagents: "subagents", skills: "skills", name: "name" },
  subagent: { name: "name", description: "description", systemPrompt: "system_prompt", mode: "mode", tools: "tools", permissions: "permissions", middleware: "middleware", skills: "skills" },
  filesystemMiddleware: { names: ["FilesystemMiddleware"], tools: "tools", permissions: "_permissions", backend: "backend", systemPrompt: "system_prompt" },
  rule: { names: ["FilesystemPermission"], positional: ["operations", "paths", "mode"] },
  backends: BACKENDS_OF_BOTH,
  rootDir: "root_dir",
  virtualMode: "virtual_mode",
  composite: { default: "default", routes: "routes" },
  compiledSubagentKeys: ["runnable", "graph_id", "url"],
  modes: {},
  toolName(value) {
    // `@tool def web_search(...)`, `@tool("web_search")`, `StructuredTool.from_function(fn, name="web_search")`.
    if (value.kind === "function") {
      for (const decorator of value.decorators) {
        const named = /^tool\s*\(\s*(?:name\s*=\s*)?["']([^"']+)["']/.exec(decorator);
        if (named) return { name: named[1]!, span: value.span };
        if (/^tool\b/.test(decorator)) return { name: value.name, span: value.span };
      }
      return undefined;
    }
    if (value.kind === "call" && /(^|\.)from_function$/.test(value.callee)) {
      const name = value.keywords.filter((e) => e.key === "name").at(-1)?.value;
      return name?.kind === "string" ? { name: name.value, span: name.span } : undefined;
    }
    return undefined;
  },
  otherMiddleware: (value) => otherMiddleware(value, (m) => m === "langchain" || m.startsWith("langchain.") || m.startsWith("langchain_")),
};

/**
 * A middleware known not to replace the filesystem one: the runtime's other middleware, or one from LangChain's
 * own packages. Anything else may be a filesystem middleware in disguise, so it is dynamic.
 */
function otherMiddleware(value: Value, langchain: (module: string) => boolean): string | undefined {
  if (value.kind !== "call") return undefined;
  if (value.runtime) return /Middleware$/i.test(value.runtime) ? value.runtime : undefined;
  return value.module && langchain(value.module) ? value.callee : undefined;
}
