import type { ReportedCheck } from "../check";

/**
 * The file is not valid JSONC. Its findings are the parser's own (config/parse.ts `parseJsonc`, which words each
 * syntax error where it finds it, and refuses a file too large, binary or nested too deep): the parser runs before
 * any model exists, below the checks, so it cannot report through a check's context. This file gives the code its
 * place beside the others: severity, summary, docs page (docs/checks/json-syntax.md) and tests
 * (test/checks/json-syntax.test.ts).
 */
export const jsonSyntax: ReportedCheck = {
  code: "json-syntax",
  severity: "error",
  summary: "The file is not valid JSONC (JSON with comments and trailing commas).",
  reportedBy: "config/parse.ts",
};
