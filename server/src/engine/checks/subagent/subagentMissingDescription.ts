import { property, spanOf } from "../../config/parse";
import type { Check } from "../check";

/**
 * The runtime accepts a subagent without `description`, but the `task` tool's catalogue is the only thing the model
 * reads to choose a subagent: deepagents-js 1.14.1 lists it as `- <name>: undefined` (`describeSubagentForTool`).
 */
export const subagentMissingDescription: Check = {
  code: "subagent-missing-description",
  severity: "warning",
  summary: "A subagent without a description: `task` offers it to the model with none.",
  run(context) {
    for (const spec of context.model.subagents) {
      if (spec.description && spec.description.value.trim() !== "") continue;
      // A description that is not a string is the schema's finding (the runtime prints whatever it is): it is not missing.
      const written = property(spec.node, "description");
      if (!spec.description && written && written.type !== "null") continue;
      const name = spec.name ?? `#${spec.index}`;
      context.report({
        message: spec.description
          ? `Subagent ${JSON.stringify(name)} has an empty description.`
          : `Subagent ${JSON.stringify(name)} has no description.`,
        detail: spec.description
          ? "The task tool offers it to the model with nothing to choose it by."
          : `The runtime accepts it, but the task tool offers it to the model with none (deepagents-js writes "- ${name}: undefined").`,
        span: spanOf(spec.description?.node ?? spec.nameNode ?? spec.node),
      });
    }
  },
};
