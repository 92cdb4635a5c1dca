import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "authz-literal-star";

test("fires on \"*\" inside allow and deny lists", () => {
  const found = expectFindings(
    config(`"authorization": { "enabled": true, "roles": {
      "user": { "tools": { "allow": [⟦"*"⟧] }, "models": { "allow": ["gpt-4o", ⟦"*"⟧] } },
      "guest": { "tools": { "deny": [⟦"*"⟧] } }
    } }`),
    CODE,
  );
  assert.ok(found.every((f) => f.severity === "warning"));
  assert.deepEqual(found.map((f) => f.message), [
    '"*" inside an allow list is a literal tool name, not a wildcard.',
    '"*" inside an allow list is a literal model name, not a wildcard.',
    '"*" inside a deny list is a literal tool name, not a wildcard.',
  ]);
  assert.equal(
    found[0]!.detail,
    '"*" inside a list is a literal name, not a wildcard: DeerFlow matches names exactly, so this allows only a tool named "*" (there is none) and role "user" may use no tool at all. Write "allow": "*" to allow every tool.',
  );
  assert.match(found[1]!.detail!, /role "user" may use only the other 1 listed\. Write "allow": "\*" to allow every model\.$/);
  assert.match(found[2]!.detail!, /^"\*" inside a deny list is a literal name, not a wildcard: it denies only a tool named "\*" \(there is none\), so it denies nothing\. To deny every tool, write "allow": false\.$/);
});

test("does not fire on \"allow\": \"*\", on other names, or under an unknown resource key", () => {
  expectNoFindings(config(`"authorization": { "roles": { "user": { "tools": { "allow": "*", "deny": ["execute"] }, "tols": { "allow": ["*"] } } } }`), CODE);
});

test("fix: allow: [\"*\"] → allow: \"*\"", () => {
  const text = config(`"authorization": { "enabled": true, "roles": { "user": { "tools": { "allow": ["*"] } } } }`);
  const [f] = findings(text, CODE);
  assert.equal(f!.fixes!.length, 1);
  const fixed = applyFix(text, f!);
  assert.match(fixed, /"tools": \{ "allow": "\*" \}/);
  expectNoFindings(fixed, CODE);
});

test("fix: remove the entry from a longer list or a deny list", () => {
  const text = config(`"authorization": { "roles": { "user": { "tools": { "allow": ["ls", "*"], "deny": ["*"] } } } }`);
  const [a, d] = findings(text, CODE);
  assert.deepEqual(a!.fixes!.map((x) => x.title), ['Allow everything: "allow": "*"', 'Remove the "*" entry']);
  assert.match(applyFix(text, a!, 1), /"allow": \["ls"\]/);
  assert.match(applyFix(text, d!, 0), /"deny": \[\]/);
});
