import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings } from "../helpers/checkFixture";

const CODE = "path-parent-segment";

const rules = (paths: string, extra = "") => config(`${extra}"permissions": [
    { "operations": ["read"], "paths": [${paths}], "mode": "deny" }
  ]`);

test("fires on a `..` segment, quoting the runtime's exception (V3–V4)", () => {
  const found = expectFindings(rules(`⟦"/a/../b"⟧, ⟦"/.."⟧`), CODE);
  assert.ok(found.every((f) => f.severity === "error" && (f.fixes ?? []).length === 0));
  assert.equal(found[0]!.message, 'deepagents-js 1.14.1 refuses the path "/a/../b" when it builds the agent: it has a ".." segment.');
  assert.equal(found[0]!.detail, 'It throws: Error: path must not contain "..": "/a/../b"');
  const [py] = expectFindings(rules(`⟦"/a/../b"⟧`, `"runtime": "deepagents-py",\n  `), CODE);
  assert.equal(py!.message, 'deepagents-py 0.7.8 refuses the path "/a/../b" when it builds the agent: it has a ".." segment.');
  assert.equal(py!.detail, "It throws: ValueError: Permission path must not contain '..': '/a/../b'");
});

test("backslashes: only deepagents-py splits on them (V10), reported for it when in compatibleWith", () => {
  expectNoFindings(rules(`"/a\\\\..\\\\b"`), CODE);
  const [finding] = expectFindings(rules(`⟦"/a\\\\..\\\\b"⟧`, `"compatibleWith": ["deepagents-py"],\n  `), CODE);
  assert.equal(finding!.message, 'deepagents-py 0.7.8 (in compatibleWith) refuses the path "/a\\\\..\\\\b" when it builds the agent: it has a ".." segment.');
  assert.equal(finding!.detail, "It throws: ValueError: Permission path must not contain '..': '/a\\\\..\\\\b'");
});

test("does not fire on `..` inside a name (V9)", () => {
  expectNoFindings(rules(`"/a..b/**", "/foo..bar", "/.../x"`, `"compatibleWith": ["deepagents-py"],\n  `), CODE);
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["read"], "paths": [
    // agent-sandbox-ignore path-parent-segment
    "/a/../b"
  ] }]`), CODE);
});
