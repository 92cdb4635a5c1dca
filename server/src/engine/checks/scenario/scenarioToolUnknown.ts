import { property, spanOf } from "../../config/parse";
import { didYouMean } from "../../didYouMean";
import { allSteps } from "../../dryrun/scenario";
import { FILESYSTEM_TOOLS } from "../../runtime/runtime";
import type { ScenarioCheck } from "../scenarioCheck";
import { replaceWith } from "../../fixOperations";

/**
 * A step's tool must be one the runtime could have: the eight filesystem tools, `task`, or a user tool of the
 * config. Any other name is one no agent of this config has (the runtime answers "not a valid tool").
 */
export const scenarioToolUnknown: ScenarioCheck = {
  code: "scenario-tool-unknown",
  severity: "warning",
  summary: "A scenario step calls a tool no agent of the config has.",
  run(context) {
    const model = context.model;
    if (!model) return;
    const known = new Set<string>([...FILESYSTEM_TOOLS, "task", ...model.tools.map((t) => t.value)]);
    for (const s of model.subagents) for (const t of s.tools ?? []) known.add(t.value);
    for (const step of allSteps(context.scenario.steps)) {
      const node = step.node ? property(step.node, "tool") : undefined;
      if (node && !known.has(step.tool)) {
        const near = didYouMean(step.tool, known);
        context.report({
          message: `No agent of the config has a tool named ${JSON.stringify(step.tool)}.`,
          detail: `The runtime answers a call of an unknown tool with an error and runs nothing; the dry run reports tool-unavailable.${near ? ` Did you mean ${JSON.stringify(near)}?` : ""}`,
          span: spanOf(node),
          fixes: near ? [{ title: `Change to ${JSON.stringify(near)}`, operations: [replaceWith(node, near)], safe: false }] : undefined,
        });
      }
    }
  },
};
