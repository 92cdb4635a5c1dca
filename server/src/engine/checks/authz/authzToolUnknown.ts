import { agentToolNames, DEERFLOW_FRAMEWORK_TOOLS } from "../../authorization/agentTools";
import { blockNodesOf, listStrings, someString } from "../../authorization/blockNodes";
import { CappedReporter } from "../common/cappedReporter";
import { spanOf } from "../../config/parse";
import { closeName } from "../../authorization/suggest";
import type { Check } from "../check";
import { replaceWith } from "../../fixOperations";

const GLOB_CHARS = /[*?[]/;

/**
 * deerflow-authorization.md A.2 #23 and rbac.py L60–66: a role's `tools` entries are compared with the bound
 * tool names exactly and case-sensitively. A name no agent in this file has (the eight filesystem tools, `task`,
 * the top-level user `tools`, each subagent's `tools`) allows or denies nothing, unless it is one of DeerFlow's own
 * tools (`DEERFLOW_FRAMEWORK_TOOLS`), which a role written for DeerFlow names as a matter of course. Glob-like names are
 * `authz-literal-star` / `authz-literal-glob`'s.
 */
export const authzToolUnknown: Check = {
  code: "authz-tool-unknown",
  severity: "warning",
  summary: "A tool name in a role that no agent in this file has (matching is exact and case-sensitive).",
  run(context) {
    const block = blockNodesOf(context.model.authorization);
    if (!block) return;
    let known: Set<string> | undefined;
    const out = new CappedReporter(context, block, "unknown tool names");
    for (const policy of block.policies) {
      if (policy.resourceKey !== "tools") continue;
      for (const side of ["allow", "deny"] as const) {
        const listNode = side === "allow" ? policy.allowNode : policy.denyNode;
        known ??= new Set([...agentToolNames(context.model), ...DEERFLOW_FRAMEWORK_TOOLS]);
        const names = known;
        if (!someString(listNode, (v) => !names.has(v) && !GLOB_CHARS.test(v))) continue;
        for (const item of listStrings(listNode)) {
          if (GLOB_CHARS.test(item.value)) continue;
          if (names.has(item.value)) continue;
          out.report(() => {
            const suggestion = closeName(item.value, names);
            const caseOnly = suggestion !== undefined && suggestion.toLowerCase() === item.value.toLowerCase();
            const effect = side === "allow" ? "allows nothing" : "denies nothing";
            return {
              message: `No agent in this file has a tool named ${JSON.stringify(item.value)}: this entry ${effect}.`,
              detail:
                "The agents here have the eight filesystem tools, task, and the user tools declared here. " +
                `DeerFlow compares tool names exactly${caseOnly ? ", and case matters" : " and case-sensitively"}, so this entry ${effect}.` +
                (suggestion ? ` Did you mean "${suggestion}"?` : ""),
              span: spanOf(item.node),
              fixes: suggestion ? [{ title: `Change to "${suggestion}"`, operations: [replaceWith(item.node, suggestion)], safe: false }] : [],
            };
          });
        }
      }
    }
    out.finish();
  },
};
