import { spanOf } from "../../config/parse";
import type { Check } from "../check";
import { argumentNote, call, decided, fewRules, namedRules, RELATED_RULES, reportVerdicts, ruleLabel } from "../common/ruleAnalysisText";

/**
 * docs/reference/decisions.md: part of the rule's paths is decided first by an earlier rule, the other way; the rest the rule still
 * decides. Often intended (an exception carved out ahead of a broad rule), so only information, with a witness on
 * each side: a path taken from it, and a path it still decides.
 */
export const rulePartiallyShadowed: Check = {
  code: "rule-partially-shadowed",
  severity: "information",
  summary: "An earlier rule decides part of this rule's paths the other way; the rest it still decides.",
  run(context) {
    reportVerdicts(context, "rule-partially-shadowed", "partially-shadowed", ({ runtime, list, rule, result, verdict, confirm }) => {
      const w = verdict.witness;
      const taken = confirm.decide(w.operation, w.witness);
      const own = result.operations.find((o) => o.decides !== undefined);
      const ownDecision = own ? confirm.decide(own.operation, own.decides!) : undefined;
      const confirmed =
        confirm.canonical(w.witness) && confirm.ruleMatches(rule.index, w.operation, w.witness)
        && taken.ruleIndex === w.ruleIndex && taken.decision !== result.decision
        && own !== undefined && ownDecision!.ruleIndex === rule.index && confirm.canonical(own.decides!);
      if (!confirmed) return { unconfirmed: w.witness };
      const others = [...new Set(result.operations.flatMap((o) => o.takenBy.filter((t) => t.decision !== result.decision).map((t) => t.ruleIndex)))].sort((a, b) => a - b);
      return {
        message: `${fewRules(others).replace(/^./, (c) => c.toUpperCase())} decide${others.length === 1 ? "s" : ""} part of rule ${rule.index}'s paths first, the other way.`,
        detail:
          `Part of this rule's paths is decided first, the other way, by ${namedRules(list, others)} in ${runtime.label}: ` +
          `${call(w.operation, w.witness)} is ${decided(taken.decision)} there, not ${decided(result.decision)} by this rule${argumentNote(runtime, w.witness)} (first match wins). ` +
          `The rest it still decides, for example ${call(own!.operation, own!.decides!)}.`,
        span: spanOf(rule.node),
        witness: w.witness,
        related: others.slice(0, RELATED_RULES).map((i) => ({ message: `${ruleLabel(list, i)} decides part of these paths first`, span: spanOf(list.rules[i]!.node) })),
      };
    });
  },
};
