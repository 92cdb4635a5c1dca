import type { ConfigModel, MiddlewareSpec, RuleListSpec } from "../config/model";
import type { JsonNode } from "../config/parse";
import type { FilesystemAllowlist } from "../runtime/runtime";
import { FILESYSTEM_TOOLS } from "../runtime/runtime";
import { agentsOf, filesystemMiddlewareOf, GENERAL_PURPOSE, subagentDefaultRules, type AgentRef } from "./agents";
import { STATE_FACTORY, topLevelBackend, type AgentBackend } from "./backends";
import { memo } from "../caches";
import { valueText } from "../text";

/**
 * Every filesystem middleware the runtime *constructs* for a config, whether or not it ends up used: the default
 * one of the main agent, of the general-purpose subagent and of every declarative or forked subagent (each built
 * eagerly, even when a custom one replaces it by name, docs/reference/tools-and-backends.md), and every custom filesystem middleware the user
 * constructs in code (`middleware:` entries, top level and per subagent). Construction is where the runtime
 * validates and refuses (docs/reference/tools-and-backends.md).
 */
export interface FilesystemMiddlewareBuild {
  /** The agents whose stacks build it: "main", "general-purpose", subagent names. */
  builtFor: string[];
  /** `undefined` for a default filesystem middleware. */
  custom: MiddlewareSpec | undefined;
  backend: AgentBackend;
  /** The `permissions` it is given, when there is at least one rule. */
  rules: RuleListSpec | undefined;
  allowlist: FilesystemAllowlist;
  /** For a default one: the custom filesystem middleware that replaces it afterwards (it is still constructed). */
  replacedBy?: MiddlewareSpec;
}

const ALL_TOOLS: FilesystemAllowlist = { all: true, tools: FILESYSTEM_TOOLS };

export function filesystemMiddlewareBuilds(model: ConfigModel): FilesystemMiddlewareBuild[] {
  const builds: FilesystemMiddlewareBuild[] = [];
  const agentBackend = topLevelBackend(model);
  const defaults = new Map<RuleListSpec | undefined, FilesystemMiddlewareBuild>();
  const addDefault = (agent: AgentRef, rules: RuleListSpec | undefined) => {
    // Default middlewares with the same rules and the agent's backend behave identically: one entry.
    let build = defaults.get(rules);
    if (!build) {
      build = { builtFor: [], custom: undefined, backend: agentBackend, rules, allowlist: ALL_TOOLS };
      defaults.set(rules, build);
      builds.push(build);
    }
    build.builtFor.push(agent.name);
    const replacedBy = filesystemMiddlewareOf(model, agent).custom;
    if (replacedBy && !build.replacedBy) build.replacedBy = replacedBy;
  };
  const nonEmpty = (list: RuleListSpec | undefined) => (list && list.rules.length > 0 ? list : undefined);
  for (const agent of agentsOf(model)) {
    if (agent.kind === "subagent") addDefault(agent, subagentDefaultRules(model, agent.spec).list);
    else addDefault(agent, nonEmpty(model.permissions));
  }
  // Subagents without a name are not agents (the schema reports them) but the runtime would still build them.
  const customLists: { middleware: readonly MiddlewareSpec[]; owner: string }[] = [{ middleware: model.middleware, owner: "main" }];
  for (const s of model.subagents) customLists.push({ middleware: s.middleware, owner: s.name ?? `#${s.index}` });
  for (const { middleware, owner } of customLists) {
    for (const m of middleware) {
      if (m.type !== "filesystem") continue;
      const backend: AgentBackend = m.backend
        ? { spec: m.backend, shape: m.backend, origin: "middleware", middleware: m }
        : { spec: undefined, shape: STATE_FACTORY, origin: "middleware-default", middleware: m };
      builds.push({ builtFor: [owner], custom: m, backend, rules: nonEmpty(m.permissions), allowlist: model.runtime.normalizeFilesystemTools(m.tools?.value) });
    }
  }
  return builds;
}

export interface UnscopedPath {
  path: string;
  node: JsonNode;
}

