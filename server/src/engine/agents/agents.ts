import type { ConfigModel, MiddlewareSpec, RuleListSpec, SubagentSpec } from "../config/model";
import type { JsonNode } from "../config/parse";
import { memo } from "../caches";

/** The agents a config defines: the main agent, the general-purpose subagent (unless replaced), each subagent. */
export type AgentRef =
  | { kind: "main"; name: "main" }
  | { kind: "general-purpose"; name: "general-purpose" }
  | { kind: "subagent"; name: string; spec: SubagentSpec };

export const GENERAL_PURPOSE = "general-purpose";

export function agentsOf(model: ConfigModel): AgentRef[] {
  const agents: AgentRef[] = [{ kind: "main", name: "main" }];
  // A declared subagent named "general-purpose" replaces the built-in one (docs/reference/subagents.md).
  if (!model.subagents.some((s) => s.name === GENERAL_PURPOSE)) agents.push({ kind: "general-purpose", name: GENERAL_PURPOSE });
  for (const spec of model.subagents) if (spec.name !== undefined) agents.push({ kind: "subagent", name: spec.name, spec });
  return agents;
}

/**
 * The first agent of each name, per model: the CLI's `tools` and the editor ask for one agent after another, and a
 * scan of a 10,000-entry subagent list per question made that quadratic. A model is not changed after
 * `buildModel`; the index is still rebuilt if its subagent list was replaced or grew.
 */
const agentIndexes = memo<ConfigModel, { subagents: readonly SubagentSpec[]; count: number; byName: Map<string, AgentRef> }>("agents/agents.agentIndex");

/** The agent of that name (the first one when a name is repeated, as a scan in file order finds it). */
export function findAgent(model: ConfigModel, name: string): AgentRef | undefined {
  let index = agentIndexes.get(model);
  if (!index || index.subagents !== model.subagents || index.count !== model.subagents.length) {
    const byName = new Map<string, AgentRef>();
    for (const a of agentsOf(model)) if (!byName.has(a.name)) byName.set(a.name, a);
    index = { subagents: model.subagents, count: model.subagents.length, byName };
    agentIndexes.set(model, index);
  }
  return index.byName.get(name);
}

/** Where an agent's rules come from, in the CLI's words (`explain`'s `source`). */
export type RuleSource = "top-level" | "subagent" | "middleware" | "inherited" | "none";

export interface AgentRules {
  /** `undefined` when no rule list applies: the agent is unrestricted. */
  list: RuleListSpec | undefined;
  source: RuleSource;
  /** A sentence a person can read: why these rules (or none) apply. */
  why: string;
}

/** The custom filesystem middleware that replaces the default one in a middleware list (the last one wins, docs/reference/tools-and-backends.md). */
export function customFilesystemMiddleware(list: readonly MiddlewareSpec[]): MiddlewareSpec | undefined {
  return list.filter((m) => m.type === "filesystem").at(-1);
}

/** Which filesystem middleware builds an agent's filesystem tools (docs/reference/tools-and-backends.md, docs/reference/subagents.md). */
export interface FilesystemMiddlewareUse {
  /** The custom middleware that replaced the default one by name, or `undefined` for the default one. */
  custom: MiddlewareSpec | undefined;
  /** The custom middleware is the parent's (general-purpose by name; forked subagents in deepagents-js 1.14.1). */
  inherited: boolean;
}

/**
 * Which filesystem middleware an agent ends up with after the runtime merges middleware by name:
 * - main: the last custom filesystem middleware of the top-level list, else the default;
 * - general-purpose: the parent's custom one replaces its default slot (`mergeMiddlewareStack(gp, custom, [],
 *   {appendNew:false})`, docs/reference/subagents.md);
 * - a forked subagent (JS): `mergeMiddleware(parentCustom, own)` then by name into its defaults, so its own custom
 *   filesystem middleware wins, else the parent's (dist `buildSubagentMiddleware`, docs/reference/subagents.md);
 * - a declarative subagent: only its own.
 */
export function filesystemMiddlewareOf(model: ConfigModel, agent: AgentRef): FilesystemMiddlewareUse {
  const parentCustom = customFilesystemMiddleware(model.middleware);
  if (agent.kind === "main") return { custom: parentCustom, inherited: false };
  if (agent.kind === "general-purpose") return { custom: parentCustom, inherited: parentCustom !== undefined };
  const own = customFilesystemMiddleware(agent.spec.middleware);
  if (own) return { custom: own, inherited: false };
  if (isForked(model, agent.spec) && parentCustom) return { custom: parentCustom, inherited: true };
  return { custom: undefined, inherited: false };
}

