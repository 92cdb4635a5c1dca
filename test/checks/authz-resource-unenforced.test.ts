import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings } from "../helpers/checkFixture";

const CODE = "authz-resource-unenforced";

test("fires on skills, sandbox and mcp_servers policies", () => {
  const found = expectFindings(
    config(`"authorization": { "enabled": true, "roles": {
      "guest": { "tools": { "allow": ["ls"] }, ⟦"skills"⟧: { "allow": ["report"] }, ⟦"sandbox"⟧: { "allow": [] }, ⟦"mcp_servers"⟧: { "deny": ["github"] } }
    } }`),
    CODE,
  );
  assert.ok(found.every((f) => f.severity === "information"));
  assert.deepEqual(found.map((f) => f.message), [
    'DeerFlow does not enforce "skills" policies yet: this restricts nothing.',
    'DeerFlow does not enforce "sandbox" policies yet: this restricts nothing.',
    'DeerFlow does not enforce "mcp_servers" policies yet: this restricts nothing.',
  ]);
  assert.equal(
    found[0]!.detail,
    'DeerFlow accepts "skills" policies but does not enforce them anywhere yet (only tools, models and routes are checked), so this does not restrict role "guest".',
  );
  assert.match(found[2]!.detail!, /list them under "tools" by their bound names \(<server>_<tool>\)/);
});

test("does not fire on enforced or unknown keys", () => {
  expectNoFindings(config(`"authorization": { "roles": { "user": { "tools": {}, "models": {}, "routes": {}, "tols": {}, "skill": {} } } }`), CODE);
  expectNoFindings(config(`"authorization": { "roles": { "skills": { "tools": {} } } }`), CODE);
});