/** What the construction guard does with one filesystem middleware (docs/reference/tools-and-backends.md). */
export interface SandboxGuardOutcome {
  build: FilesystemMiddlewareBuild;
  /** `throws`: the runtime refuses the config; `factory` (JS): no throw, but every `execute` call fails. */
  outcome: "throws" | "factory";
  /** For a composite backend: the permission paths its route-scoping predicate does not accept (docs/reference/routes.md). */
  unscoped: UnscopedPath[];
}

/**
 * The guard for every constructed filesystem middleware that has rules and a backend that can execute. Two checks
 * ask on every run: worked out once per model (frozen: the answer is shared).
 */
export function sandboxGuardOutcomes(model: ConfigModel): readonly SandboxGuardOutcome[] {
  let outcomes = guardOutcomesOf.get(model);
  if (!outcomes) guardOutcomesOf.set(model, (outcomes = Object.freeze(sandboxGuardOutcomesNow(model))));
  return outcomes;
}
const guardOutcomesOf = memo<ConfigModel, readonly SandboxGuardOutcome[]>("agents/construction.sandboxGuardOutcomes");

function sandboxGuardOutcomesNow(model: ConfigModel): SandboxGuardOutcome[] {
  const out: SandboxGuardOutcome[] = [];
  for (const build of filesystemMiddlewareBuilds(model)) {
    const outcome = sandboxGuardOutcome(model, build);
    if (outcome) out.push(outcome);
  }
  return out;
}

export function sandboxGuardOutcome(model: ConfigModel, build: FilesystemMiddlewareBuild): SandboxGuardOutcome | undefined {
  const runtime = model.runtime;
  const guard = runtime.sandboxGuard;
  const { rules, backend } = build;
  if (!rules || rules.rules.length === 0) return undefined;
  if (guard.considersAllowlist && !build.allowlist.tools.includes("execute")) return undefined;
  if (!runtime.canExecute(backend.shape)) return undefined;
  const scoping = routeScoping(model, rules, backend);
  if (scoping.scoped) return undefined;
  // `factory` is a property of the backend handed to the middleware itself, never of one nested in a composite.
  const factory = backend.shape.factory && backend.origin !== "middleware-default" && backend.origin !== "default";
  return { build, outcome: factory && guard.skipsFactories ? "factory" : "throws", unscoped: scoping.unscoped };
}

/**
 * The runtime's route-scoping predicate over a rule list (docs/reference/routes.md): a composite with at least one route, and every
 * path of every rule scoped to some route prefix. A rule with `paths: []` passes vacuously (docs/reference/routes.md).
 */
export function routeScoping(model: ConfigModel, rules: RuleListSpec, backend: AgentBackend): { scoped: boolean; unscoped: UnscopedPath[] } {
  const shape = backend.shape;
  if (shape.type !== "composite") return { scoped: false, unscoped: [] };
  // A composite without routes scopes nothing: every path is reported.
  const prefixes = shape.routes.map((r) => r.prefix);
  const unscoped: UnscopedPath[] = [];
  let scoped = true;
  for (const rule of rules.rules) {
    if (!Array.isArray(rule.input.paths)) {
      scoped = false;
      continue;
    }
    rule.input.paths.forEach((path, i) => {
      if (typeof path === "string" && model.runtime.routeScoped(path, prefixes)) return;
      scoped = false;
      const node = rule.pathNodes[i];
      // Not always a string: error recovery and mistakes leave objects here (`valueText`).
      if (node) unscoped.push({ path: valueText(path), node });
    });
  }
  return { scoped: scoped && prefixes.length > 0, unscoped };
}

/** The agents a build serves, in words: "the main agent and the general-purpose subagent". */
export function describeBuiltFor(builtFor: readonly string[]): string {
  const words = builtFor.map((n) => (n === "main" ? "the main agent" : n === GENERAL_PURPOSE ? "the general-purpose subagent" : `subagent ${JSON.stringify(n)}`));
  if (words.length <= 1) return words[0] ?? "";
  // A config with thousands of subagents must not produce a message of thousands of names.
  if (words.length > 4) return `${words.slice(0, 3).join(", ")} and ${words.length - 3} more agents`;
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}
