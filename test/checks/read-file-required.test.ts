import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "read-file-required";

test("fires on a tools list without read_file, with the runtime's exact message", () => {
  const [f] = expectFindings(config(`"middleware": [{ "type": "filesystem", "tools": ⟦["ls", "grep"]⟧ }]`), CODE);
  assert.equal(f!.severity, "error");
  assert.equal(f!.message, 'deepagents-js 1.14.1 refuses middleware #0: its tools do not include "read_file".');
  assert.ok(f!.detail!.endsWith("It throws: Error: read_file must be included in tools; it is required by FilesystemMiddleware"), f!.detail);
  const [py] = expectFindings(config(`"runtime": "deepagents-py",\n  "middleware": [{ "type": "filesystem", "tools": ⟦[]⟧ }]`), CODE);
  assert.ok(py!.detail!.endsWith("It throws: ValueError: read_file must be included in tools; it is required by FilesystemMiddleware"));
});

test("names are case-sensitive; a subagent's middleware counts too", () => {
  expectFindings(config(`"subagents": [{ "name": "a", "description": "a", "middleware": [{ "type": "filesystem", "tools": ⟦["READ_FILE"]⟧ }] }]`), CODE);
});

test('deepagents-js reads a string other than "all" character by character; deepagents-py ignores it', () => {
  const [f] = expectFindings(config(`"middleware": [{ "type": "filesystem", "tools": ⟦"ls"⟧ }]`), CODE);
  assert.match(f!.detail!, /character by character/);
  assert.equal(f!.fixes![0]!.title, 'Change to ["read_file", "ls"]');
  expectNoFindings(config(`"runtime": "deepagents-py",\n  "middleware": [{ "type": "filesystem", "tools": "ls" }]`), CODE);
});

test("does not fire on all, omitted, or a list with read_file", () => {
  expectNoFindings(config(`"middleware": [{ "type": "filesystem", "tools": "all" }, { "type": "filesystem" }, { "type": "filesystem", "tools": ["ls", "read_file"] }]`), CODE);
});

test("fix: add read_file (safe), to a list and to an empty list", () => {
  const text = config(`"middleware": [{ "type": "filesystem", "tools": ["ls", "grep"] }]`);
  const [f] = findings(text, CODE);
  assert.equal(f!.fixes![0]!.safe, true);
  const fixed = applyFix(text, f!);
  assert.ok(fixed.includes(`"tools": ["read_file", "ls", "grep"]`));
  expectNoFindings(fixed, CODE);
  const empty = config(`"middleware": [{ "type": "filesystem", "tools": [] }]`);
  assert.ok(applyFix(empty, findings(empty, CODE)[0]!).includes(`"tools": ["read_file"]`));
});

test('the string "read_file" becomes ["read_file"], not the name twice', () => {
  const text = config(`"middleware": [{ "type": "filesystem", "tools": "read_file" }]`);
  const [f] = findings(text, CODE);
  assert.equal(f!.fixes![0]!.title, 'Change to ["read_file"]');
  const fixed = applyFix(text, f!);
  assert.deepEqual(findings(fixed).map((x) => x.code), []);
});

test("a comment inside an empty list stays when read_file is added", () => {
  const text = config(`"middleware": [{ "type": "filesystem", "tools": [ // none for now
  ] }]`);
  const fixed = applyFix(text, findings(text, CODE)[0]!);
  assert.ok(fixed.includes(`"tools": ["read_file" // none for now`), fixed);
  assert.deepEqual(findings(fixed).filter((f) => f.severity === "error").map((f) => f.code), []);
});
