import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings } from "../helpers/checkFixture";

const CODE = "path-empty";

const rules = (paths: string, extra = "") => config(`${extra}"permissions": [
    { "operations": ["read"], "paths": [${paths}], "mode": "deny" }
  ]`);

test("fires on \"\" and on non-strings, quoting the runtime's exception (V2, V14)", () => {
  const found = expectFindings(rules(`"/ok", ⟦""⟧, ⟦123⟧, ⟦null⟧`), CODE);
  assert.ok(found.every((f) => f.severity === "error" && (f.fixes ?? []).length === 0));
  assert.deepEqual(found.map((f) => [f.message, f.detail]), [
    ["deepagents-js 1.14.1 refuses this path when it builds the agent: it is empty.", "It throws: Error: path must be a non-empty string"],
    ...Array(2).fill(["deepagents-js 1.14.1 refuses this path when it builds the agent: it is not a string.", "It throws: Error: path must be a non-empty string"]),
  ]);
  const py = expectFindings(rules(`⟦""⟧, ⟦123⟧, ⟦null⟧`, `"runtime": "deepagents-py",\n  `), CODE);
  assert.deepEqual(py.map((f) => [f.message, f.detail]), [
    ["deepagents-py 0.7.8 refuses this path when it builds the agent: it is empty.", "It throws: ValueError: Permission path must start with '/': ''"],
    ["deepagents-py 0.7.8 refuses this path when it builds the agent: it is not a string.", "It throws: AttributeError: 'int' object has no attribute 'startswith'"],
    ["deepagents-py 0.7.8 refuses this path when it builds the agent: it is not a string.", "It throws: AttributeError: 'NoneType' object has no attribute 'startswith'"],
  ]);
});

test("does not fire on non-empty strings", () => {
  expectNoFindings(rules(`"/a", "relative", " "`), CODE);
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["read"], "paths": [
    // agent-sandbox-ignore path-empty
    ""
  ] }]`), CODE);
});
