import { blockNodesOf, roleLabel } from "../../authorization/blockNodes";
import { CappedReporter } from "../common/cappedReporter";
import { ENFORCED_RESOURCE_KEYS } from "../../authorization/rbac";
import { spanOf } from "../../config/parse";
import type { Check } from "../check";

/**
 * deerflow-authorization.md A.1.5 semantic table and A.2 #3, #5: `allow: false` and `allow: []` deny every target
 * (an empty list is never "unset"). Reported for the resources DeerFlow enforces (tools, models, routes); on the
 * others the policy has no effect (`authz-resource-unenforced`, `authz-resource-unknown`).
 */
export const authzDenyAll: Check = {
  code: "authz-deny-all",
  severity: "information",
  summary: "`allow: false` or `allow: []`: the role may use nothing of that resource.",
  run(context) {
    const block = blockNodesOf(context.model.authorization);
    if (!block) return;
    const out = new CappedReporter(context, block, "deny-all policies");
    for (const policy of block.policies) {
      const node = policy.allowNode;
      if (!node || !ENFORCED_RESOURCE_KEYS.includes(policy.resourceKey)) continue;
      const denyAll = (node.type === "boolean" && node.value === false) || (node.type === "array" && (node.children?.length ?? 0) === 0);
      if (!denyAll) continue;
      // Built only for the findings that are shown (past the cap, a count is all that is said).
      out.report(() => {
        const written = node.type === "boolean" ? "false" : "[]";
        const who = roleLabel(policy.role);
        const effect: Record<string, string> = {
          tools: `${who} may call no tool: DeerFlow removes every tool before the agent is built (Layer 1), framework tools such as task included, and denies any call that gets through (Layer 2).`,
          models: `${who} may use no model: DeerFlow filters every model out, and with fail_closed it refuses the run ("No models are authorized for the current role").`,
          routes: `${who} gets none of the six Gateway route permissions: it cannot read or write threads, nor create, read or cancel runs.`,
        };
        const noun: Record<string, string> = { tools: "every tool", models: "every model", routes: "every Gateway route permission" };
        return {
          message: `"allow": ${written} denies ${who} ${noun[policy.resourceKey]}.`,
          detail: `"allow": ${written} denies everything (an empty list is never "unset"): ${effect[policy.resourceKey]}`,
          span: spanOf(node),
        };
      });
    }
    out.finish();
  },
};
