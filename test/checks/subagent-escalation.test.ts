import { test } from "node:test";
import assert from "node:assert/strict";
import { effectiveTools } from "../../server/src/engine/agents/effectiveTools";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "subagent-escalation";
const READ_ONLY = `"middleware": [{ "type": "filesystem", "tools": ["read_file", "ls", "glob", "grep"] }]`;

test("fires on a declarative subagent that regains the tools the main agent's allowlist hides (§6.4)", () => {
  const [f] = expectFindings(config(`"backend": { "type": "sandbox" },\n  ${READ_ONLY},\n  "subagents": [{ "name": ⟦"worker"⟧, "description": "w" }]`), CODE);
  assert.equal(f!.severity, "warning");
  assert.equal(f!.message, 'Subagent "worker" can use write_file, edit_file, delete, execute, which the main agent\'s allowlist hides.');
  assert.match(f!.detail!, /^The main agent's allowlist is that of middleware #0\. A declarative subagent does not inherit/);
});

test("fires when a subagent's own middleware allows more than the parent's", () => {
  expectFindings(config(`${READ_ONLY},\n  "subagents": [{ "name": ⟦"w"⟧, "description": "w", "middleware": [{ "type": "filesystem", "tools": ["read_file", "write_file"] }] }]`), CODE);
});

test("does not fire: no parent allowlist, the general-purpose subagent and a fork inherit it (JS), a subagent as narrow", () => {
  expectNoFindings(config(`"subagents": [{ "name": "w", "description": "w" }]`), CODE);
  expectNoFindings(config(`${READ_ONLY},\n  "subagents": [{ "name": "f", "description": "f", "mode": "fork" }]`), CODE);
  expectNoFindings(config(`${READ_ONLY},\n  "subagents": [{ "name": "w", "description": "w", "middleware": [{ "type": "filesystem", "tools": ["read_file"] }] }]`), CODE);
  // deepagents-py has no forks: the same subagent escapes there.
  expectFindings(config(`"runtime": "deepagents-py",\n  ${READ_ONLY},\n  "subagents": [{ "name": ⟦"f"⟧, "description": "f", "mode": "fork" }]`), CODE);
});

test("fix: give the subagent the main agent's allowlist, keeping its rules and backend", () => {
  const text = config(
    `"backend": { "type": "sandbox" },\n  "permissions": [{ "operations": ["write"], "paths": ["/etc/**"], "mode": "deny" }],\n  "middleware": [{ "type": "filesystem", "backend": { "type": "sandbox" }, "tools": ["read_file", "ls"], "permissions": [] }],\n  "subagents": [\n    {\n      "name": "worker",\n      "description": "w"\n    }\n  ]`,
  );
  const before = checkConfigText(text).model!;
  const rulesBefore = effectiveTools(before, "worker");
  assert.ok(rulesBefore!.find((t) => t.name === "write_file")!.visible);
  const fixed = applyFix(text, findings(text, CODE)[0]!);
  expectNoFindings(fixed, CODE);
  expectNoFindings(fixed, "middleware-drops-permissions");
  expectNoFindings(fixed, "middleware-drops-backend");
  const after = effectiveTools(checkConfigText(fixed).model!, "worker")!;
  assert.deepEqual(after.filter((t) => t.visible).map((t) => t.name), ["ls", "read_file"]);
  assert.match(fixed, /"name": "worker",\n      "description": "w",\n      "middleware": \[\n        \{\n          "type": "filesystem",\n          "tools": \["ls", "read_file"\],\n          "permissions": \[\{ "operations": \["write"\], "paths": \["\/etc\/\*\*"\], "mode": "deny" \}\],\n          "backend": \{ "type": "sandbox" \}\n        \}\n      \]\n    \}/);
});

test("fix on a subagent with its own middleware: narrow its allowlist", () => {
  const text = config(`${READ_ONLY},\n  "subagents": [{ "name": "w", "description": "w", "middleware": [{ "type": "filesystem", "tools": ["read_file", "write_file", "grep"] }] }]`);
  const fixed = applyFix(text, findings(text, CODE)[0]!);
  assert.ok(fixed.includes(`"tools": ["read_file", "grep"]`));
  expectNoFindings(fixed, CODE);
});
