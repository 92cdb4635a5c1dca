import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { applyFix, config, expectNoFindings, findings } from "../helpers/checkFixture";

/** subagent-escalation, path half (automata/escalation.ts): an (operation, path) the parent denies and a subagent does not. */
const CODE = "subagent-escalation";
const PARENT = `"permissions": [
    { "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" }
  ]`;

test("permissions: [] makes a declarative subagent unrestricted (§6.1): read and write of the parent's secrets", () => {
  const [f] = findings(config(`${PARENT}, "subagents": [{ "name": "helper", "description": "h", "permissions": [] }]`), CODE);
  assert.equal(f!.severity, "warning");
  assert.equal(f!.witness, "/secrets");
  assert.equal(f!.message, 'Subagent "helper" can read /secrets and write /secrets, which the main agent\'s rules deny.');
  assert.equal(
    f!.detail,
    "Rule 0 of the top-level permissions denies it for the main agent. For the subagent, permissions: [] makes it unrestricted; read: it has no rules; write: it has no rules. Delegating through task gets around the restriction: give the subagent rules that deny these paths too.",
  );
  assert.equal(f!.related?.length, 2);
});

test("a subagent with its own rules that deny less: only what it lets through is reported", () => {
  const [f] = findings(config(`${PARENT}, "subagents": [{ "name": "auditor", "description": "a",
    "permissions": [{ "operations": ["write"], "paths": ["/**"], "mode": "deny" }] }]`), CODE);
  assert.match(f!.message, /^Subagent "auditor" can read \/secrets, which the main agent's rules deny/);
  assert.doesNotMatch(f!.message, /write/);
});

test("permissions: null inherits in JS (no finding) and means unrestricted in Python", () => {
  const sub = `"subagents": [{ "name": "helper", "description": "h", "permissions": null }]`;
  expectNoFindings(config(`${PARENT}, ${sub}`), CODE);
  const [f] = findings(config(`"runtime": "deepagents-py", ${PARENT}, ${sub}`), CODE);
  assert.match(f!.detail!, /permissions: null means unrestricted in deepagents-py/);
});

test("does not fire when the subagent inherits, or denies at least as much", () => {
  expectNoFindings(config(`${PARENT}, "subagents": [{ "name": "helper", "description": "h" }]`), CODE);
  expectNoFindings(config(`${PARENT}, "subagents": [{ "name": "helper", "description": "h",
    "permissions": [{ "operations": ["read", "write"], "paths": ["/**"], "mode": "deny" }] }]`), CODE);
});

test("the example config: the auditor can read what the main agent may not", () => {
  const dir = join(__dirname, "..", "..", "examples", "research-agent");
  const text = readFileSync(join(dir, "agent-sandbox.jsonc"), "utf8");
  const found = findings(text, CODE, { listDirectory: (p) => (p.replace(/^\.\//, "") === "sample-workspace" ? ["README.md"] : undefined) });
  const auditor = found.find((f) => f.message.startsWith('Subagent "auditor"'));
  assert.ok(auditor);
  assert.match(auditor.message, new RegExp(`can read ${auditor.witness!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")},`));
  // The writer has no permissions of its own: it inherits, so it escalates nothing.
  assert.ok(!found.some((f) => f.message.startsWith('Subagent "writer"')));
});

// diagnostics.md: "Fix: … prepend the parent's deny rules" (it was offered for the tool half only).
test("fix: prepend the main agent's deny rules, to an empty list, a list with rules, or in place of Python's null; the escalation is then gone", () => {
  const cases = [
    [config(`${PARENT}, "subagents": [{ "name": "helper", "description": "h", "permissions": [] }]`),
      config(`${PARENT}, "subagents": [{ "name": "helper", "description": "h", "permissions": [
    { "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" }
  ] }]`)],
    [config(`${PARENT}, "subagents": [{ "name": "auditor", "description": "a", "permissions": [
      { "operations": ["read"], "paths": ["/**"], "mode": "allow" }
    ] }]`),
      config(`${PARENT}, "subagents": [{ "name": "auditor", "description": "a", "permissions": [
      { "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" },
      { "operations": ["read"], "paths": ["/**"], "mode": "allow" }
    ] }]`)],
    [config(`"runtime": "deepagents-py", ${PARENT}, "subagents": [{ "name": "helper", "description": "h", "permissions": null }]`),
      config(`"runtime": "deepagents-py", ${PARENT}, "subagents": [{ "name": "helper", "description": "h", "permissions": [
    { "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" }
  ] }]`)],
  ] as const;
  for (const [before, after] of cases) {
    const [f] = findings(before, CODE);
    assert.deepEqual(f!.fixes!.map((x) => [x.title, x.safe]), [["Prepend the main agent's deny rules (1)", false]]);
    const fixed = applyFix(before, f!);
    assert.equal(fixed, after);
    expectNoFindings(fixed, CODE);
  }
});
