import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "path-not-absolute";

const rules = (paths: string, extra = "") => config(`${extra}"permissions": [
    { "operations": ["read"], "paths": [${paths}], "mode": "deny" }
  ]`);

test("fires on relative paths, negations and home paths, quoting the runtime's exception (V1, V7, V13)", () => {
  const found = expectFindings(rules(`⟦"workspace/**"⟧, ⟦"!/secrets/**"⟧, ⟦"~/x"⟧, "/ok/**"`), CODE);
  assert.ok(found.every((f) => f.severity === "error"));
  assert.equal(found[0]!.message, 'deepagents-js 1.14.1 refuses the path "workspace/**" when it builds the agent: it does not start with "/".');
  assert.equal(found[0]!.detail, 'It throws: Error: path must be absolute: "workspace/**"');
  const [py] = expectFindings(rules(`⟦"workspace/**"⟧`, `"runtime": "deepagents-py",\n  `), CODE);
  assert.equal(py!.message, 'deepagents-py 0.7.8 refuses the path "workspace/**" when it builds the agent: it does not start with "/".');
  assert.equal(py!.detail, "It throws: ValueError: Permission path must start with '/': 'workspace/**'");
});

test("fires in subagents' and middleware's rule lists too", () => {
  expectFindings(
    config(`"middleware": [{ "type": "filesystem", "permissions": [{ "operations": ["read"], "paths": [⟦"a"⟧] }] }],
  "subagents": [{ "name": "s", "description": "d", "permissions": [{ "operations": ["read"], "paths": [⟦"b"⟧] }] }]`),
    CODE,
  );
});

test("does not fire on absolute patterns, nor on empty ones (path-empty's job)", () => {
  expectNoFindings(rules(`"/workspace/**", "/", "/~user/x", "/a..b/**", ""`), CODE);
});

test("fix (safe): prefix `/` when the rest reads as a path; none for `!`, `~`, `./`", () => {
  const text = rules(`"workspace/**"`);
  const [finding] = findings(text, CODE);
  assert.deepEqual(finding!.fixes!.map((f) => [f.title, f.safe]), [['Make it absolute: "/workspace/**"', true]]);
  const fixed = applyFix(text, finding!);
  assert.ok(fixed.includes('"paths": ["/workspace/**"]'));
  expectNoFindings(fixed, CODE);
  assert.deepEqual(findings(fixed).filter((f) => f.severity === "error"), []);
  for (const f of findings(rules(`"!/secrets/**", "~/x", "./x", "../x"`), CODE)) assert.deepEqual(f.fixes, [], f.message);
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["read"], "paths": [
    // agent-sandbox-ignore path-not-absolute
    "workspace/**"
  ] }]`), CODE);
});

test("the fix is not applied by --fix when the prefixed pattern is still refused: `..` or `~` inside", () => {
  for (const [pattern, code] of [["a/../b", "path-parent-segment"], ["c/~/d", "path-tilde-segment"]] as const) {
    const text = rules(JSON.stringify(pattern));
    const [finding] = findings(text, CODE);
    assert.deepEqual(finding!.fixes!.map((f) => [f.title, f.safe]), [[`Make it absolute: "/${pattern}"`, false]], pattern);
    assert.ok(findings(applyFix(text, finding!)).some((f) => f.code === code), pattern);
  }
});
