import { property, spanOf } from "../../config/parse";
import type { StepResult } from "../../dryrun/runner";
import type { ScenarioCheck } from "../scenarioCheck";
import { replaceWith } from "../../fixOperations";

/**
 * The language server and `check` run the scenario: an `expect` the run does not meet is reported on the step, with
 * the actual outcome and its reason, and a fix that writes the actual outcome into the expectation.
 */
export const scenarioExpectationFailed: ScenarioCheck = {
  code: "scenario-expectation-failed",
  severity: "warning",
  summary: "Running the scenario gives another outcome than a step expects.",
  needsRun: true,
  run(context) {
    const run = context.run();
    if (!run) return;
    for (const step of run.steps) {
      if (step.passed !== false || !step.node) continue;
      const expect = property(step.node, "expect");
      if (!expect) continue;
      const outcomeNode = expect.type === "object" ? property(expect, "outcome") : expect;
      const fixes = step.outcome !== step.expected && outcomeNode
        ? [{ title: `Expect ${step.outcome}`, operations: [replaceWith(outcomeNode, step.outcome)], safe: false }]
        : undefined;
      context.report({
        message: step.outcome !== step.expected ? `Expected ${step.expected}, but the dry run gives ${step.outcome}.` : "The step's output does not meet its expectation.",
        detail: detailOf(step),
        span: spanOf(expect),
        fixes,
      });
    }
  },
};

function detailOf(step: StepResult): string {
  const parts = [`${step.failure ?? ""}.`];
  if (step.rule) parts.push(`Decided by rule ${step.rule.index} (${step.rule.mode} ${step.rule.pattern}).`);
  if (step.denyPatterns && step.denyPatterns.length > 1) parts.push(`Deny patterns cited: ${step.denyPatterns.join(", ")}.`);
  if (step.reason) parts.push(`Why: ${step.reason}.`);
  if (step.output) parts.push(`The runtime answers: ${step.output.length > 400 ? `${step.output.slice(0, 400)}…` : step.output}`);
  return parts.join(" ");
}
