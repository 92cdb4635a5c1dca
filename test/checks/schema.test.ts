import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "schema";

test("fires on an unknown key (with did-you-mean), a bad enum value, a wrong type, a missing key", () => {
  const found = expectFindings(config(`⟦"permisions"⟧: [],\n  "runtime": ⟦"deepagents-ts"⟧,\n  "tools": ⟦"web_search"⟧`), CODE);
  assert.ok(found.every((f) => f.severity === "error"));
  assert.deepEqual(found.map((f) => [f.message, f.detail]), [
    ['Unknown key "permisions" (did you mean "permissions"?).', undefined],
    ['"deepagents-ts" is not allowed here (did you mean "deepagents-js"?).', 'Expected one of: "deepagents-js", "deepagents-py".'],
    ["Expected a list, found a string.", undefined],
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

test("keys named like JavaScript's own object members are unknown keys too", () => {
  const found = expectFindings(config(`⟦"constructor"⟧: 1,\n  ⟦"toString"⟧: 2,\n  ⟦"__proto__"⟧: 3,\n  "backend": { "type": "state", ⟦"hasOwnProperty"⟧: {} }`), CODE);
  assert.ok(found.every((f) => /^Unknown key "/.test(f.message)), JSON.stringify(found.map((f) => f.message)));
});

test("a key written twice: only its last value is checked, as only it counts (a backend's `type` included)", () => {
  // The first `type` chose the branch, so the sandbox's own key was unknown and the value that counts was wrong.
  const backend = findings(config(`"backend": { "type": "state", "type": "sandbox", "provider": "modal" }`), CODE);
  assert.deepEqual(backend.map((f) => f.message), ['Duplicate key "type": only the last one counts.']);
  const middleware = findings(config(`"middleware": [{ "type": "custom", "type": "filesystem", "tools": "all" }]`), CODE);
  assert.deepEqual(middleware.map((f) => f.message), ['Duplicate key "type": only the last one counts.']);
  // The earlier value is not checked, the last one is.
  assert.deepEqual(findings(config(`"name": 1,\n  "name": "a"`), CODE).map((f) => f.message), ['Duplicate key "name": only the last one counts.']);
  assert.deepEqual(findings(config(`"name": "a",\n  "name": 1`), CODE).map((f) => f.message), ['Duplicate key "name": only the last one counts.', "Expected a string, found a number."]);
});

test("did-you-mean measures every candidate exactly: a long typo gets the nearest value, or none", () => {
  // Lengths 4 apart used to count as distance 4 for both runtimes, and the first won.
  const [runtime] = findings(config(`"runtime": "deepagents-python"`), CODE);
  assert.match(runtime!.message, /\(did you mean "deepagents-py"\?\)\.$/);
  assert.deepEqual(runtime!.fixes!.map((f) => f.title), ['Change to "deepagents-py"']);
  // Nothing near: the allowed keys are listed instead of a rename to an unrelated one.
  const [provider] = findings(config(`"authorization": { "enabled": true, "roles": { "user": { "tools": { "allow": "*" } } }, "provider": {} }`), CODE);
  assert.doesNotMatch(provider!.message, /did you mean/);
  assert.equal(provider!.fixes, undefined);
  // … and this one says where DeerFlow's key goes here.
  assert.equal(provider!.message, 'Unknown key "provider".');
  assert.match(provider!.detail!, /^DeerFlow's config\.yaml keeps "roles" under "provider\.config"; here "roles" sits directly under "authorization"/);
});

test("authorization's enabled and fail_closed take what DeerFlow's Pydantic reads as a bool, and nothing else", () => {
  // The engine reads "yes" as true (deerflow-authorization.md A.1.1: a lax bool), so the schema must not call it an error.
  for (const value of ['"yes"', '"Off"', '"T"', "1", "0", "true", "false"]) {
    expectNoFindings(config(`"authorization": { "enabled": ${value}, "fail_closed": ${value}, "roles": { "user": { "tools": { "allow": "*" } } } }`), CODE);
  }
  for (const value of ['"maybe"', "2", "null", "[]", '""']) {
    const found = findings(config(`"authorization": { "enabled": ${value}, "roles": { "user": { "tools": { "allow": "*" } } } }`), CODE);
    assert.equal(found.length, 1, value);
    assert.match(found[0]!.message, /^Expected true or false, found /);
    assert.match(found[0]!.detail!, /^DeerFlow also reads Pydantic's lax forms/);
  }
});
