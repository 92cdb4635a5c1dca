import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "authz-default-role-undefined";
const FACTORY = "Invalid authorization default_role for provider 'deerflow.authz.rbac:RbacAuthorizationProvider': ";

test("fires on a default_role that is not a declared role, with DeerFlow's message", () => {
  const [f] = expectFindings(
    config(`"authorization": { "enabled": true, "default_role": ⟦"member"⟧, "roles": { "guest": {}, "admin": {} } }`),
    CODE,
  );
  assert.equal(f!.severity, "error");
  assert.equal(f!.message, 'DeerFlow refuses to build the agent: the default role "member" is not a declared role.');
  assert.equal(
    f!.detail,
    `The default role (used when a request has no role) must be one of the roles declared here. ${FACTORY}authorization.default_role 'member' is not defined; known roles: ['admin', 'guest']`,
  );
});

test("fires on the roles key when default_role is omitted and no role is named \"user\"", () => {
  const [f] = expectFindings(config(`"authorization": { "enabled": true, ⟦"roles"⟧: { "admin": {} } }`), CODE);
  assert.equal(f!.message, 'DeerFlow refuses to build the agent: the default role "user" is not a declared role.');
  assert.match(f!.detail!, / default_role is not set, so it is "user"\. /);
  assert.ok(f!.detail!.endsWith(`${FACTORY}authorization.default_role 'user' is not defined; known roles: ['admin']`));
});

test("fires on an empty default_role", () => {
  const [f] = expectFindings(config(`"authorization": { "enabled": true, "default_role": ⟦""⟧, "roles": { "user": {} } }`), CODE);
  assert.equal(f!.message, "DeerFlow refuses to build the agent: the default role written here is not a declared role.");
  assert.ok(f!.detail!.endsWith(`${FACTORY}authorization.default_role must be a non-empty string, got ''`));
});

test("does not fire when the role is declared, when disabled, or when roles is not an object", () => {
  expectNoFindings(config(`"authorization": { "enabled": true, "default_role": "guest", "roles": { "guest": {} } }`), CODE);
  expectNoFindings(config(`"authorization": { "enabled": true, "roles": { "user": { "tools": { "allow": "*" } } } }`), CODE);
  expectNoFindings(config(`"authorization": { "enabled": false, "default_role": "member", "roles": { "guest": {} } }`), CODE);
  expectNoFindings(config(`"authorization": { "default_role": "member", "roles": { "guest": {} } }`), CODE);
  expectNoFindings(config(`"authorization": { "enabled": true, "roles": "x" }`), CODE);
  expectNoFindings(config(`"authorization": { "enabled": true }`), CODE);
});

test("fix: did-you-mean on a near-miss role name", () => {
  const text = config(`"authorization": { "enabled": true, "default_role": "gust", "roles": { "guest": {}, "admin": {} } }`);
  const [f] = findings(text, CODE);
  assert.equal(f!.fixes![0]!.title, 'Change to "guest"');
  expectNoFindings(applyFix(text, f!), CODE);
  const far = config(`"authorization": { "enabled": true, "default_role": "superuser", "roles": { "guest": {} } }`);
  assert.deepEqual(findings(far, CODE)[0]!.fixes, []);
});

test("a long role list is shortened in the message", () => {
  const roles = Array.from({ length: 30 }, (_, i) => `"r${String(i).padStart(2, "0")}": {}`).join(", ");
  const [f] = findings(config(`"authorization": { "enabled": true, "default_role": "x", "roles": { ${roles} } }`), CODE);
  assert.match(f!.detail!, /known roles: \['r00', 'r01', .*'r19', …\] \(30 roles; list shortened\)$/);
});
