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
  assert.deepEqual(found.map((f) => f.message), [
    "This rule has no paths, so it never matches any tool call in deepagents-js 1.14.1; it decides nothing.",
    "This rule has no operations, so it never matches any tool call in deepagents-js 1.14.1; it decides nothing.",
    "This rule has no paths and no operations, so it never matches any tool call in deepagents-js 1.14.1; it decides nothing.",
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

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`"permissions": [
    // agent-sandbox-ignore rule-empty
    { "operations": ["read"], "paths": [], "mode": "deny" }
  ]`), CODE);
});
