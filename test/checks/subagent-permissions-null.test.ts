import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "subagent-permissions-null";

test("fires on permissions: null, naming both meanings", () => {
  const [f] = expectFindings(config(`"subagents": [{ "name": "a", "description": "a", "permissions": ⟦null⟧ }]`), CODE);
  assert.equal(f!.severity, "information");
  assert.equal(f!.message, '"permissions": null means different things in each runtime.');
  assert.match(f!.detail!, /^deepagents-js 1\.14\.1: inherits the parent's rules; deepagents-py 0\.7\.8: no rules at all \(unrestricted\)/);
});

test("does not fire on omitted, [] or a list", () => {
  expectNoFindings(config(`"subagents": [{ "name": "a", "description": "a" }, { "name": "b", "description": "b", "permissions": [] }]`), CODE);
});

test("fixes: the first one keeps the runtime's current meaning", () => {
  const js = config(`"subagents": [{ "name": "a", "description": "a", "permissions": null }]`);
  const [f] = findings(js, CODE);
  assert.match(f!.fixes![0]!.title, /^Remove "permissions"/);
  const removed = applyFix(js, f!);
  assert.ok(removed.includes(`{ "name": "a", "description": "a" }`), removed);
  expectNoFindings(removed, CODE);
  const py = config(`"runtime": "deepagents-py",\n  "subagents": [{ "name": "a", "description": "a", "permissions": null }]`);
  const [g] = findings(py, CODE);
  assert.match(g!.fixes![0]!.title, /^Change to \[\]/);
  assert.ok(applyFix(py, g!).includes(`"permissions": []`));
});
