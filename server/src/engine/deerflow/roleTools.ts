/**
 * The tools a DeerFlow role keeps (Layer 1, `filter_tools_by_authorization`), for the role hovers of config.yaml:
 * the config's own `tools:` entries and the built-ins every DeerFlow agent gets, each with DeerFlow's decision.
 * MCP tools and the built-ins that depend on other settings (`task`, `view_image`, `skill_manage`, …) are not
 * known from the authorization block and are not listed.
 */
import { filterToolsForRole, rbacPolicyOf } from "../authorization/rbac";
import type { ConfigModel } from "../config/model";

/** The built-ins `get_available_tools` always adds (deerflow-rbac.md, "How the effective tool set is formed"). */
export const ALWAYS_BUILT_IN_TOOLS: readonly string[] = ["present_files", "ask_clarification", "review_skill_package", "list_uploaded_files"];

export interface RoleTool {
  name: string;
  kind: "config" | "built-in";
  visible: boolean;
  /** DeerFlow's reason for a hidden tool (`role 'guest' is denied 'bash' on resource 'tool'`). */
  reason?: string;
}

/** `undefined` when the block is absent or disabled (DeerFlow then filters nothing). */
export function deerFlowRoleTools(model: ConfigModel, role: string): { tools: RoleTool[]; error?: string } | undefined {
  const policy = rbacPolicyOf(model.authorization);
  if (!policy) return undefined;
  const candidates: { name: string; kind: RoleTool["kind"] }[] = [];
  const seen = new Set<string>();
  for (const t of model.tools) if (t.value !== "" && !seen.has(t.value)) candidates.push({ name: t.value, kind: "config" }), seen.add(t.value);
  for (const name of ALWAYS_BUILT_IN_TOOLS) if (!seen.has(name)) candidates.push({ name, kind: "built-in" }), seen.add(name);
  const kept = filterToolsForRole(policy, role, candidates.map((c) => c.name));
  const visible = new Set(kept.tools);
  const tools = candidates.map((c): RoleTool => {
    if (visible.has(c.name)) return { ...c, visible: true };
    const decision = policy.decideTool(role, c.name);
    return { ...c, visible: false, reason: kept.error ?? decision.error ?? decision.message };
  });
  return kept.error ? { tools, error: kept.error } : { tools };
}
