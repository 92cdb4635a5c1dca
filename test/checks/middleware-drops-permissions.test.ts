import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "middleware-drops-permissions";
const DENY = `[{ "operations": ["write"], "paths": ["/secrets/**"], "mode": "deny" }]`;

test("fires on a top-level custom filesystem middleware without permissions while the agent has some (#5388)", () => {
  const [f] = expectFindings(config(`"permissions": ${DENY},\n  "middleware": [{ "type": ⟦"filesystem"⟧, "tools": ["read_file", "write_file"] }]`), CODE);
  assert.equal(f!.severity, "warning");
  assert.equal(f!.message, "Middleware #0 has no permissions: the top-level 1 rule no longer applies to the main agent.");
  assert.match(f!.detail!, /the 1 rule no longer applies to the main agent, nor to the general-purpose subagent .*Declarative subagents still get them/);
});

test("fires on a subagent's own middleware that drops the rules it would inherit, or its own", () => {
  const [inherited, own] = expectFindings(
    config(`"permissions": ${DENY},\n  "subagents": [\n    { "name": "a", "description": "a", "middleware": [{ "type": ⟦"filesystem"⟧ }] },\n    { "name": "b", "description": "b", "permissions": ${DENY}, "middleware": [{ "type": ⟦"filesystem"⟧ }] }\n  ]`),
    CODE,
  );
  assert.equal(inherited!.message, 'Middleware #0 of subagent "a" has no permissions: subagent "a" loses its 1 rule.');
  assert.match(inherited!.detail!, /the top-level rules it would inherit/);
  assert.equal(own!.message, 'Middleware #0 of subagent "b" has no permissions: subagent "b" loses its 1 rule.');
  assert.match(own!.detail!, /its own "permissions"/);
});

test("§11.4: a forked subagent's own permissions are lost to the parent's custom middleware (deepagents-js)", () => {
  const text = config(`"middleware": [{ "type": "filesystem", "tools": ["read_file", "ls"] }],\n  "subagents": [{ "name": "f", "description": "f", "mode": "fork", ⟦"permissions"⟧: ${DENY} }]`);
  const [f] = expectFindings(text, CODE);
  assert.equal(f!.message, 'Subagent "f" is forked: its own permissions (1 rule) are silently lost.');
  assert.match(f!.detail!, /^It inherits the parent's custom filesystem middleware/);
  const fixed = applyFix(text.replace(/[⟦⟧]/g, ""), f!);
  expectNoFindings(fixed, CODE);
  expectNoFindings(config(`"runtime": "deepagents-py",\n  "middleware": [{ "type": "filesystem", "tools": ["read_file", "ls"] }],\n  "subagents": [{ "name": "f", "description": "f", "mode": "fork", "permissions": ${DENY} }]`), CODE);
});

test("does not fire when the middleware has permissions (even []), or there is nothing to drop", () => {
  expectNoFindings(config(`"permissions": ${DENY},\n  "middleware": [{ "type": "filesystem", "permissions": [] }]`), CODE);
  expectNoFindings(config(`"middleware": [{ "type": "filesystem" }]`), CODE);
  expectNoFindings(config(`"permissions": ${DENY},\n  "subagents": [{ "name": "a", "description": "a", "permissions": [], "middleware": [{ "type": "filesystem" }] }]`), CODE);
});

test("fix: copy the rules into the middleware", () => {
  const text = config(`"permissions": ${DENY},\n  "middleware": [{ "type": "filesystem", "tools": ["read_file", "write_file"] }]`);
  const fixed = applyFix(text, findings(text, CODE)[0]!);
  assert.ok(fixed.includes(`"tools": ["read_file", "write_file"], "permissions": ${DENY} }`), fixed);
  expectNoFindings(fixed, CODE);
});
