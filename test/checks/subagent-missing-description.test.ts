import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings } from "../helpers/checkFixture";

const CODE = "subagent-missing-description";

test("fires on a subagent without a description, and on an empty one", () => {
  const [missing, empty] = expectFindings(config(`"subagents": [{ "name": ⟦"auditor"⟧ }, { "name": "b", "description": ⟦"  "⟧ }]`), CODE);
  assert.equal(missing!.severity, "warning");
  assert.equal(missing!.message, 'Subagent "auditor" has no description.');
  assert.match(missing!.detail!, /deepagents-js writes "- auditor: undefined"/);
  assert.equal(empty!.message, 'Subagent "b" has an empty description.');
  assert.equal(empty!.detail, "The task tool offers it to the model with nothing to choose it by.");
});

test("does not fire with a description; fixed by writing one", () => {
  expectNoFindings(config(`"subagents": [{ "name": "auditor", "description": "Reviews code for defects" }]`), CODE);
});

test("a description that is not a string is the schema's finding, not a missing one", () => {
  // It said "has no `description`" beside the schema's type error.
  expectNoFindings(config(`"subagents": [{ "name": "a", "description": 1 }, { "name": "b", "description": ["x"] }]`), CODE);
  expectFindings(config(`"subagents": [{ "name": ⟦"c"⟧, "description": null }]`), CODE);
});
