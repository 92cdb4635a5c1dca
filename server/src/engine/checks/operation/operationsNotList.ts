import { allRuleLists } from "../../config/model";
import { spanOf } from "../../config/parse";
import { OPERATIONS } from "../../runtime/runtime";
import type { Check } from "../check";
import { replaceWith } from "../../fixOperations";

/**
 * docs/reference/paths.md V19: a string `operations` is accepted, and both runtimes then test membership (JS
 * `rule.operations.includes(op)`, Python `op in rule.operations`) as a substring:
 * `"readwrite"` covers both, `"reading"` covers read. The fix writes the list the runtime actually uses, so it
 * changes no decision.
 */
export const operationsNotList: Check = {
  code: "operations-not-list",
  severity: "error",
  summary: "`operations` is a string: the runtime does a substring test on it.",
  run(context) {
    for (const list of allRuleLists(context.model)) {
      for (const rule of list.rules) {
        const node = rule.operationsNode;
        if (node?.type !== "string") continue;
        const covered = OPERATIONS.filter((op) => context.model.runtime.operationsCover(node.value, op));
        const effect = covered.length === 0 ? "it covers no operation, so the rule never matches" : `it covers ${covered.map((o) => `"${o}"`).join(" and ")}`;
        context.report({
          message: `"operations" is a string, not a list: the runtime tests it as a substring.`,
          detail: `${context.model.runtime.label} tests "${context.model.runtime.operationsTest}", which on a string is a substring test: ${effect}.`,
          span: spanOf(node),
          fixes: [{ title: `Write it as a list: ${JSON.stringify(covered)}`, operations: [replaceWith(node, covered)], safe: true }],
        });
      }
    }
  },
};
