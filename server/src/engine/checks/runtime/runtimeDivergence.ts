import { exactAnalysis } from "../../analysisLoader";
import { allRuleLists } from "../../config/model";
import { spanOf } from "../../config/parse";
import type { Check } from "../check";
import { call, decider, verb, shown } from "../common/ruleAnalysisText";

/**
 * docs/reference/globs.md: the same rules, another runtime in `compatibleWith`, another decision (dotfiles, the directory itself,
 * a leading `/**\/`, `[!a]`, extglobs, `interrupt`…). Decided exactly on automata over the paths both runtimes take
 * as they are; reported once per rule where the two runtimes first part ways, with a witness and both decisions.
 */
export const runtimeDivergence: Check = {
  code: "runtime-divergence",
  severity: "information",
  summary: "A runtime in `compatibleWith` decides some path differently under these rules.",
  run(context) {
    const model = context.model;
    const primary = model.runtime;
    const others = context.runtimes.filter((r) => r !== primary);
    if (others.length === 0) return;
    const { analysisForCheck, Confirm } = exactAnalysis();
    const analysis = analysisForCheck(context);
    for (const list of allRuleLists(model)) {
      const here = new Confirm(primary, list);
      for (const other of others) {
        const there = new Confirm(other, list);
        for (const d of analysis.divergences(list, other)) {
          const a = here.decide(d.operation, d.path);
          const b = there.decide(d.operation, d.path);
          const confirmed = here.typedAsIs(d.path) && there.typedAsIs(d.path)
            && a.decision === d.primary.decision && a.ruleIndex === d.primary.ruleIndex
            && b.decision === d.other.decision && b.ruleIndex === d.other.ruleIndex && a.decision !== b.decision;
          if (!confirmed) {
            analysis.noteSkip(list, { ruleIndex: d.ruleIndex, reason: `the witness ${JSON.stringify(d.path)} could not be confirmed; nothing reported`, checks: ["runtime-divergence"] });
            continue;
          }
          const rule = list.rules[d.ruleIndex]!;
          // Point at the pattern that one runtime matches and the other does not, when there is one.
          const patterns = rule.pathNodes.filter((n) => typeof n.value === "string" && n.value.length > 0);
          const differing = patterns.find((n) => here.pattern(n.value as string).matches(d.path) !== there.pattern(n.value as string).matches(d.path));
          const why = differing
            ? ` ${JSON.stringify(differing.value)} matches "${shown(d.path)}" in ${(here.pattern(differing.value as string).matches(d.path) ? primary : other).label} only.`
            : a.ruleIndex === b.ruleIndex ? ` The rule's mode ${JSON.stringify(rule.input.mode)} means something else in each runtime.` : "";
          context.report({
            message: `${other.label} decides ${call(d.operation, d.path)} differently from ${primary.label}.`,
            detail:
              `${primary.label} ${verb(a.decision)} it (${decider(list, a.ruleIndex)}); ${other.label}, in compatibleWith, ` +
              `${verb(b.decision)} it (${decider(list, b.ruleIndex)}).${why}`,
            span: spanOf(differing ?? rule.node),
            witness: d.path,
            related: [a.ruleIndex, b.ruleIndex].filter((i, k, all) => i >= 0 && i !== d.ruleIndex && all.indexOf(i) === k).map((i) => ({ message: `decides ${call(d.operation, d.path)} in ${i === a.ruleIndex ? primary.label : other.label}`, span: spanOf(list.rules[i]!.node) })),
          });
        }
      }
    }
  },
};