/** `mode: "fork"` under a runtime that has forked subagents (deepagents-js ≥ 1.14). */
export function isForked(model: ConfigModel, spec: SubagentSpec): boolean {
  return model.runtime.forkedSubagents && spec.mode === "fork";
}

/** Human words for a middleware's place in the file: "middleware #0", "middleware #1 of subagent \"auditor\"". */
export function middlewareLabel(_model: ConfigModel, m: MiddlewareSpec): string {
  return m.topLevel ? `middleware #${m.index}` : `middleware #${m.index} of subagent ${JSON.stringify(m.agent)}`;
}

/**
 * The rule list a subagent's *default* filesystem middleware is built with: `input.permissions ?? permissions` in
 * JS, `spec.get("permissions", permissions)` in Python (docs/reference/subagents.md). Also what its own custom middleware drops.
 */
export function subagentDefaultRules(model: ConfigModel, spec: SubagentSpec): AgentRules {
  const topLevel = model.permissions;
  const inheritTopLevel = (why: string): AgentRules =>
    topLevel && topLevel.rules.length > 0 ? { list: topLevel, source: "inherited", why } : { list: undefined, source: "none", why: `${why}; there are none` };
  const p = spec.permissions;
  if (p.kind === "omitted") return inheritTopLevel("`permissions` is omitted, so it inherits the top-level permissions");
  if (p.kind === "null") {
    return model.runtime.nullSubagentPermissions === "inherit"
      ? inheritTopLevel(`\`permissions: null\` inherits in ${model.runtime.id} (\`??\` treats null as missing)`)
      : { list: undefined, source: "none", why: `\`permissions: null\` means unrestricted in ${model.runtime.id}` };
  }
  return p.list.rules.length > 0
    ? { list: p.list, source: "subagent", why: "its own `permissions` replace the parent's" }
    : { list: undefined, source: "none", why: "`permissions: []` makes it unrestricted" };
}

/**
 * Which rule list governs an agent's filesystem tools (docs/reference/tools-and-backends.md, docs/reference/subagents.md). A custom filesystem
 * middleware replaces the default one as a whole object, so its own `permissions` (or none) apply, never the
 * top-level ones.
 */
export function rulesForAgent(model: ConfigModel, agent: AgentRef): AgentRules {
  const topLevel = model.permissions;
  const fromMiddleware = (m: MiddlewareSpec, source: RuleSource, why: string): AgentRules =>
    m.permissions && m.permissions.rules.length > 0 ? { list: m.permissions, source, why } : { list: undefined, source: "none", why: `${why}; it has no permissions` };
  const use = filesystemMiddlewareOf(model, agent);
  if (use.custom) {
    const label = middlewareLabel(model, use.custom);
    if (agent.kind === "main") return fromMiddleware(use.custom, "middleware", `the custom filesystem middleware (${label}) replaces the default one`);
    if (agent.kind === "general-purpose") return fromMiddleware(use.custom, "inherited", `it inherits the parent's custom filesystem middleware (${label}) by name`);
    return use.inherited
      ? fromMiddleware(use.custom, "inherited", `a forked subagent inherits the parent's custom filesystem middleware (${label}), which replaces its own default one`)
      : fromMiddleware(use.custom, "middleware", `its own filesystem middleware (${label}) replaces the default one`);
  }
  if (agent.kind === "main") {
    return topLevel && topLevel.rules.length > 0
      ? { list: topLevel, source: "top-level", why: "the top-level permissions" }
      : { list: undefined, source: "none", why: "no permissions are configured" };
  }
  if (agent.kind === "general-purpose") {
    return topLevel && topLevel.rules.length > 0
      ? { list: topLevel, source: "inherited", why: "it inherits the top-level permissions" }
      : { list: undefined, source: "none", why: "it inherits the top-level permissions; there are none" };
  }
  return subagentDefaultRules(model, agent.spec);
}

/** An agent other than the main one, in words: "the general-purpose subagent", "subagent \"auditor\"". */
export function agentLabel(agent: AgentRef): string {
  return agent.kind === "general-purpose" ? "the general-purpose subagent" : `subagent ${JSON.stringify(agent.name)}`;
}

/** Where a finding about the rules an agent is given points: its own `permissions` (or its entry), else `list`'s node. */
export function agentRulesNode(agent: AgentRef, list: RuleListSpec | undefined): JsonNode | undefined {
  if (agent.kind !== "subagent") return list?.node;
  const p = agent.spec.permissions;
  return p.kind === "list" ? p.list.node : p.kind === "null" ? p.node : agent.spec.nameNode ?? agent.spec.node;
}
