import type { SubagentSpec } from "../../config/model";
import { spanOf } from "../../config/parse";
import type { Check } from "../check";

/** Two subagents with one name: deepagents-js refuses (`getSubagents`), and `task` could not tell them apart anyway. */
export const subagentDuplicateName: Check = {
  code: "subagent-duplicate-name",
  severity: "error",
  summary: "Two subagents with one name.",
  run(context) {
    const model = context.model;
    const first = new Map<string, SubagentSpec>();
    for (const spec of model.subagents) {
      if (spec.name === undefined) continue;
      const earlier = first.get(spec.name);
      if (!earlier) {
        first.set(spec.name, spec);
        continue;
      }
      context.report({
        message: `Another subagent is already named ${JSON.stringify(spec.name)}.`,
        detail: `${model.runtime.label}: ${model.runtime.duplicateSubagentMessage(spec.name)}`,
        span: spanOf(spec.nameNode ?? spec.node),
        related: [{ message: "first declared here", span: spanOf(earlier.nameNode ?? earlier.node) }],
      });
    }
  },
};
