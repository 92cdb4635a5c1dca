import { allRuleLists } from "../../config/model";
import { removeElements } from "../../fixOperations";
import { spanOf } from "../../config/parse";
import { removalStopsValidation } from "../../permissions/decideToolPath";
import type { Check } from "../check";

/** docs/reference/paths.md V15, V18: `paths: []` or `operations: []` can never match. */
export const ruleEmpty: Check = {
  code: "rule-empty",
  severity: "warning",
  summary: "A rule with no paths or no operations never matches.",
  run(context) {
    for (const list of allRuleLists(context.model)) {
      for (const rule of list.rules) {
        const emptyPaths = rule.pathsNode?.type === "array" && rule.pathNodes.length === 0;
        const emptyOps = rule.operationsNode?.type === "array" && (rule.operationsNode.children?.length ?? 0) === 0;
        if (!emptyPaths && !emptyOps) continue;
        const what = emptyPaths && emptyOps ? "no paths and no operations" : emptyPaths ? "no paths" : "no operations";
        // Still not nothing when it is the list's only rule in a runtime that checks tool paths only while the agent
        // has rules (docs/reference/paths.md): then removing it lets `/a/../b` through, so the fix is offered but not applied by --fix.
        const validating = removalStopsValidation(list.rules.length, context.runtimes);
        context.report({
          message: `Rule ${rule.index} never matches: it has ${what}.`,
          detail: `It never matches any tool call in ${context.model.runtime.label}, so it decides nothing.${validating ? ` It is the list's only rule, though: ${validating.label} checks tool paths (relative, "..", "~") only while the agent has a rule, so without it such paths are let through.` : ""}`,
          span: spanOf((emptyPaths ? rule.pathsNode : rule.operationsNode)!),
          tags: ["unnecessary"],
          // Proved on the list as it stands: with two such rules, each alone is not the last (`provenOn`).
          fixes: [{ title: "Remove the rule", operations: [removeElements(list.node, rule.node)], safe: !validating, provenOn: spanOf(list.node) }],
        });
      }
    }
  },
};
