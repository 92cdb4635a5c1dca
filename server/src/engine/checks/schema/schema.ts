import type { ReportedCheck } from "../check";

/**
 * A value of the wrong type, a missing required key, an unknown key (with did-you-mean), or a value outside the
 * allowed set. Its findings are the schema validator's (config/schemaValidator.ts, run by checkConfig.ts and
 * checkDryRun.ts against the schemas the product ships), worded by the validator from the schema's own
 * constraints at the node where each fails. This file gives the code its place beside the others: severity,
 * summary, docs page (docs/checks/schema.md) and tests (test/checks/schema.test.ts).
 */
export const schema: ReportedCheck = {
  code: "schema",
  severity: "error",
  summary: "A wrong type, a missing required key, an unknown key or a value outside the allowed set.",
  reportedBy: "config/schemaValidator.ts",
};
