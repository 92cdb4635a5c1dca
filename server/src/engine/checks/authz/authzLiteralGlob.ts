import { agentToolNames } from "../../authorization/agentTools";
import { blockNodesOf, listStrings, someString } from "../../authorization/blockNodes";
import { CappedReporter } from "../common/cappedReporter";
import { KNOWN_RESOURCE_KEYS, targetNoun } from "../../authorization/rbac";
import { spanOf } from "../../config/parse";
import type { Check } from "../check";
import { replaceElement, type ModelFix } from "../../fixOperations";

const GLOB_CHARS = /[*?[]/;
const MAX_NAMED = 5;

/**
 * deerflow-authorization.md "Things DeerFlow silently accepts" 3 and A.2 #22: targets are compared by exact,
 * case-sensitive set membership (rbac.py L60–66). `github_*`, `read_?ile`, `[rw]*` are names, not patterns.
 * A lone `"*"` is `authz-literal-star`'s.
 */
export const authzLiteralGlob: Check = {
  code: "authz-literal-glob",
  severity: "warning",
  summary: "`*`, `?` or `[` in an allow/deny target: DeerFlow matches names exactly, with no globbing.",
  run(context) {
    const block = blockNodesOf(context.model.authorization);
    if (!block) return;
    let tools: string[] | undefined;
    const out = new CappedReporter(context, block, "glob-like entries");
    for (const policy of block.policies) {
      if (!KNOWN_RESOURCE_KEYS.includes(policy.resourceKey)) continue; // authz-resource-unknown covers the rest
      for (const side of ["allow", "deny"] as const) {
        const listNode = side === "allow" ? policy.allowNode : policy.denyNode;
        if (!someString(listNode, (v) => v !== "*" && GLOB_CHARS.test(v))) continue;
        const items = listStrings(listNode);
        for (const item of items) {
          if (item.value === "*" || !GLOB_CHARS.test(item.value)) continue;
          out.report(() => {
            const noun = targetNoun(policy.resourceKey);
            let matching: string[] = [];
            if (policy.resourceKey === "tools") {
              tools ??= [...agentToolNames(context.model)].sort();
              const re = globToRegExp(item.value);
              matching = re ? tools.filter((t) => re.test(t)) : [];
            }
            const verb = side === "allow" ? "allows" : "denies";
            const named = matching.slice(0, MAX_NAMED).map((m) => `"${m}"`).join(", ") + (matching.length > MAX_NAMED ? `, and ${matching.length - MAX_NAMED} more` : "");
            const notMatched = matching.length > 0 ? ` It does not match ${named}.` : "";
            const fixes: ModelFix[] = [];
            const listed = new Set(items.map((i) => i.value));
            const toAdd = matching.filter((m) => !listed.has(m));
            if (toAdd.length > 0 && toAdd.length <= 50) {
              fixes.push({
                title: `Replace with the ${toAdd.length === 1 ? "tool" : `${toAdd.length} tools`} it was meant to match: ${toAdd.join(", ")}`,
                operations: [replaceElement(listNode!, item.node, toAdd)],
                safe: false,
              });
            }
            return {
              message: `${JSON.stringify(item.value)} is a literal ${noun} name: DeerFlow does not expand globs.`,
              detail: `DeerFlow matches ${noun} names exactly (no globs, prefixes or regular expressions): ${JSON.stringify(item.value)} is a literal name, so this entry ${verb} only a ${noun} named exactly ${JSON.stringify(item.value)}.${notMatched}`,
              span: spanOf(item.node),
              fixes,
            };
          });
        }
      }
    }
    out.finish();
  },
};

/** fnmatch-style reading of the entry (what the user most likely meant), to name the tools it does not match. */
function globToRegExp(glob: string): RegExp | undefined {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === "*") re += ".*";
    else if (ch === "?") re += ".";
    else if (ch === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) {
        re += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      re += `[${negate ? "^" : ""}${body.replace(/[\\\]^]/g, (c) => (c === "-" ? c : "\\" + c))}]`;
      i = close;
    } else re += ch.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  try {
    return new RegExp(`^${re}$`, "u");
  } catch {
    return undefined;
  }
}
