import { removeArrayElement } from "../config/edits";
import { spanOf } from "../config/parse";
import type { RuleListSpec } from "../config/model";
import { removalStopsValidation } from "../permissions/decideToolPath";
import type { PermissionRuleInput } from "../permissions/ruleList";
import { OPERATIONS, type Runtime } from "../runtime/runtime";
import type { Check } from "./check";
import { argumentNote, call, Confirm, decided, decider, reportVerdicts, ruleLabel } from "./ruleAnalysisText";

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
    const elsewhere = new Map<RuleListSpec, Confirm[]>();
    reportVerdicts(context, "rule-redundant", "redundant", ({ runtime, list, rule, verdict, confirm }) => {
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
      return {
        message: `Rule ${rule.index} is redundant: removing it changes no decision.`,
        detail: `In ${runtime.label}, ${how}${argumentNote(runtime, w.path)}.${others.length > 0 ? ` (Proved for ${runtime.label} only: check ${others.map((o) => o.label).join(" and ")}, in compatibleWith, before removing it.)` : ""}`,
        span: spanOf(rule.node),
        tags: ["unnecessary"],
        witness: w.path,
        related: takenFirst || without.ruleIndex >= 0
          ? [{ message: takenFirst ? `${ruleLabel(list, withRule.ruleIndex)} decides first` : `${ruleLabel(list, without.ruleIndex)} decides these paths without it`, span: spanOf(list.rules[takenFirst ? withRule.ruleIndex : without.ruleIndex]!.node) }]
          : [],
        // Proved on the list as it stands: two copies of one rule are each redundant, not both (`provenOn`).
        fixes: [{ title: "Remove rule", edits: [removeArrayElement(context.text, list.node, rule.index)], safe: others.length === 0, provenOn: spanOf(list.node) }],
      };
    });
  },
};

/** A mode the runtime does not know (mode-unknown) or an operation no tool asks for (operation-unknown). */
function mistyped(runtime: Runtime, rule: PermissionRuleInput): boolean {
  if (rule.mode !== undefined && !(typeof rule.mode === "string" && runtime.modes.includes(rule.mode))) return true;
  return Array.isArray(rule.operations) && rule.operations.some((op) => typeof op !== "string" || !(OPERATIONS as readonly string[]).includes(op));
}
