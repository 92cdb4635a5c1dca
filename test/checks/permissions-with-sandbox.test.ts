import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "permissions-with-sandbox";
const DENY = `[{ "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" }]`;
const JS_MESSAGE = "It throws: Error: Filesystem permissions cannot be used with a backend that supports command execution.";

test("fires on the permissions of a sandbox backend instance, quoting the runtime", () => {
  const [f] = expectFindings(config(`"backend": { "type": "sandbox" },\n  ⟦"permissions"⟧: ${DENY}`), CODE);
  assert.equal(f!.severity, "error");
  assert.equal(f!.message, "deepagents-js 1.14.1 refuses path rules on a backend that can execute shell commands.");
  assert.match(f!.detail!, /^deepagents-js 1\.14\.1 refuses this configuration when it constructs the default filesystem middleware of the main agent and the general-purpose subagent/);
  assert.ok(f!.detail!.includes(JS_MESSAGE), f!.detail);
  assert.deepEqual(f!.fixes ?? [], []);
});

test("deepagents-py: same, with its NotImplementedError", () => {
  const [f] = expectFindings(config(`"runtime": "deepagents-py",\n  "backend": { "type": "sandbox" },\n  ⟦"permissions"⟧: ${DENY}`), CODE);
  assert.match(f!.detail!, /It throws: NotImplementedError: FilesystemMiddleware does not yet support permissions/);
});

test("§4.4: fires although a custom filesystem middleware disables execute (the default one is still built)", () => {
  const [f] = expectFindings(
    config(`"backend": { "type": "sandbox" },\n  ⟦"permissions"⟧: ${DENY},\n  "middleware": [{ "type": "filesystem", "backend": { "type": "sandbox" }, "permissions": ${DENY}, "tools": ["read_file", "ls"] }]`),
    CODE,
  );
  assert.match(f!.detail!, /still constructed with these permissions although middleware #0 replaces it/);
  assert.equal(f!.related?.length, 2);
});

test("§4.4: fires on a subagent's own permissions (its default middleware is built eagerly)", () => {
  const [f] = expectFindings(config(`"backend": { "type": "sandbox" },\n  "subagents": [{ "name": "auditor", "description": "a", ⟦"permissions"⟧: ${DENY} }]`), CODE);
  assert.match(f!.detail!, /subagent "auditor"/);
});

test("fires on a composite with a sandbox default when a path is outside every route", () => {
  expectFindings(config(`"backend": { "type": "composite", "default": { "type": "sandbox" }, "routes": { "/memories/": { "type": "store" } } },\n  ⟦"permissions"⟧: ${DENY}`), CODE);
});

test("deepagents-py ignores tools: a custom middleware on a sandbox without execute still fails", () => {
  const mw = `"middleware": [{ "type": "filesystem", "backend": { "type": "sandbox" }, ⟦"permissions"⟧: ${DENY}, "tools": ["read_file", "ls"] }]`;
  const [f] = expectFindings(config(`"runtime": "deepagents-py",\n  ${mw}`), CODE);
  assert.match(f!.detail!, /ignores "tools" here/);
  // The middleware is named once ("the filesystem middleware middleware #0" before).
  assert.match(f!.detail!, /when it constructs the filesystem middleware #0: /);
  expectNoFindings(config(mw.replace(/[⟦⟧]/g, "")), CODE); // deepagents-js accepts it
});

test("does not fire: no rules, a backend that cannot execute, scoped rules, a factory (JS), a sandbox route only", () => {
  expectNoFindings(config(`"backend": { "type": "sandbox" },\n  "permissions": []`), CODE);
  expectNoFindings(config(`"backend": { "type": "store" },\n  "permissions": ${DENY}`), CODE);
  expectNoFindings(config(`"backend": { "type": "sandbox", "factory": true },\n  "permissions": ${DENY}`), CODE);
  expectNoFindings(config(`"backend": { "type": "composite", "default": { "type": "store" }, "routes": { "/sb/": { "type": "sandbox" } } },\n  "permissions": ${DENY}`), CODE);
  expectNoFindings(
    config(`"backend": { "type": "composite", "default": { "type": "sandbox" }, "routes": { "/secrets/": { "type": "store" } } },\n  "permissions": ${DENY}`),
    CODE,
  );
});

test("the fix the message names (scope every path to a route) makes it go away", () => {
  const before = config(`"backend": { "type": "composite", "default": { "type": "sandbox" }, "routes": { "/memories/": { "type": "store" } } },\n  "permissions": ${DENY}`);
  assert.equal(findings(before, CODE).length, 1);
  expectNoFindings(before.replace("/secrets/**", "/memories/secrets/**"), CODE);
});

test("when the build fails earlier (its tools, a refused path), the message says this error comes once that is fixed", () => {
  const tools = findings(config(`"middleware": [{ "type": "filesystem", "backend": { "type": "sandbox" }, "tools": ["execute", "ls"], "permissions": ${DENY} }]`), CODE);
  assert.equal(tools.length, 1);
  assert.match(tools[0]!.detail!, /Once the "tools" it refuses \(read-file-required\) are fixed, it throws: Error: Filesystem permissions cannot be used/);
  const path = findings(config(`"backend": { "type": "sandbox" },\n  "permissions": [{ "operations": ["read"], "paths": ["secrets/**"], "mode": "deny" }]`), CODE);
  assert.match(path[0]!.detail!, /Once the permission paths it refuses \(path-… findings\) are fixed, it throws:/);
  // Nothing earlier: it is what the runtime throws.
  assert.ok(findings(config(`"backend": { "type": "sandbox" },\n  "permissions": ${DENY}`), CODE)[0]!.detail!.includes(JS_MESSAGE));
});

test("a composite without routes: the message names that, not an unscoped path", () => {
  const [f] = findings(config(`"backend": { "type": "composite", "default": { "type": "sandbox" }, "routes": {} },\n  "permissions": [{ "operations": ["read"], "paths": [], "mode": "deny" }]`), CODE);
  assert.match(f!.detail!, /the composite has no routes, and the runtime scopes no path to a composite without routes/);
});
