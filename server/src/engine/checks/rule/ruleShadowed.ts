import { spanOf } from "../../config/parse";
import type { Check } from "../check";
import { argumentNote, call, decided, fewRules, RELATED_RULES, reportVerdicts, ruleIndices, ruleLabel } from "../common/ruleAnalysisText";
import { moveBefore, type ModelFix } from "../../fixOperations";

/**
 * docs/reference/decisions.md: first match wins. A rule every one of whose paths (for every operation it names) an earlier rule decides
 * first, some of them the other way, never decides anything: its intent is lost (the `.env`-after-`/workspace/**`
 * mistake). Decided exactly on automata (automata/outcomes.ts); the witness is confirmed with the rule list's own
 * decision function; the reorder fix is offered only when the automata prove that it changes nothing outside the
 * moved rule's own paths.
 */
export const ruleShadowed: Check = {
  code: "rule-shadowed",
  severity: "warning",
  summary: "Earlier rules decide every path this rule matches, some of them the other way: it never applies.",
  run(context) {
    reportVerdicts(context, "rule-shadowed", "shadowed", ({ runtime, list, rule, result, verdict, rules, confirm }) => {
      const w = verdict.witness;
      const actual = confirm.decide(w.operation, w.witness);
      if (!confirm.canonical(w.witness) || !confirm.ruleMatches(rule.index, w.operation, w.witness) || actual.ruleIndex !== w.ruleIndex || actual.decision === result.decision) {
        return { unconfirmed: w.witness };
      }
      const earlier = [...new Set(result.operations.flatMap((o) => o.takenBy.map((t) => t.ruleIndex)))].sort((a, b) => a - b);
      const target = rules.firstOverlappingEarlier(rule.index);
      const fixes: ModelFix[] = [];
      if (target !== undefined && rules.proveMove(rule.index, target)) {
        fixes.push({ title: `Move above rule ${target}`, operations: [moveBefore(list.node, rule.node, list.rules[target]!.node)], safe: false });
      }
      const takers = earlier.length === 1 ? ruleLabel(list, earlier[0]!) : `earlier rules (${ruleIndices(earlier)})`;
      return {
        message: `Rule ${rule.index} never applies: ${fewRules(earlier)} decide${earlier.length === 1 ? "s" : ""} every path it matches first.`,
        detail:
          `In ${runtime.label}, ${takers} decide${earlier.length === 1 ? "s" : ""} every path this rule matches first (first match wins). ` +
          `For example ${call(w.operation, w.witness)} is ${decided(actual.decision)} by ${ruleLabel(list, w.ruleIndex)}, not ${decided(result.decision)} by this rule${argumentNote(runtime, w.witness)}.` +
          (fixes.length > 0 ? ` Moving it above rule ${target} makes it decide all its paths and changes no decision outside them.` : ""),
        span: spanOf(rule.node),
        tags: ["unnecessary"],
        witness: w.witness,
        related: earlier.slice(0, RELATED_RULES).map((i) => ({ message: `${ruleLabel(list, i)} decides first`, span: spanOf(list.rules[i]!.node) })),
        fixes,
      };
    });
  },
};
