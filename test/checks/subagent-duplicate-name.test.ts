import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings } from "../helpers/checkFixture";

const CODE = "subagent-duplicate-name";

test("fires on every later subagent with a name already used, pointing at the first", () => {
  const [f, g] = expectFindings(config(`"subagents": [{ "name": "a", "description": "1" }, { "name": ⟦"a"⟧, "description": "2" }, { "name": ⟦"a"⟧, "description": "3" }]`), CODE);
  assert.equal(f!.severity, "error");
  assert.equal(f!.message, 'Another subagent is already named "a".');
  assert.equal(f!.detail, "deepagents-js 1.14.1: Error: Duplicate subagent name 'a'; each subagent must have a unique name.");
  assert.equal(f!.related?.[0]?.message, "first declared here");
  assert.equal(g!.related?.[0]?.message, "first declared here");
});

test("two declared general-purpose subagents are duplicates too; one is a replacement, not a duplicate", () => {
  expectFindings(config(`"subagents": [{ "name": "general-purpose", "description": "1" }, { "name": ⟦"general-purpose"⟧, "description": "2" }]`), CODE);
  expectNoFindings(config(`"subagents": [{ "name": "general-purpose", "description": "mine" }]`), CODE);
});

test("does not fire on distinct names (case matters); fixed by renaming", () => {
  expectNoFindings(config(`"subagents": [{ "name": "a", "description": "1" }, { "name": "A", "description": "2" }, { "name": "a2", "description": "3" }]`), CODE);
});
