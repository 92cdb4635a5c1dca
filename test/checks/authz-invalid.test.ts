import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings, marked } from "../helpers/checkFixture";

const CODE = "authz-invalid";
const REFUSES = "DeerFlow refuses to build the agent: its RBAC provider raises at construction, whatever fail_closed says.";

test("fires on each construction error, with DeerFlow's message word for word", () => {
  const fixture = config(`"authorization": {
    "enabled": true,
    "roles": {
      "user": {
        "tools": { "allow": ⟦null⟧, "deny": ⟦"execute"⟧ },
        ⟦"tool"⟧: { "allow": "*" },
        "models": { "allow": ⟦"any"⟧ },
        "routes": { ⟦"alow"⟧: ["threads:read"] },
        "skills": ⟦["x"]⟧,
        "sandbox": { "allow": ["a", ⟦""⟧, ⟦3⟧], "deny": ⟦null⟧ }
      },
      ⟦""⟧: {},
      "guest": ⟦null⟧
    }
  }`);
  const found = expectFindings(fixture, CODE);
  assert.deepEqual(
    found.map((f) => f.detail),
    [
      `${REFUSES} role 'user' resource 'tools': allow must not be null; omit the key, or use '*' / bool / list`,
      `${REFUSES} role 'user' resource 'tools': deny must be a list of strings, got str`,
      `${REFUSES} role 'user' resource key 'tool' is a reserved request alias; use 'tools' in RBAC config`,
      `${REFUSES} role 'user' resource 'models': allow string must be '*', got 'any'`,
      `${REFUSES} role 'user' resource 'routes': unknown policy keys ['alow']; supported: ['allow', 'deny']`,
      `${REFUSES} role 'user' resource 'skills' must be a dict, got list`,
      `${REFUSES} role 'user' resource 'sandbox': allow list contains non-string or empty item ''`,
      `${REFUSES} role 'user' resource 'sandbox': allow list contains non-string or empty item 3`,
      `${REFUSES} role 'user' resource 'sandbox': deny must not be null; omit the key for no deny list`,
      `${REFUSES} role name must be a non-empty string, got ''`,
      `${REFUSES} role 'guest' config must be a dict, got NoneType`,
    ],
  );
  assert.deepEqual(found.map((f) => f.message), [
    ...Array(2).fill('DeerFlow refuses to build the agent: its RBAC provider rejects role "user", resource "tools".'),
    'DeerFlow refuses to build the agent: its RBAC provider rejects role "user", resource "tool".',
    'DeerFlow refuses to build the agent: its RBAC provider rejects role "user", resource "models".',
    'DeerFlow refuses to build the agent: its RBAC provider rejects role "user", resource "routes".',
    'DeerFlow refuses to build the agent: its RBAC provider rejects role "user", resource "skills".',
    ...Array(3).fill('DeerFlow refuses to build the agent: its RBAC provider rejects role "user", resource "sandbox".'),
    'DeerFlow refuses to build the agent: its RBAC provider rejects role "".',
    'DeerFlow refuses to build the agent: its RBAC provider rejects role "guest".',
  ]);
  assert.ok(found.every((f) => f.severity === "error"));
});

test("roles of the wrong type, and a missing roles when enabled", () => {
  const [f] = expectFindings(config(`"authorization": { "enabled": true, "roles": ⟦["admin"]⟧ }`), CODE);
  assert.equal(f!.message, "DeerFlow refuses to build the agent: its RBAC provider rejects the roles.");
  assert.equal(f!.detail, `${REFUSES} roles must be a dict, got list`);
  const [g] = expectFindings(config(`⟦"authorization"⟧: { "enabled": true }`), CODE);
  assert.equal(g!.message, "DeerFlow refuses to build the agent: its RBAC provider rejects the roles.");
  assert.equal(g!.detail, `${REFUSES} missing required provider config key 'roles'`);
});

