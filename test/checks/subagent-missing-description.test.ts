import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings } from "../helpers/checkFixture";

const CODE = "subagent-missing-description";

test("fires on a subagent without a description, and on an empty one", () => {
  const [missing, empty] = expectFindings(config(`"subagents": [{ "name": ⟦"auditor"⟧ }, { "name": "b", "description": ⟦"  "⟧ }]`), CODE);
  assert.equal(missing!.severity, "warning");
  assert.match(missing!.message, /deepagents-js writes "- auditor: undefined"/);
  assert.match(empty!.message, /empty description/);
});

test("does not fire with a description; fixed by writing one", () => {
  expectNoFindings(config(`"subagents": [{ "name": "auditor", "description": "Reviews code for defects" }]`), CODE);
});
