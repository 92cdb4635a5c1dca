import { removeElements, type ModelFixGroup } from "../../fixOperations";
import { exactAnalysis } from "../../analysisLoader";
import type { Confirm } from "../../automata/confirm";
import type { RuleAnswers } from "../../automata/modelAnalysis";
import { describeList } from "../../config/describe";
import { spanOf } from "../../config/parse";
import type { RuleListSpec } from "../../config/model";
import { removalStopsValidation } from "../../permissions/decideToolPath";
import type { PermissionRuleInput } from "../../permissions/ruleList";
import { OPERATIONS, type Runtime } from "../../runtime/runtime";
import type { Check, CheckContext } from "../check";
import { argumentNote, call, decided, decider, reportVerdicts, ruleLabel, ruleText } from "../common/ruleAnalysisText";

/**
 * docs/reference/decisions.md: removing the rule changes no decision: earlier rules decide all its paths its own way, or the paths it does
 * decide would be decided the same way without it (by a later rule, or, for an `allow`, by the permissive default).
 * Decided exactly on automata; the "Remove rule" fix is safe because that is exactly what was proved.
 */
export const ruleRedundant: Check = {
  code: "rule-redundant",
  severity: "hint",
  summary: "Removing this rule changes no decision.",
  run(context) {
    const others = context.runtimes.filter((r) => r !== context.model.runtime);
    const { Confirm } = exactAnalysis();
    const elsewhere = new Map<RuleListSpec, Confirm[]>();
    // Reported at the end, in the order found, once the removals each list can take together are known.
    const found: { list: RuleListSpec; rule: number; finding: ReportedFinding; answers: RuleAnswers; confirm: Confirm }[] = [];
    reportVerdicts(context, "rule-redundant", "redundant", ({ runtime, list, rule, verdict, confirm, rules }) => {
      // A rule with a mistyped mode or operation is redundant as written, but what it was meant to do is the
      // point: mode-unknown and operation-unknown say how to repair it, and removing it (a safe fix, applied by
      // `--fix`) would throw the intended deny away with the typo.
      if (mistyped(runtime, rule.input)) return undefined;
      // deepagents-js checks tool paths only while the agent has rules (docs/reference/paths.md): removing the last one turns path
      // validation off, so `read /a/../b` goes from an error to allowed (in the config's runtime or in compatibleWith).
      if (removalStopsValidation(list.rules.length, context.runtimes)) return undefined;
      const w = verdict.witness;
      // The proof is about the config's runtime; the fix would remove the rule for the runtimes in `compatibleWith`
      // too. Where the witness itself shows the rule deciding there (`deny /ws` after `deny /ws/**`: deepagents-py's
      // `/ws/**` does not match `/ws`, G6), it is not redundant for this config, and nothing is reported. Otherwise
      // the finding stands, but its fix is not applied by `--fix`: proving it for each other runtime is a walk over
      // the whole list per rule, which made the analysis several times slower.
      let confirms = elsewhere.get(list);
      if (!confirms && others.length > 0) elsewhere.set(list, (confirms = others.map((other) => new Confirm(other, list))));
      const neededElsewhere = confirms?.find((there) => there.canonical(w.path) && there.decide(w.operation, w.path).decision !== there.decideWithout(rule.index, w.operation, w.path).decision);
      if (neededElsewhere) return undefined;
      const withRule = confirm.decide(w.operation, w.path);
      const without = confirm.decideWithout(rule.index, w.operation, w.path);
      if (!confirm.canonical(w.path) || !confirm.ruleMatches(rule.index, w.operation, w.path) || withRule.decision !== without.decision) {
        return { unconfirmed: w.path };
      }
      const takenFirst = withRule.ruleIndex !== rule.index;
      const how = takenFirst
        ? `earlier rules decide every path it matches, its own way: ${call(w.operation, w.path)} is ${decided(withRule.decision)} by ${ruleLabel(list, withRule.ruleIndex)} first`
        : `every path it decides would be decided the same way without it: ${call(w.operation, w.path)} would still be ${decided(without.decision)}, by ${decider(list, without.ruleIndex)}`;
      const finding: ReportedFinding = {
        message: `Rule ${rule.index} is redundant: removing it changes no decision.`,
        detail: `In ${runtime.label}, ${how}${argumentNote(runtime, w.path)}.${others.length > 0 ? ` (Proved for ${runtime.label} only: check ${others.map((o) => o.label).join(" and ")}, in compatibleWith, before removing it.)` : ""}`,
        span: spanOf(rule.node),
        tags: ["unnecessary"],
        witness: w.path,
        related: takenFirst || without.ruleIndex >= 0
          ? [{ message: takenFirst ? `${ruleLabel(list, withRule.ruleIndex)} decides first` : `${ruleLabel(list, without.ruleIndex)} decides these paths without it`, span: spanOf(list.rules[takenFirst ? withRule.ruleIndex : without.ruleIndex]!.node) }]
          : [],
        // Proved on the list as it stands: two copies of one rule are each redundant, not both (`provenOn`).
        fixes: [{
          title: "Remove rule",
          operations: [removeElements(list.node, rule.node)],
          safe: others.length === 0,
          provenOn: spanOf(list.node),
          applied: `${removedRule(list, rule.index)}: decided the same way without it`,
        }],
      };
      found.push({ list, rule: rule.index, finding, answers: rules, confirm });
      return undefined;
    });
    groupRemovals(context, found);
    for (const f of found) context.report(f.finding);
  },
};

