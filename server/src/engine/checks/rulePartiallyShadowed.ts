import { analysisForCheck } from "../automata/modelAnalysis";
import { allRuleLists } from "../config/model";
import { spanOf } from "../config/parse";
import type { Check } from "./check";
import { argumentNote, Confirm, decided, ruleLabel, shown } from "./ruleAnalysisText";

/**
 * §3.1: part of the rule's paths is decided first by an earlier rule, the other way; the rest the rule still
 * decides. Often intended (an exception carved out ahead of a broad rule), so only information, with a witness on
 * each side: a path taken from it, and a path it still decides.
 */
export const rulePartiallyShadowed: Check = {
  code: "rule-partially-shadowed",
  severity: "information",
  summary: "An earlier rule decides part of this rule's paths the other way; the rest it still decides.",
  run(context) {
    const model = context.model;
    const runtime = model.runtime;
    const analysis = analysisForCheck(context);
    for (const list of allRuleLists(model)) {
      const rules = analysis.ruleList(list);
      const confirm = new Confirm(runtime, list);
      for (const rule of list.rules) {
        const result = rules.rule(rule.index);
        if (result.verdict.kind !== "partially-shadowed") continue;
        const w = result.verdict.witness;
        const taken = confirm.decide(w.operation, w.witness);
        const own = result.operations.find((o) => o.decides !== undefined);
        const ownDecision = own ? confirm.decide(own.operation, own.decides!) : undefined;
        const confirmed =
          confirm.canonical(w.witness) && confirm.ruleMatches(rule.index, w.operation, w.witness)
          && taken.ruleIndex === w.ruleIndex && taken.decision !== result.decision
          && own !== undefined && ownDecision!.ruleIndex === rule.index && confirm.canonical(own.decides!);
        if (!confirmed) {
          analysis.noteSkip(list, { ruleIndex: rule.index, reason: `the witness ${JSON.stringify(w.witness)} could not be confirmed; nothing reported`, checks: ["rule-partially-shadowed"] });
          continue;
        }
        const others = [...new Set(result.operations.flatMap((o) => o.takenBy.filter((t) => t.decision !== result.decision).map((t) => t.ruleIndex)))].sort((a, b) => a - b);
        context.report({
          message:
            `Part of this rule's paths is decided first, the other way, by ${others.map((i) => ruleLabel(list, i)).join(" and ")} in ${runtime.label}: ` +
            `\`${w.operation} ${shown(w.witness)}\` is ${decided(taken.decision)} there, not ${decided(result.decision)} by this rule${argumentNote(runtime, w.witness)} (first match wins, §3.1). ` +
            `The rest it still decides, e.g. \`${own!.operation} ${shown(own!.decides!)}\`.`,
          span: spanOf(rule.node),
          witness: w.witness,
          related: others.map((i) => ({ message: `${ruleLabel(list, i)} decides part of these paths first`, span: spanOf(list.rules[i]!.node) })),
        });
      }
    }
  },
};
