import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings } from "../helpers/checkFixture";

const CODE = "path-tilde-segment";

const rules = (paths: string, extra = "") => config(`${extra}"permissions": [
    { "operations": ["read"], "paths": [${paths}], "mode": "deny" }
  ]`);

test("fires on a `~` segment, quoting the runtime's exception (V5–V6)", () => {
  const found = expectFindings(rules(`⟦"/a/~"⟧, ⟦"/~/data/**"⟧`), CODE);
  assert.ok(found.every((f) => f.severity === "error" && (f.fixes ?? []).length === 0));
  assert.equal(found[0]!.message, 'deepagents-js 1.14.1 refuses the path "/a/~" when it builds the agent: it has a "~" segment.');
  assert.equal(found[0]!.detail, 'It throws: Error: path must not contain "~": "/a/~"');
  const [py] = expectFindings(rules(`⟦"/a/~"⟧`, `"runtime": "deepagents-py",\n  `), CODE);
  assert.equal(py!.message, 'deepagents-py 0.7.8 refuses the path "/a/~" when it builds the agent: it has a "~" segment.');
  assert.equal(py!.detail, "It throws: NotImplementedError: Permission path must not contain '~': '/a/~'");
});

test("does not fire on `~` inside a name (V8), nor on `~/x` (path-not-absolute's job, V7)", () => {
  expectNoFindings(rules(`"/~user/x", "/a~/b", "~/x"`, `"compatibleWith": ["deepagents-py"],\n  `), CODE);
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["read"], "paths": [
    // agent-sandbox-ignore path-tilde-segment
    "/a/~"
  ] }]`), CODE);
});
