import type { ConfigModel, MiddlewareSpec, RuleListSpec, SubagentSpec } from "../config/model";

/** The agents a config defines: the main agent, the general-purpose subagent (unless replaced), each subagent. */
export type AgentRef =
  | { kind: "main"; name: "main" }
  | { kind: "general-purpose"; name: "general-purpose" }
  | { kind: "subagent"; name: string; spec: SubagentSpec };

export const GENERAL_PURPOSE = "general-purpose";

export function agentsOf(model: ConfigModel): AgentRef[] {
  const agents: AgentRef[] = [{ kind: "main", name: "main" }];
  // A declared subagent named "general-purpose" replaces the built-in one (§6.2).
  if (!model.subagents.some((s) => s.name === GENERAL_PURPOSE)) agents.push({ kind: "general-purpose", name: GENERAL_PURPOSE });
  for (const spec of model.subagents) if (spec.name !== undefined) agents.push({ kind: "subagent", name: spec.name, spec });
  return agents;
}

export function findAgent(model: ConfigModel, name: string): AgentRef | undefined {
  return agentsOf(model).find((a) => a.name === name);
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

/** The custom filesystem middleware that replaces the default one in a middleware list (the last one wins, §4.4). */
export function customFilesystemMiddleware(list: readonly MiddlewareSpec[]): MiddlewareSpec | undefined {
  return list.filter((m) => m.type === "filesystem").at(-1);
}

/**
 * Which rule list governs an agent's filesystem tools (§4.4, §6.1, §6.2, §11.4–11.5). A custom filesystem
 * middleware replaces the default one as a whole object, so its own `permissions` (or none) apply, never the
 * top-level ones.
 */
export function rulesForAgent(model: ConfigModel, agent: AgentRef): AgentRules {
  const topLevel = model.permissions;
  const parentCustom = customFilesystemMiddleware(model.middleware);
  const fromMiddleware = (m: MiddlewareSpec, source: RuleSource, why: string): AgentRules =>
    m.permissions && m.permissions.rules.length > 0 ? { list: m.permissions, source, why } : { list: undefined, source: "none", why: `${why}; it has no permissions` };
  const inheritTopLevel = (why: string): AgentRules =>
    topLevel && topLevel.rules.length > 0 ? { list: topLevel, source: "inherited", why } : { list: undefined, source: "none", why: `${why}; there are none` };

  if (agent.kind === "main") {
    if (parentCustom) return fromMiddleware(parentCustom, "middleware", `the custom filesystem middleware (middleware #${parentCustom.index}) replaces the default one`);
    return topLevel && topLevel.rules.length > 0
      ? { list: topLevel, source: "top-level", why: "the top-level permissions" }
      : { list: undefined, source: "none", why: "no permissions are configured" };
  }
  if (agent.kind === "general-purpose") {
    // The general-purpose subagent inherits same-name custom middleware (§6.2, §11.5).
    if (parentCustom) return fromMiddleware(parentCustom, "inherited", `it inherits the parent's custom filesystem middleware (middleware #${parentCustom.index}) by name`);
    return inheritTopLevel("it inherits the top-level permissions");
  }
  const spec = agent.spec;
  const own = customFilesystemMiddleware(spec.middleware);
  if (model.runtime.id === "deepagents-js" && spec.mode === "fork" && parentCustom) {
    // 1.14.1 merges the parent's custom middleware into forked subagents, replacing the fork's own (§11.4).
    return fromMiddleware(parentCustom, "inherited", `a forked subagent inherits the parent's custom filesystem middleware (middleware #${parentCustom.index}), which replaces its own`);
  }
  if (own) return fromMiddleware(own, "middleware", `its own filesystem middleware (middleware #${own.index}) replaces the default one`);
  const p = spec.permissions;
  if (p.kind === "omitted") return inheritTopLevel("`permissions` is omitted, so it inherits the top-level permissions");
  if (p.kind === "null") {
    return model.runtime.id === "deepagents-js"
      ? inheritTopLevel("`permissions: null` inherits in deepagents-js (`??` treats null as missing)")
      : { list: undefined, source: "none", why: "`permissions: null` means unrestricted in deepagents-py" };
  }
  return p.list.rules.length > 0
    ? { list: p.list, source: "subagent", why: "its own `permissions` replace the parent's" }
    : { list: undefined, source: "none", why: "`permissions: []` makes it unrestricted" };
}
