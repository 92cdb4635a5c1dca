import { rbacPolicyOf, type RbacPolicy } from "../authorization/rbac";
import type { ConfigModel, Located } from "../config/model";
import type { JsonNode } from "../config/parse";
import { FILESYSTEM_TOOLS } from "../runtime/runtime";
import { findAgent, isForked, middlewareLabel, type AgentRef } from "./agents";
import { agentFilesystem, capabilityReason, type AgentFilesystem } from "./backends";
import { SKILL_FRAMEWORK_TOOLS } from "./skills";
import { memo } from "../caches";

export type ToolKind = "filesystem" | "user" | "task";
export type HiddenBy = "allowlist" | "backend" | "authorization" | "skill";

/** One candidate tool of one agent, as `agent-sandbox tools` prints it (cli.md). */
export interface EffectiveTool {
  name: string;
  visible: boolean;
  kind: ToolKind;
  /** The first step of config-format.md "The effective tool set" that removed it. */
  hiddenBy?: HiddenBy;
  /** A sentence a person can read. */
  reason?: string;
}

export interface EffectiveToolsOptions {
  /** An active skill: only its `allowed-tools` (plus DeerFlow's framework tools) stay visible. */
  activeSkill?: { name: string; allowedTools: readonly string[] };
}

/**
 * The tools the model would see for one agent (`main`, `general-purpose`, or a subagent's name) and one role
 * (`null`: no authorization), with the reason for each hidden one. `undefined` when there is no such agent.
 *
 *   candidates: the 8 filesystem tools (canonical order), the agent's user tools (a user tool named like a built-in
 *               one is listed as a tool of its own: it collides), `task` (the main agent always:
 *               the general-purpose subagent always exists, docs/reference/subagents.md; a forked subagent carries it too, docs/reference/subagents.md S5)
 *   ∩ allowlist of the filesystem middleware that applies to this agent (docs/reference/tools-and-backends.md, docs/reference/subagents.md)
 *   ∩ backend capability (docs/reference/tools-and-backends.md: `execute` needs a sandbox, `delete` a backend that deletes)
 *   ∩ role permission (DeerFlow RBAC, deny wins; `null` role: no authorization step)
 *   ∩ active skill `allowed-tools` (+ DeerFlow's framework tools)
 */
export function effectiveTools(model: ConfigModel, agentName: string, role: string | null = null, options: EffectiveToolsOptions = {}): EffectiveTool[] | undefined {
  const agent = findAgent(model, agentName);
  return agent ? effectiveToolsOf(model, agent, role, options) : undefined;
}

/** The same, for an agent already resolved (checks walk thousands of subagents without looking names up). */
export function effectiveToolsOf(model: ConfigModel, agent: AgentRef, role: string | null = null, options: EffectiveToolsOptions = {}, policy?: RbacPolicy | null): EffectiveTool[] {
  const runtime = model.runtime;
  const fs = agentFilesystem(model, agent);
  const canExecute = runtime.canExecute(fs.backend.shape);
  const canDelete = runtime.canDelete(fs.backend.shape);
  const tools: EffectiveTool[] = [];

  for (const name of FILESYSTEM_TOOLS) {
    // A middleware the runtime refuses registers nothing, whatever names its `tools` held (docs/reference/tools-and-backends.md: `["ls"]` throws).
    if (fs.allowlist.error || !fs.allowlist.tools.includes(name)) {
      tools.push({ name, visible: false, kind: "filesystem", hiddenBy: "allowlist", reason: allowlistReason(model, agent, fs) });
    } else if (fs.backend.spec?.factory && runtime.backendFactoryRefusal) {
      // deepagents-py refuses the middleware itself (backend-factory-unsupported): none of its tools exists.
      tools.push({ name, visible: false, kind: "filesystem", hiddenBy: "backend", reason: `not registered: ${runtime.label} refuses a backend given as a factory when it builds the filesystem middleware (${runtime.backendFactoryRefusal.split(". ")[0]})` });
    } else if (name === "execute" && !canExecute) {
      tools.push({ name, visible: false, kind: "filesystem", hiddenBy: "backend", reason: capabilityReason(model, "execute", fs.backend) });
    } else if (name === "delete" && !canDelete) {
      tools.push({ name, visible: false, kind: "filesystem", hiddenBy: "backend", reason: capabilityReason(model, "delete", fs.backend) });
    } else tools.push({ name, visible: true, kind: "filesystem" });
  }

  const filterByName = runtime.capabilityFilterByName;
  const seen = new Set<string>();
  for (const { value: name } of userToolsOf(model, agent)) {
    if (name === "" || seen.has(name)) continue;
    seen.add(name);
    // A user tool named like a built-in one is a collision (tool-name-collision reports it); it is still a tool
    // of its own, and the capability filter goes by name (docs/reference/tools-and-backends.md, A6): `execute` always, `delete` in Python only.
    if (name === "execute" && filterByName.execute && !canExecute) {
      tools.push({ name, visible: false, kind: "user", hiddenBy: "backend", reason: `${capabilityReason(model, "execute", fs.backend)}; the runtime removes every tool named execute, this user tool too` });
    } else if (name === "delete" && filterByName.delete && !canDelete) {
      tools.push({ name, visible: false, kind: "user", hiddenBy: "backend", reason: `${capabilityReason(model, "delete", fs.backend)}; ${runtime.label} removes every tool named delete, this user tool too` });
    } else tools.push({ name, visible: true, kind: "user" });
  }
  if (hasTask(model, agent)) tools.push({ name: "task", visible: true, kind: "task" });

  const activePolicy = policy === undefined ? policyOf(model) : policy ?? undefined;
  if (activePolicy) {
    // No role is not "no authorization": DeerFlow gives a request without a role the default role
    // (deerflow-authorization.md A.1.1, `default_role`; principal.py L50–52), and `decideTool` does the same.
    // DeerFlow's own message (`role 'guest' is denied 'write_file' on resource 'tool'`) names the role and the
    // tool, which the reason's reader already has: a plain denial is said once, in words that do not depend on
    // the tool, so that a table can list the tools one role is denied under one reason. Any other outcome (the
    // provider failing closed) keeps DeerFlow's message.
    const who = role === null || role === "" ? `the default role ${JSON.stringify(activePolicy.defaultRole)}, which a request with no role gets` : `role ${JSON.stringify(role)}`;
    for (const tool of tools) {
      if (!tool.visible) continue;
      const decision = activePolicy.decideTool(role, tool.name);
      if (decision.allowed) continue;
      hide(tool, "authorization", `denied by DeerFlow's authorization to ${who}${decision.reasonCode === "authz.denied" ? "" : `: ${decision.message}`}`);
    }
  }
  const skill = options.activeSkill;
  if (skill) {
    const allowed = new Set([...skill.allowedTools, ...SKILL_FRAMEWORK_TOOLS]);
    for (const tool of tools) {
      if (tool.visible && !allowed.has(tool.name)) hide(tool, "skill", `the active skill ${JSON.stringify(skill.name)} does not list it in allowed-tools`);
    }
  }
  return tools;
}

