import { blockNodesOf, listStrings, roleLabel, someString } from "../../authorization/blockNodes";
import { CappedReporter } from "../common/cappedReporter";
import { KNOWN_RESOURCE_KEYS, targetNoun } from "../../authorization/rbac";
import { removeElements, replaceWith, type ModelFix } from "../../fixOperations";
import { spanOf } from "../../config/parse";
import type { Check } from "../check";

/**
 * deerflow-authorization.md "Things DeerFlow silently accepts" 2 and A.2 #21: only the string `"*"` (or `true`) is
 * "everything"; inside an `allow`/`deny` list `"*"` is compared as a name, exactly, like any other entry.
 */
export const authzLiteralStar: Check = {
  code: "authz-literal-star",
  severity: "warning",
  summary: '`"*"` inside an allow/deny list is a literal name, not a wildcard.',
  run(context) {
    const block = blockNodesOf(context.model.authorization);
    if (!block) return;
    const out = new CappedReporter(context, block, '"*" list entries');
    for (const policy of block.policies) {
      if (!KNOWN_RESOURCE_KEYS.includes(policy.resourceKey)) continue; // authz-resource-unknown covers the rest
      for (const side of ["allow", "deny"] as const) {
        const listNode = side === "allow" ? policy.allowNode : policy.denyNode;
        if (!someString(listNode, (v) => v === "*")) continue;
        const items = listStrings(listNode);
        const stars = items.filter((i) => i.value === "*");
        if (stars.length === 0) continue;
        const others = new Set(items.filter((i) => i.value !== "*").map((i) => i.value));
        // Each finding is built only when it is shown (a role map can repeat this mistake thousands of times).
        const starFinding = (star: (typeof stars)[number]) => {
          const noun = targetNoun(policy.resourceKey);
          const who = roleLabel(policy.role);
          let detail: string;
          const fixes: ModelFix[] = [];
          if (side === "allow") {
            detail =
              others.size === 0
                ? `"*" inside a list is a literal name, not a wildcard: DeerFlow matches names exactly, so this allows only a ${noun} named "*" (there is none) and ${who} may use no ${noun} at all. Write "allow": "*" to allow every ${noun}.`
                : `"*" inside a list is a literal name, not a wildcard: DeerFlow matches names exactly, so this entry matches nothing and ${who} may use only the other ${others.size} listed. Write "allow": "*" to allow every ${noun}.`;
            fixes.push({ title: 'Allow everything: "allow": "*"', operations: [replaceWith(listNode!, "*")], safe: false });
          } else {
            detail = `"*" inside a deny list is a literal name, not a wildcard: it denies only a ${noun} named "*" (there is none), so it denies nothing. To deny every ${noun}, write "allow": false.`;
          }
          if (items.length > 1 || side === "deny") {
            fixes.push({ title: 'Remove the "*" entry', operations: [removeElements(listNode!, star.node)], safe: false });
          }
          const message = `"*" inside ${side === "allow" ? "an allow" : "a deny"} list is a literal ${noun} name, not a wildcard.`;
          return { message, detail, span: spanOf(star.node), fixes };
        };
        for (const star of stars) out.report(() => starFinding(star));
      }
    }
    out.finish();
  },
};
