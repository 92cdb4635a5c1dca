import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "tool-unavailable";

test("fires on execute for a backend that cannot execute, and on delete for one that cannot delete", () => {
  const [execute, del] = expectFindings(
    config(`"middleware": [{ "type": "filesystem", "backend": { "type": "custom", "name": "ro", "capabilities": { "execute": false, "delete": false } }, "tools": ["read_file", ⟦"execute"⟧, ⟦"delete"⟧] }]`),
    CODE,
  );
  assert.equal(execute!.message, '"execute" is listed, but deepagents-js 1.14.1 filters it out at every model call.');
  assert.equal(execute!.detail, 'execute needs a sandbox backend, and the backend of middleware #0 is custom backend "ro".');
  assert.match(del!.detail!, /delete needs a backend that deletes/);
});

test("a middleware without backend falls back to a state backend: execute is unavailable even on a sandbox agent", () => {
  const [f] = expectFindings(config(`"backend": { "type": "sandbox" },\n  "middleware": [{ "type": "filesystem", "tools": ["read_file", ⟦"execute"⟧] }]`), CODE);
  assert.match(f!.detail!, /its own state backend/);
});

test("does not fire when the backend can: a sandbox, a composite with a sandbox default; delete on any built-in backend", () => {
  expectNoFindings(config(`"middleware": [{ "type": "filesystem", "backend": { "type": "sandbox" }, "tools": ["read_file", "execute", "delete"] }]`), CODE);
  expectNoFindings(config(`"middleware": [{ "type": "filesystem", "backend": { "type": "composite", "default": { "type": "sandbox" }, "routes": {} }, "tools": ["read_file", "execute"] }]`), CODE);
  expectNoFindings(config(`"middleware": [{ "type": "filesystem", "tools": ["read_file", "delete"] }]`), CODE);
});

test("fix: remove it", () => {
  const text = config(`"middleware": [{ "type": "filesystem", "tools": ["read_file", "execute"] }]`);
  const fixed = applyFix(text, findings(text, CODE)[0]!);
  assert.ok(fixed.includes(`"tools": ["read_file"]`));
  expectNoFindings(fixed, CODE);
});
