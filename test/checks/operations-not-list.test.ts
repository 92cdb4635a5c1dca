import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "operations-not-list";

test("fires on a string, saying what the substring test covers (V19, T41)", () => {
  const found = expectFindings(
    config(`"permissions": [
    { "operations": ⟦"readwrite"⟧, "paths": ["/a"], "mode": "deny" },
    { "operations": ⟦"read"⟧, "paths": ["/b"], "mode": "deny" },
    { "operations": ⟦"rw"⟧, "paths": ["/c"], "mode": "deny" }
  ]`),
    CODE,
  );
  assert.ok(found.every((f) => f.severity === "error"));
  assert.deepEqual(found.map((f) => f.message), Array(3).fill('"operations" is a string, not a list: the runtime tests it as a substring.'));
  assert.deepEqual(found.map((f) => f.detail), [
    'deepagents-js 1.14.1 tests "rule.operations.includes(op)", which on a string is a substring test: it covers "read" and "write".',
    'deepagents-js 1.14.1 tests "rule.operations.includes(op)", which on a string is a substring test: it covers "read".',
    'deepagents-js 1.14.1 tests "rule.operations.includes(op)", which on a string is a substring test: it covers no operation, so the rule never matches.',
  ]);
});

test("names each runtime's own membership test", () => {
  const [py] = findings(`{ "version": 1, "runtime": "deepagents-py", "permissions": [{ "operations": "read", "paths": ["/a"], "mode": "deny" }] }`, CODE);
  assert.match(py!.detail!, /deepagents-py 0\.7\.8 tests "op in rule\.operations", which on a string is a substring test/);
});

test("does not fire on a list", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["read"], "paths": ["/a"] }, { "operations": [], "paths": ["/b"] }]`), CODE);
});

test("fix (safe): write the list the runtime uses; the finding goes, nothing new at error level", () => {
  const text = config(`"permissions": [{ "operations": "readwrite", "paths": ["/a"], "mode": "deny" }]`);
  const [finding] = findings(text, CODE);
  assert.deepEqual(finding!.fixes!.map((f) => [f.title, f.safe]), [['Write it as a list: ["read","write"]', true]]);
  const fixed = applyFix(text, finding!);
  assert.ok(fixed.includes('"operations": ["read", "write"]'));
  expectNoFindings(fixed, CODE);
  assert.deepEqual(findings(fixed).filter((f) => f.severity === "error"), []);
  // "rw" covers nothing: the list is empty, and rule-empty (a warning) then says the rule decides nothing.
  const none = config(`"permissions": [{ "operations": "rw", "paths": ["/a"], "mode": "deny" }]`);
  const fixedNone = applyFix(none, findings(none, CODE)[0]!);
  assert.ok(fixedNone.includes('"operations": []'));
  assert.deepEqual(findings(fixedNone).map((f) => f.code), ["rule-empty"]);
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`"permissions": [
    // agent-sandbox-ignore operations-not-list
    { "operations": "readwrite", "paths": ["/a"], "mode": "deny" }
  ]`), CODE);
});
