import type { BackendSpec, ConfigModel, MiddlewareSpec, SubagentSpec } from "../config/model";
import type { BackendShape, FilesystemAllowlist } from "../runtime/runtime";
import { FILESYSTEM_TOOLS } from "../runtime/runtime";
import { filesystemMiddlewareOf, middlewareLabel, type AgentRef } from "./agents";

/** `createDeepAgent`'s default backend, and a custom filesystem middleware's: `(config) => new StateBackend(config)`. */
export const STATE_FACTORY: BackendShape = { type: "state", factory: true, routes: [] };

/** The backend an agent's filesystem tools run against, and where it comes from. */
export interface AgentBackend {
  /** The backend as written, or `undefined` when a default state backend factory is used. */
  spec: BackendSpec | undefined;
  shape: BackendShape;
  /**
   * `agent`: the top-level `backend`; `default`: `backend` omitted, so createDeepAgent's state factory;
   * `middleware`: a custom filesystem middleware's own `backend`; `middleware-default`: a custom filesystem
   * middleware without `backend`, which falls back to its own state backend (docs/reference/tools-and-backends.md).
   */
  origin: "agent" | "default" | "middleware" | "middleware-default";
  middleware?: MiddlewareSpec;
}

/** The filesystem middleware an agent uses, with everything that decides its tools. */
export interface AgentFilesystem {
  custom: MiddlewareSpec | undefined;
  inherited: boolean;
  backend: AgentBackend;
  allowlist: FilesystemAllowlist;
}

const ALL_TOOLS: FilesystemAllowlist = { all: true, tools: FILESYSTEM_TOOLS };

export function agentFilesystem(model: ConfigModel, agent: AgentRef): AgentFilesystem {
  const use = filesystemMiddlewareOf(model, agent);
  if (use.custom) {
    const m = use.custom;
    const backend: AgentBackend = m.backend
      ? { spec: m.backend, shape: m.backend, origin: "middleware", middleware: m }
      : { spec: undefined, shape: STATE_FACTORY, origin: "middleware-default", middleware: m };
    return { custom: m, inherited: use.inherited, backend, allowlist: model.runtime.normalizeFilesystemTools(m.tools?.value) };
  }
  // The default filesystem middleware: every subagent's default is built with the agent's `backend` too (docs/reference/subagents.md).
  return { custom: undefined, inherited: false, backend: topLevelBackend(model), allowlist: ALL_TOOLS };
}

export function topLevelBackend(model: ConfigModel): AgentBackend {
  return model.backend ? { spec: model.backend, shape: model.backend, origin: "agent" } : { spec: undefined, shape: STATE_FACTORY, origin: "default" };
}

/** A backend in a few words: "store", "sandbox (daytona)", "a composite whose default is store". */
export function describeBackendShape(shape: BackendShape, provider?: string, name?: string): string {
  switch (shape.type) {
    case "sandbox":
      return `sandbox${provider ? ` (${provider})` : ""}${shape.factory ? " given as a factory" : ""}`;
    case "composite": {
      const def = shape.default ? describeBackendShape(shape.default, providerOf(shape.default), nameOf(shape.default)) : "missing";
      return `a composite whose default is ${def}`;
    }
    case "custom":
      return `custom backend ${JSON.stringify(name ?? "")}`;
    case undefined:
      return "a backend of unknown type";
    default:
      return shape.type;
  }
}

function providerOf(shape: BackendShape): string | undefined {
  return (shape as Partial<BackendSpec>).provider;
}
function nameOf(shape: BackendShape): string | undefined {
  return (shape as Partial<BackendSpec>).name;
}

/** The agent's backend in words, with where it comes from. */
export function describeAgentBackend(model: ConfigModel, backend: AgentBackend): string {
  switch (backend.origin) {
    case "default":
      return 'the default state backend ("backend" is omitted)';
    case "middleware-default":
      return `its own state backend (${middlewareLabel(model, backend.middleware!)} has no "backend", so it falls back to one)`;
    default:
      return describeBackendShape(backend.shape, providerOf(backend.shape), nameOf(backend.shape));
  }
}

/** Why `execute` or `delete` is not available on this backend, in a sentence. */
export function capabilityReason(model: ConfigModel, tool: "execute" | "delete", backend: AgentBackend): string {
  const where = describeAgentBackend(model, backend);
  if (tool === "execute") {
    const sandboxRoute = backend.shape.type === "composite" ? backend.shape.routes.find((r) => model.runtime.canExecute(r.backend)) : undefined;
    const routeNote = sandboxRoute ? ` (a sandbox mounted at the route ${JSON.stringify(sandboxRoute.prefix)} does not count: only the default decides)` : "";
    const customNote = backend.shape.type === "custom" ? " (it does not declare `execute`)" : "";
    return `execute needs a sandbox backend; this agent's backend is ${where}${customNote}${routeNote}`;
  }
  return `delete needs a backend that deletes; this agent's backend is ${where} (it does not declare \`delete\`)`;
}

/** Every `{ "type": "filesystem" }` middleware entry in the file, top level first, with the backend its tools use. */
export function allFilesystemMiddleware(model: ConfigModel): { middleware: MiddlewareSpec; subagent?: SubagentSpec; backend: AgentBackend }[] {
  const out: { middleware: MiddlewareSpec; subagent?: SubagentSpec; backend: AgentBackend }[] = [];
  const add = (list: readonly MiddlewareSpec[], subagent?: SubagentSpec) => {
    for (const m of list) {
      if (m.type !== "filesystem") continue;
      const backend: AgentBackend = m.backend
        ? { spec: m.backend, shape: m.backend, origin: "middleware", middleware: m }
        : { spec: undefined, shape: STATE_FACTORY, origin: "middleware-default", middleware: m };
      out.push(subagent ? { middleware: m, subagent, backend } : { middleware: m, backend });
    }
  };
  add(model.middleware);
  for (const s of model.subagents) add(s.middleware, s);
  return out;
}

/** Every backend object in the file (top level, middleware backends, composite defaults and routes), outermost first. */
export function allBackends(model: ConfigModel): BackendSpec[] {
  const out: BackendSpec[] = [];
  const walk = (b: BackendSpec | undefined) => {
    if (!b) return;
    out.push(b);
    walk(b.default);
    for (const r of b.routes) walk(r.backend);
  };
  walk(model.backend);
  for (const { middleware } of allFilesystemMiddleware(model)) walk(middleware.backend);
  return out;
}
