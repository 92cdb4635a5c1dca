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
  assert.equal(
    found[0]!.message,
    'DeerFlow accepts "skills" policies but does not enforce them anywhere yet (only tools, models and routes are checked), so this does not restrict role "guest".',
  );
  assert.match(found[2]!.message, /list them under "tools" by their bound names \(`<server>_<tool>`\)/);
});

test("does not fire on enforced or unknown keys", () => {
  expectNoFindings(config(`"authorization": { "roles": { "user": { "tools": {}, "models": {}, "routes": {}, "tols": {}, "skill": {} } } }`), CODE);
  expectNoFindings(config(`"authorization": { "roles": { "skills": { "tools": {} } } }`), CODE);
});
