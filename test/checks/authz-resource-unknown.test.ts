import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "authz-resource-unknown";

test("fires on a resource key no consumer reads, with did-you-mean", () => {
  const found = expectFindings(
    config(`"authorization": { "enabled": true, "roles": {
      "user": { ⟦"tols"⟧: { "allow": [] }, ⟦"modles"⟧: { "allow": ["gpt-4o"] } },
      "guest": { ⟦"custom_resource"⟧: { "allow": ["item1"] }, ⟦"Routes"⟧: {} }
    } }`),
    CODE,
  );
  assert.ok(found.every((f) => f.severity === "warning"));
  assert.equal(found[0]!.message, 'DeerFlow never looks up the resource key "tols": this policy restricts nothing.');
  assert.match(found[0]!.detail!, /^Its consumers ask only for tools, models and routes \(skills, sandbox and mcp_servers are accepted but unenforced\)\. /);
  assert.match(found[0]!.detail!, /Did you mean "tools"\? As written, role "user" has no "tools" policy, so every tool stays allowed\.$/);
  assert.match(found[1]!.detail!, /Did you mean "models"\?.*every model stays allowed/);
  assert.doesNotMatch(found[2]!.detail!, /Did you mean/);
  assert.match(found[3]!.detail!, /Did you mean "routes"\?/);
});

test("says which policy is used when the intended key is also there", () => {
  const [f] = findings(config(`"authorization": { "roles": { "user": { "tools": {}, "tols": { "allow": [] } } } }`), CODE);
  assert.match(f!.detail!, /Did you mean "tools"\? \(role "user" also has a "tools" policy; that one is used\.\)$/);
  assert.deepEqual(f!.fixes, []);
});

test("does not fire on the known keys, on reserved aliases (authz-invalid) or on an empty key", () => {
  expectNoFindings(
    config(`"authorization": { "roles": { "user": {
      "tools": {}, "models": {}, "routes": {}, "skills": {}, "sandbox": {}, "mcp_servers": {},
      "tool": {}, "model": {}, "mcp_server": {}, "": {}
    } } }`),
    CODE,
  );
});

test("fix: rename the key", () => {
  const text = config(`"authorization": { "enabled": true, "roles": { "user": { "tols": { "allow": ["ls"] } } } }`);
  const [f] = findings(text, CODE);
  assert.equal(f!.fixes![0]!.title, 'Rename to "tools"');
  const fixed = applyFix(text, f!);
  assert.match(fixed, /"tools": \{ "allow": \["ls"\] \}/);
  expectNoFindings(fixed, CODE);
});
