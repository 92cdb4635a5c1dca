import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "rule-partially-shadowed";

test("the workspace-isolation recipe: deny /** still decides most paths, but not the workspace", () => {
  const [f] = expectFindings(
    config(`"permissions": [
      { "operations": ["read", "write"], "paths": ["/workspace/**"], "mode": "allow" },
      ⟦{ "operations": ["read", "write"], "paths": ["/**"], "mode": "deny" }⟧
    ]`),
    CODE,
  );
  assert.equal(f!.severity, "information");
  assert.equal(f!.witness, "/workspace");
  assert.equal(
    f!.message,
    "Rule 0 decides part of rule 1's paths first, the other way.",
  );
  assert.equal(
    f!.detail,
    'Part of this rule\'s paths is decided first, the other way, by rule 0 (allow "/workspace/**") in deepagents-js 1.14.1: read "/workspace" is allowed there, not denied by this rule (first match wins). The rest it still decides, for example read "/".',
  );
  assert.equal(f!.related?.length, 1);
  assert.equal(f!.fixes, undefined);
});

test("prefers a sample-workspace file as the witness", () => {
  const [f] = expectFindings(
    config(`"workspace": { "root": "./ws" }, "permissions": [
      { "operations": ["read"], "paths": ["/workspace/**"], "mode": "allow" },
      ⟦{ "operations": ["read"], "paths": ["/**"], "mode": "deny" }⟧
    ]`),
    CODE,
    { listDirectory: (dir) => (dir === "./ws" ? ["notes.md"] : undefined) },
  );
  assert.equal(f!.witness, "/workspace/notes.md");
});

test("does not fire when the earlier rule decides its part the same way, or when nothing overlaps", () => {
  expectNoFindings(
    config(`"permissions": [
      { "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" },
      { "operations": ["read"], "paths": ["/**"], "mode": "deny" }
    ]`),
    CODE,
  );
  expectNoFindings(
    config(`"permissions": [
      { "operations": ["read"], "paths": ["/a/**"], "mode": "allow" },
      { "operations": ["read"], "paths": ["/b/**"], "mode": "deny" }
    ]`),
    CODE,
  );
});

test("does not fire on a rule that decides nothing (that is rule-shadowed)", () => {
  expectNoFindings(
    config(`"permissions": [
      { "operations": ["read"], "paths": ["/workspace/**"], "mode": "allow" },
      { "operations": ["read"], "paths": ["/workspace/.env"], "mode": "deny" }
    ]`),
    CODE,
  );
});

test("partly taken by a dozen earlier rules: the message names three, related information points at eight", () => {
  const earlier = Array.from({ length: 12 }, (_, i) => `{ "operations": ["read"], "paths": ["/w/k${i}/**", "/w/k${i}"], "mode": "allow" }`);
  const text = config(`"permissions": [\n    ${earlier.join(",\n    ")},\n    { "operations": ["read"], "paths": ["/w/**"], "mode": "deny" }\n  ]`);
  const found = findings(text, "rule-partially-shadowed");
  assert.equal(found.length, 1);
  const [f] = found;
  assert.equal(f!.message, "12 earlier rules decide part of rule 12's paths first, the other way.");
  assert.match(f!.detail!, /^Part of this rule's paths is decided first, the other way, by rule 0 \(allow \["\/w\/k0\/\*\*", "\/w\/k0"\]\), rule 1 \(allow \["\/w\/k1\/\*\*", "\/w\/k1"\]\), rule 2 \(allow \["\/w\/k2\/\*\*", "\/w\/k2"\]\) and 9 more earlier rules in deepagents-js 1\.14\.1: /);
  assert.equal(f!.related?.length, 8);
});
