import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "authz-literal-glob";

test("fires on *, ? and [ in targets", () => {
  const found = expectFindings(
    config(`"tools": ["github_create_issue", "github_list_repos"],
  "authorization": { "enabled": true, "roles": {
    "user": { "tools": { "allow": [⟦"github_*"⟧, "ls"], "deny": [⟦"read_?ile"⟧, ⟦"[wx]*"⟧] }, "models": { "allow": [⟦"gpt-4*"⟧] } }
  } }`),
    CODE,
  );
  assert.ok(found.every((f) => f.severity === "warning"));
  assert.deepEqual(found.map((f) => f.message), [
    '"github_*" is a literal tool name: DeerFlow does not expand globs.',
    '"read_?ile" is a literal tool name: DeerFlow does not expand globs.',
    '"[wx]*" is a literal tool name: DeerFlow does not expand globs.',
    '"gpt-4*" is a literal model name: DeerFlow does not expand globs.',
  ]);
  assert.equal(
    found[0]!.detail,
    'DeerFlow matches tool names exactly (no globs, prefixes or regular expressions): "github_*" is a literal name, so this entry allows only a tool named exactly "github_*". It does not match "github_create_issue", "github_list_repos".',
  );
  assert.match(found[1]!.detail!, /this entry denies only a tool named exactly "read_\?ile"\. It does not match "read_file"\.$/);
  assert.match(found[2]!.detail!, /It does not match "write_file"\.$/);
  assert.match(found[3]!.detail!, /^DeerFlow matches model names exactly.*"gpt-4\*" is a literal name, so this entry allows only a model named exactly "gpt-4\*"\.$/);
});

test("does not fire on plain names, on a lone \"*\" (authz-literal-star), or under an unknown key", () => {
  expectNoFindings(config(`"authorization": { "roles": { "user": { "tools": { "allow": ["ls", "*"] }, "tols": { "allow": ["a*"] }, "routes": { "allow": ["threads:read"] } } } }`), CODE);
});

test("fix: replace the glob with the tools it was meant to match", () => {
  const text = config(`"tools": ["github_create_issue", "github_list_repos"],
  "authorization": { "roles": { "user": { "tools": { "allow": ["github_*", "github_list_repos"] } } } }`);
  const [f] = findings(text, CODE);
  assert.equal(f!.fixes![0]!.title, "Replace with the tool it was meant to match: github_create_issue");
  const fixed = applyFix(text, f!);
  assert.match(fixed, /"allow": \["github_create_issue", "github_list_repos"\]/);
  expectNoFindings(fixed, CODE);
  expectNoFindings(fixed, "authz-tool-unknown");
});
