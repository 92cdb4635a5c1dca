import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "tool-unknown";

test("fires on a name that is not one of the eight filesystem tools", () => {
  const [typo, user] = expectFindings(config(`"tools": ["web_search"],\n  "middleware": [{ "type": "filesystem", "tools": ["read_file", ⟦"grpe"⟧, ⟦"web_search"⟧] }]`), CODE);
  assert.equal(typo!.severity, "warning");
  assert.equal(typo!.message, '"grpe" is not a filesystem tool: deepagents-js 1.14.1 silently ignores it here.');
  assert.match(typo!.detail!, /^The tools of middleware #0 name only filesystem tools \(known: .*\)\. Did you mean "grep"\?$/);
  assert.match(user!.detail!, /"web_search" is a user tool: user tools are never filtered by this allowlist/);
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

test("a toolDescriptions key that is no filesystem tool, and an interruptOn key no agent has, are reported too", () => {
  const text = config(`"tools": ["web_search"],
  "interruptOn": { "write_file": true, ⟦"write_fil"⟧: true, "web_search": true, "task": true },
  "middleware": [{ "type": "filesystem", "tools": "all", "toolDescriptions": { "grep": "Search", ⟦"grpe"⟧: "Search files" } }],
  "subagents": [{ "name": "a", "description": "d", "tools": ["run_sql"], "interruptOn": { ⟦"exeucte"⟧: true, "run_sql": true } }]`);
  const found = expectFindings(text, CODE);
  assert.deepEqual(found.map((f) => f.message), [
    'No agent in this file has a tool named "write_fil": this interruptOn entry never fires.',
    '"grpe" is not a filesystem tool: this description goes nowhere.',
    'No agent in this file has a tool named "exeucte": this interruptOn entry never fires.',
  ]);
  assert.match(found[0]!.detail!, /^The interruptOn entry of the main agent never fires, and no call waits for approval because of it\. Did you mean "write_file"\?$/);
  assert.match(found[1]!.detail!, /^deepagents-js 1\.14\.1 registers no tool of that name in .* \(known: .*\)\. Did you mean "grep"\?$/);
  assert.match(found[2]!.detail!, /interruptOn entry of subagent "a" never fires.* Did you mean "execute"\?$/);
  // The fix renames the key, unless the name it would take is there already: a key written twice is an error, so
  // that rename is not offered (fixVerification.ts). "exeucte" has no twin: renamed, it is gone.
  assert.deepEqual(found.map((f) => f.fixes?.map((x) => x.title)), [undefined, undefined, ['Change to "execute"']]);
  const fixed = applyFix(text.replace(/[⟦⟧]/g, ""), found[2]!);
  assert.match(fixed, /"execute": true, "run_sql": true/);
  assert.deepEqual(findings(fixed, CODE).map((f) => f.message), [found[0]!.message, found[1]!.message]);
  // A custom middleware may bring tools of its own: any interruptOn name may then be real.
  expectNoFindings(config(`"interruptOn": { "approve_payment": true },\n  "middleware": [{ "type": "custom", "name": "payments" }]`), CODE);
});
