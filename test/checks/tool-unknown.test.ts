import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "tool-unknown";

test("fires on a name that is not one of the eight filesystem tools", () => {
  const [typo, user] = expectFindings(config(`"tools": ["web_search"],\n  "middleware": [{ "type": "filesystem", "tools": ["read_file", ⟦"grpe"⟧, ⟦"web_search"⟧] }]`), CODE);
  assert.equal(typo!.severity, "warning");
  assert.match(typo!.message, /^"grpe" is not a filesystem tool: deepagents-js 1\.14\.1 silently ignores it .* Did you mean "grep"\?$/);
  assert.match(user!.message, /"web_search" is a user tool: user tools are never filtered by this allowlist/);
});

test("case matters: READ_FILE is unknown (and read-file-required fires too)", () => {
  const [f] = expectFindings(config(`"middleware": [{ "type": "filesystem", "tools": [⟦"READ_FILE"⟧] }]`), CODE);
  assert.equal(f!.fixes![0]!.title, 'Change to "read_file"');
});

test("does not fire on known names", () => {
  expectNoFindings(config(`"middleware": [{ "type": "filesystem", "tools": ["ls", "read_file", "write_file", "edit_file", "delete", "glob", "grep", "execute"] }]`), CODE);
});

test("fixes: the suggestion, or removal", () => {
  const text = config(`"middleware": [{ "type": "filesystem", "tools": ["read_file", "grpe", "bogus"] }]`);
  const [grpe, bogus] = findings(text, CODE);
  const fixed = applyFix(text, grpe!);
  assert.ok(fixed.includes(`["read_file", "grep", "bogus"]`));
  assert.equal(bogus!.fixes!.length, 1);
  const removed = applyFix(fixed, findings(fixed, CODE)[0]!);
  assert.ok(removed.includes(`["read_file", "grep"]`));
  expectNoFindings(removed, CODE);
});
