import { allRuleLists } from "../../config/model";
import { spanOf } from "../../config/parse";
import { didYouMean } from "../../didYouMean";
import { OPERATIONS } from "../../runtime/runtime";
import type { Check } from "../check";
import { replaceWith } from "../../fixOperations";

/** docs/reference/paths.md V18: tools only ever ask for `read` or `write`; any other entry never matches. */
export const operationUnknown: Check = {
  code: "operation-unknown",
  severity: "warning",
  summary: "An operation other than `read` or `write` never matches.",
  run(context) {
    for (const list of allRuleLists(context.model)) {
      for (const rule of list.rules) {
        if (rule.operationsNode?.type !== "array") continue;
        for (const node of rule.operationsNode.children ?? []) {
          if (node.type !== "string" || (OPERATIONS as readonly string[]).includes(node.value)) continue;
          const suggestion = didYouMean(String(node.value), OPERATIONS);
          const deleteHint = node.value === "delete" ? ' The delete tool is governed by "write" rules.' : "";
          context.report({
            message: `Unknown operation ${JSON.stringify(node.value)}: this entry never matches.`,
            detail: `Filesystem tools only ask for "read" or "write".${deleteHint}${suggestion ? ` Did you mean "${suggestion}"?` : ""}`,
            span: spanOf(node),
            fixes: suggestion || node.value === "delete"
              ? [{ title: `Change to "${suggestion ?? "write"}"`, operations: [replaceWith(node, suggestion ?? "write")], safe: false }]
              : [],
          });
        }
      }
    }
  },
};
