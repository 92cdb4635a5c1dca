import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "tool-duplicate";

test("fires on the repeats in an allowlist and in user tool lists", () => {
  const [f] = expectFindings(config(`"middleware": [{ "type": "filesystem", "tools": ["read_file", "ls", ⟦"read_file"⟧] }]`), CODE);
  assert.equal(f!.severity, "hint");
  assert.deepEqual(f!.tags, ["unnecessary"]);
  assert.equal(f!.related?.[0]?.message, "first listed here");
  expectFindings(config(`"tools": ["web_search", ⟦"web_search"⟧],\n  "subagents": [{ "name": "a", "description": "a", "tools": ["x", ⟦"x"⟧] }]`), CODE);
});

test("does not fire on distinct names", () => {
  expectNoFindings(config(`"tools": ["a", "b"],\n  "middleware": [{ "type": "filesystem", "tools": ["read_file", "ls"] }]`), CODE);
});

test("fix: remove the repeat (safe)", () => {
  const text = config(`"tools": [\n    "web_search",\n    "web_search"\n  ]`);
  const [f] = findings(text, CODE);
  assert.equal(f!.fixes![0]!.safe, true);
  const fixed = applyFix(text, f!);
  // The shared removal keeps the last comma when the element stood alone on its line (valid JSONC).
  assert.equal(fixed, config(`"tools": [\n    "web_search"\n  ]`));
  expectNoFindings(fixed, CODE);
});
