import { blockNodesOf, roleLabel } from "../../authorization/blockNodes";
import { CappedReporter } from "../common/cappedReporter";
import { KNOWN_RESOURCE_KEYS, RESOURCE_POLICY_KEYS, targetNoun, UNENFORCED_RESOURCE_KEYS } from "../../authorization/rbac";
import { spanOf } from "../../config/parse";
import { closeName } from "../../authorization/suggest";
import type { Check } from "../check";
import { renameKey } from "../../fixOperations";

/**
 * deerflow-authorization.md "Things DeerFlow silently accepts" 1: a resource key no consumer reads (`tols:`) is
 * stored under that name and never looked up, so the resource the user meant stays unrestricted (`authz.no_policy`,
 * A.2 #24). Only the singular aliases (`tool:`) are rejected, by `authz-invalid`.
 */
export const authzResourceUnknown: Check = {
  code: "authz-resource-unknown",
  severity: "warning",
  summary: "A resource key no DeerFlow consumer reads (`tols:`): that resource stays unrestricted.",
  run(context) {
    const block = blockNodesOf(context.model.authorization);
    if (!block) return;
    const out = new CappedReporter(context, block, "unknown resource keys");
    for (const role of block.roles) {
      for (const resource of role.resources) {
        const key = resource.key;
        if (key === "" || KNOWN_RESOURCE_KEYS.includes(key) || RESOURCE_POLICY_KEYS.has(key)) continue;
        out.report(() => {
          const present = new Set(role.resources.map((r) => r.key));
          const suggestion = closeName(key, KNOWN_RESOURCE_KEYS);
          let meant = "";
          if (suggestion && present.has(suggestion)) {
            meant = ` Did you mean "${suggestion}"? (${roleLabel(role.role)} also has a "${suggestion}" policy; that one is used.)`;
          } else if (suggestion) {
            const unenforced = UNENFORCED_RESOURCE_KEYS.includes(suggestion) ? " (which DeerFlow does not enforce yet either)" : "";
            meant = ` Did you mean "${suggestion}"${unenforced}? As written, ${roleLabel(role.role)} has no "${suggestion}" policy, so every ${targetNoun(suggestion)} stays allowed.`;
          }
          return {
            message: `DeerFlow never looks up the resource key ${JSON.stringify(key)}: this policy restricts nothing.`,
            detail: `Its consumers ask only for tools, models and routes (skills, sandbox and mcp_servers are accepted but unenforced).${meant}`,
            span: spanOf(resource.keyNode),
            fixes:
              suggestion && !present.has(suggestion)
                ? [{ title: `Rename to "${suggestion}"`, operations: [renameKey(resource.keyNode, suggestion)], safe: false }]
                : [],
          };
        });
      }
    }
    out.finish();
  },
};
