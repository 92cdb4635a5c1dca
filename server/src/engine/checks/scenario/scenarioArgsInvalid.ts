import { property, spanOf } from "../../config/parse";
import { argumentProblem } from "../../dryrun/runner";
import { allSteps } from "../../dryrun/scenario";
import type { ScenarioCheck } from "../scenarioCheck";

/**
 * A built-in tool's arguments must fit its argument schema (a missing `file_path`, a number where text goes): the
 * runtime's schema validation refuses the call before the tool runs.
 */
export const scenarioArgsInvalid: ScenarioCheck = {
  code: "scenario-args-invalid",
  severity: "error",
  summary: "A step's arguments miss a required one or give one of the wrong type for its tool.",
  run(context) {
    for (const step of allSteps(context.scenario.steps)) {
      const problem = argumentProblem(step.tool, step.args);
      if (problem && step.node) {
        const at = property(step.node, "args") ?? property(step.node, "tool") ?? step.node;
        context.report({
          message: `The arguments of this ${step.tool} call do not fit the tool.`,
          detail: `${problem}. The runtime validates a tool call's arguments against the tool's schema and refuses the call before the tool runs.`,
          span: spanOf(at),
        });
      }
    }
  },
};
