import { agentToolNames } from "../../authorization/agentTools";
import { allSkills, SKILL_FRAMEWORK_TOOLS, type SkillInfo } from "../../agents/skills";
import type { ConfigModel } from "../../config/model";
import { spanOf } from "../../config/parse";
import { didYouMean } from "../../didYouMean";
import type { Check, CheckContext } from "../check";

/**
 * A skill's `allowed-tools` names a tool no agent in this file has (names are exact and case-sensitive): while
 * that skill is active, the entry allows nothing (deerflow-authorization.md A.3 step 5).
 */
export const skillToolUnknown: Check = {
  code: "skill-tool-unknown",
  severity: "warning",
  summary: "A skill allows a tool that no agent has.",
  run(context) {
    const skills = allSkills(context.model, context);
    if (skills.length === 0) return;
    const known = skillToolNames(context.model);
    for (const skill of skills) reportUnknownSkillTools(skill, known, context.report);
  },
};

/** The names a skill's `allowed-tools` may list: every agent's tools and the framework tools the skill policy adds back. */
export function skillToolNames(model: ConfigModel): Set<string> {
  const known = agentToolNames(model);
  for (const t of SKILL_FRAMEWORK_TOOLS) known.add(t);
  return known;
}

/** One skill's findings, on its `skills` entry, or on each value when the skill's own file is checked. */
export function reportUnknownSkillTools(skill: SkillInfo, known: ReadonlySet<string>, report: CheckContext["report"]): void {
  const allowed = skill.frontmatter.allowedTools;
  if (allowed?.kind !== "list") return;
  for (const item of allowed.items) {
    if (known.has(item.value)) continue;
    const suggestion = didYouMean(item.value, known);
    report({
      message: `${skill.file} line ${item.line + 1}: allowed-tools lists ${JSON.stringify(item.value)}, which no agent here has.`,
      detail: `No agent in this file has a tool named ${JSON.stringify(item.value)} (tool names are exact and case-sensitive), so it allows nothing.${suggestion ? ` Did you mean "${suggestion}"?` : ""}`,
      span: item.span ?? spanOf(skill.entry.node),
    });
  }
}
