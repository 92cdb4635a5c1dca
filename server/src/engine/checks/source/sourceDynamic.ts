import type { ReportedCheck } from "../check";

/**
 * A value of a `createDeepAgent` / `create_deep_agent` call that only running the code could give (a call of the
 * user's own function, a parameter, an import from another module). Its findings are the source front ends' own
 * (sources/index.ts, one per call, saying what was not read): the front end knows what it could not read, and the
 * checks that would need those values do not run on that agent (config/dynamic.ts `blockedChecks`), so no check
 * could say it. This file gives the code its place beside the others: severity, summary, docs page
 * (docs/checks/source-dynamic.md) and tests (test/checks/source-dynamic.test.ts).
 */
export const sourceDynamic: ReportedCheck = {
  code: "source-dynamic",
  severity: "information",
  summary: "A value of an agent's options comes from code that only runs at run time: it is not analysed.",
  reportedBy: "sources/index.ts",
};
