import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "operation-unknown";

test("fires on each unknown operation (V18), with did-you-mean and the `delete` hint", () => {
  const found = expectFindings(config(`"permissions": [{ "operations": ["read", ⟦"raed"⟧, ⟦"delete"⟧, ⟦"exec"⟧], "paths": ["/x"], "mode": "deny" }]`), CODE);
  assert.ok(found.every((f) => f.severity === "warning"));
  assert.deepEqual(found.map((f) => [f.message, f.detail]), [
    ['Unknown operation "raed": this entry never matches.', 'Filesystem tools only ask for "read" or "write". Did you mean "read"?'],
    ['Unknown operation "delete": this entry never matches.', 'Filesystem tools only ask for "read" or "write". The delete tool is governed by "write" rules.'],
    ['Unknown operation "exec": this entry never matches.', 'Filesystem tools only ask for "read" or "write".'],
  ]);
  assert.deepEqual(found.map((f) => (f.fixes ?? []).map((x) => [x.title, x.safe])), [[['Change to "read"', false]], [['Change to "write"', false]], []]);
});

test("does not fire on read and write, nor on a string operations (operations-not-list's job)", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["read", "write"], "paths": ["/x"] }, { "operations": "readwrite", "paths": ["/y"] }]`), CODE);
});

test("fix: change to the suggestion; the finding goes, nothing new at error level", () => {
  const text = config(`"permissions": [{ "operations": ["raed"], "paths": ["/x"], "mode": "deny" }]`);
  const fixed = applyFix(text, findings(text, CODE)[0]!);
  assert.ok(fixed.includes('"operations": ["read"]'));
  expectNoFindings(fixed, CODE);
  assert.deepEqual(findings(fixed).filter((f) => f.severity === "error"), []);
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`"permissions": [
    // agent-sandbox-ignore operation-unknown
    { "operations": ["delete"], "paths": ["/x"], "mode": "deny" }
  ]`), CODE);
});
