import { allRuleLists } from "../../config/model";
import { spanOf } from "../../config/parse";
import { didYouMean } from "../../didYouMean";
import type { Check } from "../check";
import { replaceWith } from "../../fixOperations";

/**
 * docs/reference/paths.md V20–V21: only the exact string "deny" blocks. Any other mode is returned as the decision, which is not
 * "deny", so the call is allowed, and because the rule matched, no later rule is consulted.
 */
export const modeUnknown: Check = {
  code: "mode-unknown",
  severity: "error",
  summary: "A mode the runtime does not know silently allows, and stops later rules.",
  run(context) {
    const runtime = context.model.runtime;
    for (const list of allRuleLists(context.model)) {
      for (const rule of list.rules) {
        const node = rule.modeNode;
        if (node?.type !== "string" || runtime.modes.includes(node.value)) continue;
        const interruptInJs = node.value === "interrupt";
        const suggestion = interruptInJs ? undefined : didYouMean(String(node.value), runtime.modes);
        const known = runtime.modes.map((m) => `"${m}"`).join(", ");
        context.report({
          message: interruptInJs
            ? `Mode "interrupt" exists only in deepagents-py: here a match silently allows the call.`
            : `Unknown mode ${JSON.stringify(node.value)}: a match silently allows the call.`,
          detail: interruptInJs
            ? `${runtime.label} has no human-in-the-loop for rules: a match silently ALLOWS the call, and later rules are never consulted.`
            : `${runtime.label} knows ${known}. Any other mode is returned as the decision, which is not "deny": a match silently ALLOWS the call, and later rules are never consulted.${suggestion ? ` Did you mean "${suggestion}"?` : ""}`,
          span: spanOf(node),
          fixes: suggestion ? [{ title: `Change to "${suggestion}"`, operations: [replaceWith(node, suggestion)], safe: false }] : [],
        });
      }
    }
  },
};
