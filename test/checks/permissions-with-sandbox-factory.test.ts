import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "permissions-with-sandbox-factory";
const DENY = `[{ "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" }]`;

test("fires on rules that reach a sandbox given as a factory (deepagents-js): execute fails on every call", () => {
  const [f] = expectFindings(config(`"backend": { "type": "sandbox", "factory": true },\n  ⟦"permissions"⟧: ${DENY}`), CODE);
  assert.equal(f!.severity, "warning");
  assert.equal(f!.message, "Every execute call fails: these permissions meet a sandbox backend given as a factory.");
  assert.match(f!.detail!, /^the main agent and the general-purpose subagent use a sandbox given as a factory/);
  assert.ok(f!.detail!.endsWith('every call answers: "Error: Execution not available. Filesystem permissions cannot be used with a backend that supports command execution because shell commands can access any path, making path-based rules ineffective."'));
  assert.equal(findings(config(`"backend": { "type": "sandbox", "factory": true },\n  "permissions": ${DENY}`), "permissions-with-sandbox").length, 0);
});

test("fires on a custom filesystem middleware whose own backend is a factory", () => {
  expectFindings(config(`"middleware": [{ "type": "filesystem", "backend": { "type": "sandbox", "factory": true }, ⟦"permissions"⟧: ${DENY} }]`), CODE);
});

test("does not fire: execute not allowlisted, no rules, an instance, deepagents-py (it takes no factories: an error instead)", () => {
  expectNoFindings(config(`"middleware": [{ "type": "filesystem", "backend": { "type": "sandbox", "factory": true }, "permissions": ${DENY}, "tools": ["read_file"] }]`), CODE);
  expectNoFindings(config(`"backend": { "type": "sandbox", "factory": true }`), CODE);
  expectNoFindings(config(`"backend": { "type": "sandbox" },\n  "permissions": ${DENY}`), CODE);
  const py = config(`"runtime": "deepagents-py",\n  "backend": { "type": "sandbox", "factory": true },\n  "permissions": ${DENY}`);
  expectNoFindings(py, CODE);
  assert.equal(findings(py, "permissions-with-sandbox").length, 1);
});

test("fixed by taking execute out of the allowlist (no fix is offered: the choice is yours)", () => {
  const [f] = findings(config(`"middleware": [{ "type": "filesystem", "backend": { "type": "sandbox", "factory": true }, "permissions": ${DENY} }]`), CODE);
  assert.deepEqual(f!.fixes ?? [], []);
  expectNoFindings(config(`"middleware": [{ "type": "filesystem", "backend": { "type": "sandbox", "factory": true }, "permissions": ${DENY}, "tools": ["read_file", "ls"] }]`), CODE);
});