test("disabled: the roles are still validated, worded as what DeerFlow would do once enabled, as a warning (nothing is refused yet)", () => {
  const [f] = expectFindings(config(`"authorization": { "enabled": false, "roles": { "user": { "tools": { "deny": ⟦"bash"⟧ } } } }`), CODE);
  assert.equal(f!.message, 'With "enabled": true, DeerFlow would refuse to build the agent over role "user", resource "tools".');
  assert.match(f!.detail!, /^With "enabled": true, DeerFlow would refuse to build the agent: its RBAC provider raises at construction\. /);
  assert.equal(f!.severity, "warning");
  assert.match(f!.detail!, /role 'user' resource 'tools': deny must be a list of strings, got str$/);
  expectNoFindings(config(`"authorization": { "enabled": false }`), CODE);
});

test("does not fire on valid blocks", () => {
  expectNoFindings(
    config(`"authorization": {
      "enabled": true, "fail_closed": true, "default_role": "user",
      "roles": {
        "admin": { "tools": { "allow": "*" }, "models": { "allow": true } },
        "user":  { "tools": { "allow": "*", "deny": ["execute", "delete"] }, "routes": { "allow": false } },
        "guest": { "tools": { "allow": ["read_file", "ls"] }, "sandbox": { "allow": [] }, "custom": {} },
        "empty": {}
      }
    }`),
    CODE,
  );
  expectNoFindings(config(`"tools": ["web_search"]`), CODE);
});

test("fix: a reserved alias is renamed to its plural (when the role has no plural key yet)", () => {
  const text = config(`"authorization": { "roles": { "user": { "tool": { "allow": "*" } } } }`);
  const [f] = findings(text, CODE);
  assert.equal(f!.fixes![0]!.title, 'Rename to "tools"');
  const fixed = applyFix(text, f!);
  assert.match(fixed, /"tools": \{ "allow": "\*" \}/);
  expectNoFindings(fixed, CODE);
  const both = config(`"authorization": { "roles": { "user": { "tools": {}, "tool": { "allow": "*" } } } }`);
  assert.deepEqual(findings(both, CODE)[0]!.fixes, []);
});

test("fix: a misspelled policy key is renamed", () => {
  const text = config(`"authorization": { "roles": { "user": { "tools": { "alow": ["ls"], "deyn": ["x"] } } } }`);
  const [f] = findings(text, CODE);
  assert.deepEqual(f!.fixes!.map((x) => x.title), ['Rename to "allow"', 'Rename to "deny"']);
  const fixed = applyFix(applyFix(text, f!, 0), findings(applyFix(text, f!, 0), CODE)[0]!, 0);
  assert.match(fixed, /\{ "allow": \["ls"\], "deny": \["x"\] \}/);
  expectNoFindings(fixed, CODE);
});

test("fix: deny as a string is wrapped in a list; deny: null is removed; an allow word becomes \"*\"", () => {
  const deny = config(`"authorization": { "roles": { "user": { "tools": { "deny": "execute" } } } }`);
  const fixedDeny = applyFix(deny, findings(deny, CODE)[0]!);
  assert.match(fixedDeny, /"deny": \["execute"\]/);
  expectNoFindings(fixedDeny, CODE);

  const nul = config(`"authorization": { "roles": { "user": { "tools": { "allow": "*", "deny": null } } } }`);
  const [n] = findings(nul, CODE);
  assert.equal(n!.fixes![0]!.safe, true);
  const fixedNull = applyFix(nul, n!);
  assert.match(fixedNull, /"tools": \{ "allow": "\*" \}/);
  expectNoFindings(fixedNull, CODE);

  const all = config(`"authorization": { "roles": { "user": { "tools": { "allow": "all" } } } }`);
  const fixedAll = applyFix(all, findings(all, CODE)[0]!);
  assert.match(fixedAll, /"allow": "\*"/);
  const one = config(`"authorization": { "roles": { "user": { "tools": { "allow": "read_file" } } } }`);
  assert.match(applyFix(one, findings(one, CODE)[0]!), /"allow": \["read_file"\]/);
});

test("silenced with a comment", () => {
  const { text } = marked(config(`"authorization": { "roles": {
    // agent-sandbox-ignore authz-invalid
    "user": { "tools": { "deny": "bash" } }
  } }`));
  expectNoFindings(text, CODE);
});
