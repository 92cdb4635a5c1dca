import { removeArrayElement } from "../config/edits";
import { spanOf } from "../config/parse";
import type { Check } from "./check";
import { argumentNote, decided, decider, reportVerdicts, ruleLabel, shown } from "./ruleAnalysisText";

/**
 * §3.1: removing the rule changes no decision: earlier rules decide all its paths its own way, or the paths it does
 * decide would be decided the same way without it (by a later rule, or, for an `allow`, by the permissive default).
 * Decided exactly on automata; the "Remove rule" fix is safe because that is exactly what was proved.
 */
export const ruleRedundant: Check = {
  code: "rule-redundant",
  severity: "hint",
  summary: "Removing this rule changes no decision.",
  run(context) {
    reportVerdicts(context, "rule-redundant", "redundant", ({ runtime, list, rule, verdict, confirm }) => {
      const w = verdict.witness;
      const withRule = confirm.decide(w.operation, w.path);
      const without = confirm.decideWithout(rule.index, w.operation, w.path);
      if (!confirm.canonical(w.path) || !confirm.ruleMatches(rule.index, w.operation, w.path) || withRule.decision !== without.decision) {
        return { unconfirmed: w.path };
      }
      const takenFirst = withRule.ruleIndex !== rule.index;
      const how = takenFirst
        ? `earlier rules decide every path it matches, its own way: \`${w.operation} ${shown(w.path)}\` is ${decided(withRule.decision)} by ${ruleLabel(list, withRule.ruleIndex)} first`
        : `every path it decides would be decided the same way without it: \`${w.operation} ${shown(w.path)}\` would still be ${decided(without.decision)}, by ${decider(list, without.ruleIndex)}`;
      return {
        message: `Removing this rule changes no decision in ${runtime.label}: ${how}${argumentNote(runtime, w.path)}.`,
        span: spanOf(rule.node),
        tags: ["unnecessary"],
        witness: w.path,
        related: takenFirst || without.ruleIndex >= 0
          ? [{ message: takenFirst ? `${ruleLabel(list, withRule.ruleIndex)} decides first` : `${ruleLabel(list, without.ruleIndex)} decides these paths without it`, span: spanOf(list.rules[takenFirst ? withRule.ruleIndex : without.ruleIndex]!.node) }]
          : [],
        fixes: [{ title: "Remove rule", edits: [removeArrayElement(context.text, list.node, rule.index)], safe: true }],
      };
    });
  },
};
