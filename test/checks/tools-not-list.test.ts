import { before, test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";
import { checkSource, loadGrammars } from "../helpers/sources";
import { marked } from "../helpers/markers";
import { styleProblems } from "../helpers/messageStyle";

const CODE = "tools-not-list";
const py = (members: string) => config(`"runtime": "deepagents-py",\n  ${members}`);

before(loadGrammars);

test("config: a string other than \"all\" in deepagents-py", () => {
  const [found] = expectFindings(py(`"middleware": [{ "type": "filesystem", "tools": ⟦"read_file"⟧ }]`), CODE);
  assert.equal(found!.severity, "warning");
  assert.equal(found!.message, "The tools of middleware #0 are a string, not a list: deepagents-py keeps all eight tools.");
  assert.match(found!.detail!, /only when it is a list/);
});

test("config: not for \"all\", a list, null, or in deepagents-js alone", () => {
  expectNoFindings(py(`"middleware": [{ "type": "filesystem", "tools": "all" }, { "type": "filesystem", "tools": ["read_file"] }, { "type": "filesystem", "tools": null }]`), CODE);
  // deepagents-js reads the string character by character and refuses it: read-file-required says so.
  const js = config(`"middleware": [{ "type": "filesystem", "tools": "read_file" }]`);
  expectNoFindings(js, CODE);
  assert.deepEqual(findings(js).map((f) => f.code).filter((c) => c !== "schema"), ["read-file-required"]);
});

test("config: a deepagents-js config compatible with deepagents-py", () => {
  const [found] = findings(config(`"compatibleWith": ["deepagents-py"],\n  "middleware": [{ "type": "filesystem", "tools": "ls" }]`), CODE);
  assert.match(found!.detail!, /deepagents-py only/);
});

test("config fix (not safe): the list the string names, with read_file", () => {
  const text = py(`"middleware": [{ "type": "filesystem", "tools": "ls" }]`);
  const [found] = findings(text, CODE);
  assert.deepEqual(found!.fixes!.map((f) => [f.title, f.safe]), [['Change to ["ls","read_file"]', false]]);
  const fixed = applyFix(text, found!);
  assert.ok(fixed.includes('"tools": ["ls", "read_file"]'));
  expectNoFindings(fixed, CODE);
});

test("Python source: a set and a tuple, at their spans; a list is fine", () => {
  const { text, ranges } = marked(`from deepagents import create_deep_agent
from deepagents.middleware import FilesystemMiddleware
agent = create_deep_agent(
    middleware=[FilesystemMiddleware(tools=⟦{"read_file", "ls"}⟧), FilesystemMiddleware(tools=⟦("ls",)⟧), FilesystemMiddleware(tools=["read_file"])],
)`);
  const found = checkSource(text, "python").findings.filter((f) => f.code === CODE);
  assert.deepEqual(found.map((f) => f.span), ranges);
  assert.deepEqual(found.map((f) => f.message), [
    "The tools of middleware #0 are a set, not a list: deepagents-py keeps all eight tools.",
    "The tools of middleware #1 are a tuple, not a list: deepagents-py keeps all eight tools.",
  ]);
  assert.deepEqual(found.flatMap(styleProblems), []);
  // The tuple ("ls",) has no read_file, and deepagents-py does not test it: no read-file-required.
  assert.ok(!checkSource(text, "python").findings.some((f) => f.code === "read-file-required"));
  // The fix writes the list in Python, read_file added; the file then reads without the finding.
  assert.deepEqual(found.map((f) => f.fixes!.map((x) => [x.title, x.safe])), [[['Change to ["ls","read_file"]', false]], [['Change to ["ls","read_file"]', false]]]);
  const fixed = applyFix(text, found[0]!);
  assert.ok(fixed.includes('FilesystemMiddleware(tools=["ls", "read_file"])'), fixed);
  assert.deepEqual(checkSource(fixed, "python").findings.filter((f) => f.code === CODE).length, 1);
});

test("TypeScript source: deepagents-js copies any iterable, so a Set is an allowlist", () => {
  const text = `import { createDeepAgent, createFilesystemMiddleware } from "deepagents";
createDeepAgent({ middleware: [createFilesystemMiddleware({ tools: new Set(["read_file", "ls"]) })] });`;
  assert.deepEqual(checkSource(text, "typescript").findings.map((f) => f.code), []);
});
