import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { CompiledRuleList } from "../../server/src/engine/permissions/ruleList";
import { deepagentsJs, OPERATIONS } from "../../server/src/engine/runtime";

const CODE = "rule-redundant";
/** The engine runs the exact analysis when asked (the CLI and the editor ask by default; `check --no-analysis` does not). */
const ON = { analysis: true } as const;

test("fires when an earlier rule already decides every path the same way", () => {
  const [f] = expectFindings(
    config(`"permissions": [
      { "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" },
      ⟦{ "operations": ["read"], "paths": ["/secrets/key.pem"], "mode": "deny" }⟧
    ]`),
    CODE,
  );
  assert.equal(f!.severity, "hint");
  assert.deepEqual(f!.tags, ["unnecessary"]);
  assert.equal(f!.witness, "/secrets/key.pem");
  assert.equal(
    f!.message,
    "Rule 1 is redundant: removing it changes no decision.",
  );
  assert.equal(
    f!.detail,
    'In deepagents-js 1.14.1, earlier rules decide every path it matches, its own way: read "/secrets/key.pem" is denied by rule 0 (deny "/secrets/**") first.',
  );
  assert.equal(f!.fixes?.[0]?.title, "Remove rule");
  assert.equal(f!.fixes?.[0]?.safe, true);
});

test("fires on an allow that no later rule contradicts: the permissive default allows the same paths", () => {
  const [f] = expectFindings(
    config(`"permissions": [
      { "operations": ["write"], "paths": ["/secrets/**"], "mode": "deny" },
      ⟦{ "operations": ["read", "write"], "paths": ["/workspace/**"] }⟧
    ]`),
    CODE,
  );
  assert.match(f!.detail!, /would still be allowed, by the permissive default\.$/);
});

test("removing it changes no decision at all", () => {
  const text = config(`"permissions": [
    { "operations": ["read"], "paths": ["/a/**"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/a/b/c"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/**"], "mode": "allow" }
  ]`);
  const found = checkConfigText(text, ON).findings.filter((f) => f.code === CODE);
  assert.equal(found.length, 2); // /a/b/c (rule 0 decides it) and /** (the default allows the same)
  for (const f of found) {
    const fixed = applyFix(text, f);
    const before = new CompiledRuleList(deepagentsJs, checkConfigText(text).model!.permissions!.rules.map((r) => r.input));
    const after = new CompiledRuleList(deepagentsJs, checkConfigText(fixed).model!.permissions!.rules.map((r) => r.input));
    for (const op of OPERATIONS) {
      for (const path of ["/a", "/a/b", "/a/b/c", "/a/.x", "/b", "/", "/a/b/c/d"]) assert.equal(after.decide(op, path).decision, before.decide(op, path).decision, `${op} ${path}`);
    }
  }
});

test("does not fire on the workspace-isolation recipe, nor on a deny the default would not give", () => {
  expectNoFindings(
    config(`"permissions": [
      { "operations": ["read", "write"], "paths": ["/workspace/**"], "mode": "allow" },
      { "operations": ["read", "write"], "paths": ["/**"], "mode": "deny" }
    ]`),
    CODE,
  );
  expectNoFindings(config(`"permissions": [{ "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" }]`), CODE, ON);
});

test("a rule that matches no path at all is left to rule-empty and pattern-never-matches", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["write"], "paths": ["/workspace/tmp/"], "mode": "deny" }]`), CODE, ON);
});

test("exact, not approximate: picomatch's `*` matches a line separator where `**` does not, so this deny is not redundant", () => {
  // `/a/**` compiles to `.`-based pieces that stop at U+2028; `/a/b/*` to `[^/]`, which does not.
  const text = config(`"permissions": [
    { "operations": ["read"], "paths": ["/a/**"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/a/b/*"], "mode": "deny" }
  ]`);
  expectNoFindings(text, CODE, ON);
  const rules = new CompiledRuleList(deepagentsJs, checkConfigText(text).model!.permissions!.rules.map((r) => r.input));
  assert.equal(rules.decide("read", "/a/b/x\u2028").ruleIndex, 1);
});

// Three cases where the rule was redundant as the analysis sees it, but the safe "Remove
// rule" fix (applied by `check --fix`) would have changed what the agent may do, or thrown away what was meant.

test("not on a rule with a mistyped mode or operation: the typo's own error says how to repair it, and removing the rule would lose the intended deny", () => {
  const text = config(`"permissions": [
      { "operations": ["read", "write"], "paths": ["/workspace/secrets/**"], "mode": "Deny" },
      { "operations": ["raed"], "paths": ["/workspace/.env"], "mode": "deny" }
    ]`);
  expectNoFindings(text, CODE, ON);
  const codes = checkConfigText(text, ON).findings.map((f) => f.code);
  assert.ok(codes.includes("mode-unknown") && codes.includes("operation-unknown"), codes.join());
});

test("with deepagents-py in compatibleWith: not on a rule its witness shows deciding there (G6: `/ws/**` does not match `/ws` in Python), and never a safe fix", () => {
  const rules = `"permissions": [
      { "operations": ["read"], "paths": ["/ws/**"], "mode": "deny" },
      { "operations": ["read"], "paths": ["/ws"], "mode": "deny" }
    ]`;
  // Without the other runtime it is redundant, and the fix is safe.
  expectFindings(config(`"permissions": [
      { "operations": ["read"], "paths": ["/ws/**"], "mode": "deny" },
      ⟦{ "operations": ["read"], "paths": ["/ws"], "mode": "deny" }⟧
    ]`), CODE, ON);
  expectNoFindings(config(`"compatibleWith": ["deepagents-py"],\n  ${rules}`), CODE, ON);
  // A rule whose witness shows nothing there is still reported, but the proof is the config runtime's only: the
  // message says so, and --fix does not remove it.
  const [f] = expectFindings(config(`"compatibleWith": ["deepagents-py"],
  "permissions": [
      { "operations": ["read"], "paths": ["/ws/**"], "mode": "deny" },
      ⟦{ "operations": ["read"], "paths": ["/ws/key.pem"], "mode": "deny" }⟧
    ]`), CODE, ON);
  assert.match(f!.detail!, /\(Proved for deepagents-js 1\.14\.1 only: check deepagents-py 0\.7\.8, in compatibleWith, before removing it\.\)$/);
  assert.equal(f!.fixes?.[0]?.safe, false);
});

test("not on the only rule of a deepagents-js list: without rules the runtime checks no tool path at all (§1.3), so removing it changes `/a/../b` from an error to allowed", () => {
  expectNoFindings(config(`"permissions": [
      { "operations": ["read"], "paths": ["/workspace/**"], "mode": "allow" }
    ]`), CODE, ON);
  // deepagents-py validates every path with or without rules: there the last rule is removable.
  expectFindings(config(`"runtime": "deepagents-py",
  "permissions": [
      ⟦{ "operations": ["read"], "paths": ["/workspace/**"], "mode": "allow" }⟧
    ]`), CODE, ON);
});

test("Remove rule on the last rule keeps the comment lines above it (they are the user's); only the rule and its comma go", () => {
  const text = config(`"permissions": [
      { "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" },
      // Reviewed with security, 2025-03.
      { "operations": ["read"], "paths": ["/secrets/key.pem"], "mode": "deny" }
    ]`);
  const [f] = findings(text, CODE, ON);
  assert.equal(applyFix(text, f!), config(`"permissions": [
      { "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" }
      // Reviewed with security, 2025-03.
    ]`));
});
