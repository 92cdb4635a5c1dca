import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "middleware-drops-backend";

test("fires on a custom filesystem middleware without backend while the agent has one", () => {
  const [f] = expectFindings(config(`"backend": { "type": "sandbox" },\n  "middleware": [{ "type": ⟦"filesystem"⟧, "tools": ["read_file", "execute"] }]`), CODE);
  assert.equal(f!.message, "Middleware #0 has no backend: it falls back to its own state backend.");
  assert.match(f!.detail!, /uses its own state backend, not the agent's backend \(sandbox\).* execute disappears/);
  expectFindings(config(`"backend": { "type": "store" },\n  "subagents": [{ "name": "a", "description": "a", "middleware": [{ "type": ⟦"filesystem"⟧ }] }]`), CODE);
});

test("does not fire when the agent's backend is the default one, or the middleware has its own", () => {
  expectNoFindings(config(`"middleware": [{ "type": "filesystem" }]`), CODE);
  expectNoFindings(config(`"backend": { "type": "sandbox" },\n  "middleware": [{ "type": "filesystem", "backend": { "type": "store" } }]`), CODE);
});

test("fix: copy the agent's backend, multi-line layout kept", () => {
  const text = config(`"backend": { "type": "sandbox" },\n  "middleware": [\n    {\n      "type": "filesystem",\n      "tools": ["read_file", "execute"]\n    }\n  ]`);
  const fixed = applyFix(text, findings(text, CODE)[0]!);
  assert.ok(fixed.includes(`      "tools": ["read_file", "execute"],\n      "backend": { "type": "sandbox" }\n    }`), fixed);
  expectNoFindings(fixed, CODE);
  expectNoFindings(fixed, "tool-unavailable");
});
