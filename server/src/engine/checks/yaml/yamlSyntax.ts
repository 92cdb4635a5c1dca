import type { ReportedCheck } from "../check";

/**
 * A DeerFlow config.yaml or a skill's SKILL.md frontmatter that DeerFlow's YAML loader cannot read. Its findings are
 * the YAML front end's own (deerflow/yamlTree.ts, which words each syntax error where the `yaml` package finds it,
 * and refuses a file too large, binary, nested too deep or whose aliases expand too far): like json-syntax's, they
 * come before any model exists. This file gives the code its place beside the others: severity, summary, docs page
 * (docs/checks/yaml-syntax.md) and tests (test/checks/yaml-syntax.test.ts).
 */
export const yamlSyntax: ReportedCheck = {
  code: "yaml-syntax",
  severity: "error",
  summary: "A DeerFlow config.yaml or SKILL.md frontmatter that DeerFlow's YAML loader cannot read.",
  reportedBy: "deerflow/yamlTree.ts",
};