/**
 * The compiled policy of each parsed `authorization` node (`null`: absent or disabled). Compiling walks every
 * role; `agent-sandbox tools` asks once per agent and role, which with 10,000 roles was 10,000 compilations.
 */
const policies = memo<JsonNode, RbacPolicy | null>("agents/effectiveTools.rbacPolicy");

/** The RBAC policy of the config's `authorization` block (`undefined` when absent or disabled). */
export function policyOf(model: ConfigModel): RbacPolicy | undefined {
  const node = model.authorization;
  if (!node) return undefined;
  let policy = policies.get(node);
  if (policy === undefined) {
    // The node itself, not a copy of it as a JavaScript object: no copy of a large role map, and a role named
    // `__proto__` stays a role (a plain object would take it as its prototype).
    policy = rbacPolicyOf(node) ?? null;
    policies.set(node, policy);
  }
  return policy ?? undefined;
}

function hide(tool: EffectiveTool, by: HiddenBy, reason: string): void {
  tool.visible = false;
  tool.hiddenBy = by;
  tool.reason = reason;
}

/**
 * What of an agent's filesystem middleware the runtime refuses when it builds the agent (`undefined`: nothing):
 * the same two conditions that hide every filesystem tool in `effectiveToolsOf`. The runtime then throws, so
 * the agent's other tools are the tools it would have once the refusal is mended, not tools it has.
 */
export function filesystemRefusal(model: ConfigModel, agent: AgentRef): string | undefined {
  const fs = agentFilesystem(model, agent);
  if (fs.allowlist.error && fs.custom) return `${model.runtime.label} refuses ${middlewareLabel(model, fs.custom)}`;
  if (fs.backend.spec?.factory && model.runtime.backendFactoryRefusal) return `${model.runtime.label} refuses a backend given as a factory`;
  return undefined;
}

/** User tools: the top-level `tools` for the main and general-purpose agents; a subagent's own, else the parent's. */
export function userToolsOf(model: ConfigModel, agent: AgentRef): readonly Located<string>[] {
  if (agent.kind === "subagent" && agent.spec.tools) return agent.spec.tools;
  return model.tools;
}

/** `task`: the main agent always (docs/reference/subagents.md); a forked subagent carries a mirrored one (docs/reference/subagents.md S5); nobody else. */
export function hasTask(model: ConfigModel, agent: AgentRef): boolean {
  return agent.kind === "main" || (agent.kind === "subagent" && isForked(model, agent.spec));
}

/** Why the middleware's allowlist hides a filesystem tool, in words that do not depend on the tool (tables group tools by reason). */
function allowlistReason(model: ConfigModel, agent: AgentRef, fs: AgentFilesystem): string {
  const m = fs.custom!;
  const label = middlewareLabel(model, m);
  const whose = fs.inherited ? `the parent's custom filesystem middleware (${label}), which ${agent.kind === "general-purpose" ? "the general-purpose subagent inherits by name" : "a forked subagent inherits"}` : `the custom filesystem middleware (${label})`;
  if (fs.allowlist.error) return `not registered: ${model.runtime.label} refuses ${whose}: ${fs.allowlist.error.message}`;
  return `not in the tools allowlist of ${whose}`;
}
