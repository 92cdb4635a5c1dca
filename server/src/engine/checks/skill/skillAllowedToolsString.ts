import { allSkills, type SkillInfo } from "../../agents/skills";
import { spanOf } from "../../config/parse";
import type { Check, CheckContext } from "../check";

/**
 * deerflow-authorization.md A.3 (`deerflow/skills/parser.py` L170–174): `allowed-tools` must be a YAML list of
 * strings. Written as a string (`allowed-tools: Read, Grep`), DeerFlow reports an error and drops the whole skill.
 */
export const skillAllowedToolsString: Check = {
  code: "skill-allowed-tools-string",
  severity: "warning",
  summary: "A skill's `allowed-tools` written as a string: DeerFlow drops the whole skill.",
  run(context) {
    for (const skill of allSkills(context.model, context)) reportAllowedToolsString(skill, context.report);
  },
};

/** The finding of one skill, on its `skills` entry, or on the value itself when the skill's own file is checked. */
export function reportAllowedToolsString(skill: SkillInfo, report: CheckContext["report"]): void {
  const allowed = skill.frontmatter.allowedTools;
  if (allowed?.kind !== "string") return;
  const line = (skill.frontmatter.allowedToolsLine ?? 0) + 1;
  const items = allowedToolsItems(allowed.value);
  report({
    message: `${skill.file} line ${line}: allowed-tools is a string, so DeerFlow drops the whole skill.`,
    detail: `allowed-tools is ${JSON.stringify(allowed.value)}. DeerFlow requires a YAML list and drops the whole skill at load ("allowed-tools in ${skill.file} must be a list of strings"). Write "allowed-tools: [${items.join(", ")}]".`,
    span: allowed.span ?? spanOf(skill.entry.node),
  });
}

/** The names a string `allowed-tools` most likely meant (`Read, Grep` or `read_file grep`). */
export function allowedToolsItems(value: string): string[] {
  return value.split(/[,\s]+/).filter((s) => s !== "");
}