type ReportedFinding = Parameters<CheckContext["report"]>[0];

/**
 * The safe removals of each list that can go together (automata: `removableTogether`), as one group fix-all applies
 * whole: on a list with hundreds of redundant rules, one per list per round took hundreds of rounds. The group goes
 * on to the list's fixed point: a rule that decides paths today but whose paths all fall, once the group is gone,
 * to rules that decide them the same way is in it too (the next round would report it redundant), and so is a
 * shadowed rule once the removals leave it unshadowed. A rule still shadowed (its intent is lost: rule-shadowed
 * says how to mend it) and a mistyped one (mode-unknown, operation-unknown) are never removed. The
 * group's decisions are confirmed with the engine's own decision function on a path each removed rule decides; a
 * group that does not confirm is not formed (its members stay single fixes).
 */
function groupRemovals(context: CheckContext, found: readonly { list: RuleListSpec; rule: number; finding: ReportedFinding; answers: RuleAnswers; confirm: Confirm }[]): void {
  const byList = new Map<RuleListSpec, typeof found[number][]>();
  for (const f of found) if (f.finding.fixes?.[0]?.safe) byList.set(f.list, [...(byList.get(f.list) ?? []), f]);
  const runtime = context.model.runtime;
  for (const [list, members] of byList) {
    const answers = members[0]!.answers;
    const reported = new Set(members.map((m) => m.rule));
    // From the last rule up: a later copy goes before an earlier one, so the rule that stays is the one written first.
    const others = list.rules
      .filter((r) => !reported.has(r.index) && !mistyped(runtime, r.input) && ["decides", "partially-shadowed"].includes(answers.rule(r.index).verdict.kind))
      .map((r) => r.index)
      .reverse();
    const shadowed = list.rules.filter((r) => !mistyped(runtime, r.input) && answers.rule(r.index).verdict.kind === "shadowed").map((r) => r.index).reverse();
    let together = answers.removableTogether([...members.map((m) => m.rule).reverse(), ...others], shadowed);
    // deepagents-js checks tool paths only while the agent has rules (docs/reference/paths.md): one stays.
    if (together.length === list.rules.length && removalStopsValidation(1, context.runtimes)) together = together.slice(0, -1);
    if (together.length < 2) continue;
    const gone = new Set(together);
    const confirm = members[0]!.confirm;
    const paths = together.flatMap((i) => answers.rule(i).operations.flatMap((o) => (o.decides !== undefined ? [o.decides] : o.takenBy.slice(0, 1).map((t) => t.witness))));
    const confirmed = paths.every((w) => !confirm.canonical(w) || OPERATIONS.every((op) => confirm.decide(op, w).decision === confirm.decideWithoutAll(gone, op, w).decision));
    if (!confirmed) continue;
    const ordered = [...together].sort((a, b) => a - b);
    const group: ModelFixGroup = {
      list: spanOf(list.node),
      operations: [removeElements(list.node, ...ordered.map((i) => list.rules[i]!.node))],
      applied: ordered.map((i) => `${removedRule(list, i)}: decided the same way without ${reported.has(i) ? "it" : "it and the other rules removed here"}`),
    };
    for (const m of members) if (gone.has(m.rule)) m.finding.fixes![0]!.together = group;
  }
}

/** "removed rule 12 (allow "/a/**")", naming the list when it is not the top-level one. */
function removedRule(list: RuleListSpec, index: number): string {
  return `removed rule ${index} (${ruleText(list.rules[index]!)})${list.owner.kind === "top-level" ? "" : ` of ${describeList(list)}`}`;
}

/** A mode the runtime does not know (mode-unknown) or an operation no tool asks for (operation-unknown). */
function mistyped(runtime: Runtime, rule: PermissionRuleInput): boolean {
  if (rule.mode !== undefined && !(typeof rule.mode === "string" && runtime.modes.includes(rule.mode))) return true;
  return Array.isArray(rule.operations) && rule.operations.some((op) => typeof op !== "string" || !(OPERATIONS as readonly string[]).includes(op));
}
