import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "schema";

test("fires on an unknown key (with did-you-mean), a bad enum value, a wrong type, a missing key", () => {
  const found = expectFindings(config(`⟦"permisions"⟧: [],\n  "runtime": ⟦"deepagents-ts"⟧,\n  "tools": ⟦"web_search"⟧`), CODE);
  assert.ok(found.every((f) => f.severity === "error"));
  assert.deepEqual(found.map((f) => f.message), [
    'Unknown key "permisions". Did you mean "permissions"?',
    '"deepagents-ts" is not allowed here. Expected one of: "deepagents-js", "deepagents-py". Did you mean "deepagents-js"?',
    "Expected a list, found a string.",
  ]);
  const [missing] = expectFindings(`⟦{⟧ "name": "agent" }`, CODE);
  assert.equal(missing!.message, 'Missing required key "version".');
  const [duplicate] = expectFindings(config(`"name": "a",\n  ⟦"name"⟧: "b"`), CODE);
  assert.equal(duplicate!.message, 'Duplicate key "name": only the last one counts.');
});

test("does not fire on a valid configuration", () => {
  expectNoFindings(
    config(`"runtime": "deepagents-py",
  "compatibleWith": ["deepagents-js"],
  "backend": { "type": "composite", "default": { "type": "state" }, "routes": { "/memories/": { "type": "store" } } },
  "permissions": [{ "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" }]`),
    CODE,
  );
});

test("fix (not safe): rename to the suggested key; the finding goes, nothing new appears at error level", () => {
  const text = config(`"permisions": [{ "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" }]`);
  const [finding] = findings(text, CODE);
  assert.deepEqual(finding!.fixes!.map((f) => [f.title, f.safe]), [['Rename to "permissions"', false]]);
  const fixed = applyFix(text, finding!);
  assert.ok(fixed.includes('"permissions": [{'));
  expectNoFindings(fixed, CODE);
  assert.deepEqual(findings(fixed).filter((f) => f.severity === "error"), []);
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`// agent-sandbox-ignore schema\n  "permisions": []`), CODE);
});

test("keys named like JavaScript's own object members are unknown keys too (review finding, 4 Dec)", () => {
  const found = expectFindings(config(`⟦"constructor"⟧: 1,\n  ⟦"toString"⟧: 2,\n  ⟦"__proto__"⟧: 3,\n  "backend": { "type": "state", ⟦"hasOwnProperty"⟧: {} }`), CODE);
  assert.ok(found.every((f) => /^Unknown key "/.test(f.message)), JSON.stringify(found.map((f) => f.message)));
});
