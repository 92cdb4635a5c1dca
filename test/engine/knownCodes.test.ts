/** The codes hosts accept from the user (`--severity`, the editor's `agentSandbox.severities`). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ANALYSIS_CHECKS, BUILT_IN_CODES, CHECKS, knownCodes, SCENARIO_CHECK_CODES } from "../../server/src/engine/checks/index";
import { SCENARIO_CHECKS } from "../../server/src/engine/checks/scenarioChecks";

test("every code once: the parser's, each check's, the analysis's as its loaded checks report them, internal-error", () => {
  const codes = knownCodes();
  assert.equal(new Set(codes).size, codes.length);
  // The analysis's codes are spelled from its checks' names, so that asking does not load it: held to the checks.
  assert.deepEqual(codes, [...BUILT_IN_CODES, ...CHECKS.map((c) => c.code), ...ANALYSIS_CHECKS.map((c) => c.code), ...SCENARIO_CHECKS.map((c) => c.code), "internal-error"]);
  assert.deepEqual(SCENARIO_CHECKS.map((c) => c.code), [...SCENARIO_CHECK_CODES]);
});
