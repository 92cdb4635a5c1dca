import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";
import { deepagentsJs, deepagentsPy } from "../../server/src/engine/runtime";

const CODE = "pattern-root-globstar";

const rules = (paths: string, extra = "") => config(`${extra}"permissions": [
    { "operations": ["read", "write"], "paths": [${paths}], "mode": "deny" }
  ]`);

test("fires in deepagents-js with the root path it misses", () => {
  const found = expectFindings(rules(`⟦"/**/.env"⟧, ⟦"/**/*.txt"⟧, ⟦"/**/secrets/**"⟧`), CODE);
  assert.ok(found.every((f) => f.severity === "information"));
  assert.equal(
    found[0]!.message,
    'In deepagents-js 1.14.1, the pattern "/**/.env" does not match "/.env" at the root.',
  );
  assert.equal(
    found[0]!.detail,
    'In deepagents-js 1.14.1, a leading "/**/" needs at least one folder: this pattern does not match "/.env" at the root (deepagents-py 0.7.8 does match it). Write "/{,**/}.env" to include the root.',
  );
  assert.deepEqual(found.map((f) => f.witness), ["/.env", "/a.txt", "/secrets/a"]);
  // The witnesses, by the matchers: missed by deepagents-js, matched by the fix (G100, G28, G37, G101).
  for (const [pattern, witness] of [["/**/.env", "/.env"], ["/**/*.txt", "/a.txt"], ["/**/secrets/**", "/secrets/a"]] as const) {
    assert.ok(!deepagentsJs.compilePattern(pattern).matches(witness), pattern);
    assert.ok(deepagentsJs.compilePattern(pattern.replace("/**/", "/{,**/}")).matches(witness), pattern);
  }
  assert.ok(deepagentsPy.compilePattern("/**/.env").matches("/.env"));
});

test("fires when deepagents-js is only in compatibleWith", () => {
  const [finding] = expectFindings(rules(`⟦"/**/.env"⟧`, `"runtime": "deepagents-py",\n  "compatibleWith": ["deepagents-js"],\n  `), CODE);
  assert.match(finding!.message, /^In deepagents-js 1\.14\.1 \(in compatibleWith\), the pattern "/);
  assert.match(finding!.detail!, /^In deepagents-js 1\.14\.1 \(in compatibleWith\), a leading/);
});

test("does not fire for deepagents-py alone, a globstar later on, the portable form, or when the rule covers the root", () => {
  expectNoFindings(rules(`"/**/.env"`, `"runtime": "deepagents-py",\n  `), CODE);
  expectNoFindings(rules(`"/a/**/b", "/{,**/}.env", "/**", "/**/", "/**.env"`), CODE);
  expectNoFindings(rules(`"/**/.env", "/.env"`), CODE);
  expectNoFindings(rules(`"/**/./**", "/./**"`), CODE);
});

test("fix: `/**/x` → `/{,**/}x`; the finding goes and the root is matched", () => {
  const text = rules(`"/**/.env"`);
  const [finding] = findings(text, CODE);
  assert.deepEqual(finding!.fixes!.map((f) => [f.title, f.safe]), [['Include the root: "/{,**/}.env"', false]]);
  const fixed = applyFix(text, finding!);
  assert.ok(fixed.includes('"/{,**/}.env"'));
  expectNoFindings(fixed, CODE);
  assert.deepEqual(findings(fixed).filter((f) => f.severity === "error"), []);
  for (const p of ["/.env", "/a/.env", "/a/b/.env"]) {
    assert.ok(deepagentsJs.compilePattern("/{,**/}.env").matches(p), p);
    assert.ok(deepagentsPy.compilePattern("/{,**/}.env").matches(p), p);
  }
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["read"], "paths": [
    // agent-sandbox-ignore pattern-root-globstar
    "/**/.env"
  ] }]`), CODE);
});
