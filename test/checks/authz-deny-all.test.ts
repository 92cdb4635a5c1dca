import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings } from "../helpers/checkFixture";

const CODE = "authz-deny-all";

test("fires on allow: false and allow: [] for tools, models and routes", () => {
  const found = expectFindings(
    config(`"authorization": { "enabled": true, "roles": {
      "locked": { "tools": { "allow": ⟦false⟧ }, "models": { "allow": ⟦[]⟧ }, "routes": { "allow": ⟦[ ]⟧, "deny": ["runs:create"] } }
    } }`),
    CODE,
  );
  assert.ok(found.every((f) => f.severity === "information"));
  assert.deepEqual(found.map((f) => f.message), [
    '"allow": false denies role "locked" every tool.',
    '"allow": [] denies role "locked" every model.',
    '"allow": [] denies role "locked" every Gateway route permission.',
  ]);
  assert.equal(
    found[0]!.detail,
    '"allow": false denies everything (an empty list is never "unset"): role "locked" may call no tool: DeerFlow removes every tool before the agent is built (Layer 1), framework tools such as task included, and denies any call that gets through (Layer 2).',
  );
  assert.match(found[1]!.detail!, /^"allow": \[\] denies everything .*role "locked" may use no model/);
  assert.match(found[2]!.detail!, /gets none of the six Gateway route permissions/);
});

test("does not fire on other allow forms, on an absent allow, or on unenforced/unknown resources", () => {
  expectNoFindings(
    config(`"authorization": { "roles": { "user": {
      "tools": { "allow": ["ls"] }, "models": { "allow": true }, "routes": { "deny": [] },
      "sandbox": { "allow": [] }, "skills": { "allow": false }, "tols": { "allow": [] }
    } } }`),
    CODE,
  );
  expectNoFindings(config(`"authorization": { "roles": { "user": { "tools": { "allow": "*" } } } }`), CODE);
});
