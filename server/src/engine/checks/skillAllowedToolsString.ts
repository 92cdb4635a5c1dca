import { allSkills } from "../agents/skills";
import { spanOf } from "../config/parse";
import type { Check } from "./check";

/**
 * deerflow-authorization.md A.3 (`deerflow/skills/parser.py` L170–174): `allowed-tools` must be a YAML list of
 * strings. Written as a string (`allowed-tools: Read, Grep`), DeerFlow reports an error and drops the whole skill.
 */
export const skillAllowedToolsString: Check = {
  code: "skill-allowed-tools-string",
  severity: "warning",
  summary: "A skill's `allowed-tools` written as a string: DeerFlow drops the whole skill.",
  run(context) {
    for (const skill of allSkills(context.model, context)) {
      const allowed = skill.frontmatter.allowedTools;
      if (allowed?.kind !== "string") continue;
      const line = (skill.frontmatter.allowedToolsLine ?? 0) + 1;
      const items = allowed.value.split(/[,\s]+/).filter((s) => s !== "");
      context.report({
        message: `${skill.file} line ${line}: allowed-tools is a string, so DeerFlow drops the whole skill.`,
        detail: `allowed-tools is ${JSON.stringify(allowed.value)}. DeerFlow requires a YAML list and drops the whole skill at load ("allowed-tools in ${skill.file} must be a list of strings"). Write "allowed-tools: [${items.join(", ")}]".`,
        span: spanOf(skill.entry.node),
      });
    }
  },
};
