import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "mode-unknown";

test("fires on an unknown mode: it silently allows and stops later rules (V20)", () => {
  const found = expectFindings(
    config(`"permissions": [
    { "operations": ["read"], "paths": ["/secrets/**"], "mode": ⟦"block"⟧ },
    { "operations": ["read"], "paths": ["/x"], "mode": ⟦"Deny"⟧ },
    { "operations": ["read"], "paths": ["/**"], "mode": "deny" }
  ]`),
    CODE,
  );
  assert.ok(found.every((f) => f.severity === "error"));
  assert.deepEqual(found.map((f) => [f.message, f.detail]), [
    [
      'Unknown mode "block": a match silently allows the call.',
      'deepagents-js 1.14.1 knows "allow", "deny". Any other mode is returned as the decision, which is not "deny": a match silently ALLOWS the call, and later rules are never consulted.',
    ],
    [
      'Unknown mode "Deny": a match silently allows the call.',
      'deepagents-js 1.14.1 knows "allow", "deny". Any other mode is returned as the decision, which is not "deny": a match silently ALLOWS the call, and later rules are never consulted. Did you mean "deny"?',
    ],
  ]);
  assert.deepEqual(found.map((f) => (f.fixes ?? []).length), [0, 1]);
});

test("`interrupt` in deepagents-js: no human-in-the-loop, silently allows (V21); valid in deepagents-py", () => {
  const [finding] = expectFindings(config(`"permissions": [{ "operations": ["write"], "paths": ["/x"], "mode": ⟦"interrupt"⟧ }]`), CODE);
  assert.equal(finding!.message, 'Mode "interrupt" exists only in deepagents-py: here a match silently allows the call.');
  assert.equal(finding!.detail, "deepagents-js 1.14.1 has no human-in-the-loop for rules: a match silently ALLOWS the call, and later rules are never consulted.");
  assert.deepEqual(finding!.fixes, []);
  expectNoFindings(config(`"runtime": "deepagents-py",\n  "permissions": [{ "operations": ["write"], "paths": ["/x"], "mode": "interrupt" }]`), CODE);
});

test("does not fire on allow, deny, or an omitted mode", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["read"], "paths": ["/a"], "mode": "allow" }, { "operations": ["read"], "paths": ["/b"], "mode": "deny" }, { "operations": ["read"], "paths": ["/c"] }]`), CODE);
});

test("fix (not safe): change to the suggested mode; the finding goes, nothing new at error level", () => {
  const text = config(`"permissions": [{ "operations": ["read"], "paths": ["/x"], "mode": "dney" }]`);
  const [finding] = findings(text, CODE);
  assert.deepEqual(finding!.fixes!.map((f) => [f.title, f.safe]), [['Change to "deny"', false]]);
  const fixed = applyFix(text, finding!);
  assert.ok(fixed.includes('"mode": "deny"'));
  expectNoFindings(fixed, CODE);
  assert.deepEqual(findings(fixed).filter((f) => f.severity === "error"), []);
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`"permissions": [
    // agent-sandbox-ignore mode-unknown
    { "operations": ["read"], "paths": ["/x"], "mode": "block" }
  ]`), CODE);
});
