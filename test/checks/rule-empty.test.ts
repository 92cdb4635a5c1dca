import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "rule-empty";

test("fires on `paths: []` and `operations: []`, on the empty list (V15, V18)", () => {
  const found = expectFindings(
    config(`"permissions": [
    { "operations": ["read"], "paths": ⟦[]⟧, "mode": "deny" },
    { "operations": ⟦[]⟧, "paths": ["/x"], "mode": "deny" },
    { "operations": [], "paths": ⟦[]⟧ }
  ]`),
    CODE,
  );
  assert.ok(found.every((f) => f.severity === "warning" && f.tags?.includes("unnecessary")));
  assert.deepEqual(found.map((f) => f.detail), Array(3).fill("It never matches any tool call in deepagents-js 1.14.1, so it decides nothing."));
  assert.deepEqual(found.map((f) => f.message), [
    "Rule 0 never matches: it has no paths.",
    "Rule 1 never matches: it has no operations.",
    "Rule 2 never matches: it has no paths and no operations.",
  ]);
});

test("does not fire on rules with paths and operations, or on an empty permissions list", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["read"], "paths": ["/x"] }]`), CODE);
  expectNoFindings(config(`"permissions": []`), CODE);
});

test("fix (safe): remove the rule, with its line", () => {
  const text = config(`"permissions": [
    { "operations": ["read"], "paths": ["/a"], "mode": "deny" },
    { "operations": ["read"], "paths": [], "mode": "deny" },
    { "operations": ["write"], "paths": ["/b"], "mode": "deny" }
  ]`);
  const [finding] = findings(text, CODE);
  assert.deepEqual(finding!.fixes!.map((f) => [f.title, f.safe]), [["Remove the rule", true]]);
  const fixed = applyFix(text, finding!);
  assert.equal(fixed, config(`"permissions": [
    { "operations": ["read"], "paths": ["/a"], "mode": "deny" },
    { "operations": ["write"], "paths": ["/b"], "mode": "deny" }
  ]`));
  expectNoFindings(fixed, CODE);
  assert.deepEqual(findings(fixed).filter((f) => f.severity === "error"), []);
});

test("the only rule of a deepagents-js list: the fix is offered but not safe, and the message says why (§1.3)", () => {
  const text = config(`"permissions": [
    { "operations": [], "paths": ["/s/**"], "mode": "deny" }
  ]`);
  const [finding] = findings(text, CODE);
  assert.match(finding!.detail!, /It is the list's only rule, though: deepagents-js 1\.14\.1 checks tool paths \(relative, "\.\.", "~"\) only while the agent has a rule/);
  assert.deepEqual(finding!.fixes!.map((f) => [f.title, f.safe]), [["Remove the rule", false]]);
  // deepagents-py validates every path, rules or not: there removing it is safe.
  const [py] = findings(config(`"runtime": "deepagents-py",
  "permissions": [
    { "operations": [], "paths": ["/s/**"], "mode": "deny" }
  ]`), CODE);
  assert.equal(py!.fixes![0]!.safe, true);
  assert.doesNotMatch(py!.detail!, /only rule/);
  // With deepagents-js only in compatibleWith, it still matters.
  const [compat] = findings(config(`"runtime": "deepagents-py",
  "compatibleWith": ["deepagents-js"],
  "permissions": [
    { "operations": [], "paths": ["/s/**"], "mode": "deny" }
  ]`), CODE);
  assert.equal(compat!.fixes![0]!.safe, false);
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`"permissions": [
    // agent-sandbox-ignore rule-empty
    { "operations": ["read"], "paths": [], "mode": "deny" }
  ]`), CODE);
});
