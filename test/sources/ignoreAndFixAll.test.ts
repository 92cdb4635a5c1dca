import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fixAllInSource } from "../../server/src/engine/sources/fixAll";
import { checkSource, loadGrammars } from "../helpers/sources";

// `agent-sandbox-ignore CODE` in a source file's own comment syntax, and fix-all in source files.

before(loadGrammars);

const codes = (text: string, language: "typescript" | "tsx" | "python") => checkSource(text, language).findings.map((f) => f.code).sort();

const TS = (comment: string) => `import { createDeepAgent } from "deepagents";
export const agent = createDeepAgent({
  permissions: [
${comment}
    { operations: ["read"], paths: ["relative/**"], mode: "deny" },
    { operations: ["write"], paths: ["also/relative"], mode: "deny" },
  ],
});
`;

const PY = (comment: string) => `from deepagents import create_deep_agent
from deepagents.middleware import FilesystemMiddleware
agent = create_deep_agent(
${comment}
    middleware=[FilesystemMiddleware(tools={"read_file", "ls"})],
)
`;

describe("agent-sandbox-ignore in source files", () => {
  it("Given no comment, Then both relative paths are reported (the baseline the comments silence)", () => {
    assert.deepEqual(codes(TS(""), "typescript"), ["path-not-absolute", "path-not-absolute"]);
    assert.deepEqual(codes(PY(""), "python"), ["tools-not-list"]);
  });

  it("Given a // comment alone on the line above, Then the next line's finding of that code is silenced, not the line after", () => {
    const text = TS("    // agent-sandbox-ignore path-not-absolute");
    const result = checkSource(text, "typescript");
    assert.deepEqual(result.findings.map((f) => [f.code, text.slice(f.span.start, f.span.end)]), [["path-not-absolute", '"also/relative"']]);
  });

  it("Given a /* */ comment and a // comment at the end of the line, Then each silences its own line", () => {
    assert.deepEqual(codes(TS("    /* agent-sandbox-ignore path-not-absolute */"), "typescript"), ["path-not-absolute"]);
    const trailing = TS("").replace('mode: "deny" },\n    { operations: ["write"]', 'mode: "deny" }, // agent-sandbox-ignore path-not-absolute\n    { operations: ["write"]');
    assert.deepEqual(codes(trailing, "typescript"), ["path-not-absolute"]);
  });

  it("Given a comment naming another code, or `all`, Then only what it names is silenced", () => {
    assert.deepEqual(codes(TS("    // agent-sandbox-ignore tools-not-list"), "typescript"), ["path-not-absolute", "path-not-absolute"]);
    assert.deepEqual(codes(TS("    // agent-sandbox-ignore all"), "tsx"), ["path-not-absolute"]);
  });

  it("Given a Python # comment, Then it silences the keyword argument below it", () => {
    assert.deepEqual(codes(PY("    # agent-sandbox-ignore tools-not-list"), "python"), []);
    assert.deepEqual(codes(PY("    # agent-sandbox-ignore path-not-absolute"), "python"), ["tools-not-list"]);
  });

  it("Given the marker inside a string, not a comment, Then nothing is silenced", () => {
    const ts = TS('    ...(["// agent-sandbox-ignore path-not-absolute"].length ? [] : []),');
    assert.deepEqual(codes(ts, "typescript").filter((c) => c === "path-not-absolute"), ["path-not-absolute", "path-not-absolute"]);
    const py = PY('    name="# agent-sandbox-ignore tools-not-list",');
    assert.deepEqual(codes(py, "python"), ["tools-not-list"]);
  });

});

describe("fix-all in source files", () => {
  it("Given safe fixes in TypeScript, When fixing all, Then each is applied in TypeScript syntax and the re-check finds none left", () => {
    const text = `import { createDeepAgent, createFilesystemMiddleware } from "deepagents";
export const agent = createDeepAgent({
  permissions: [{ operations: ["read"], paths: ["relative/**"], mode: "deny" }, { operations: ["read"], paths: ["/a/**"], mode: "deny" }, { operations: ["read"], paths: ["/a/**"], mode: "deny" }],
  middleware: [createFilesystemMiddleware({ tools: ["ls"] })],
});`;
    const fixed = fixAllInSource(text, "typescript", { analysis: true });
    assert.equal(fixed.complete, true);
    assert.deepEqual(fixed.applied.map((a) => a.code).sort(), ["path-not-absolute", "read-file-required", "rule-redundant"]);
    assert.equal(
      fixed.text,
      `import { createDeepAgent, createFilesystemMiddleware } from "deepagents";
export const agent = createDeepAgent({
  permissions: [{ operations: ["read"], paths: ["/relative/**"], mode: "deny" }, { operations: ["read"], paths: ["/a/**"], mode: "deny" }],
  middleware: [createFilesystemMiddleware({ tools: ["read_file", "ls"] })],
});`,
    );
    const after = checkSource(fixed.text, "typescript");
    assert.equal(after.agents.length, 1);
    assert.deepEqual(after.findings.filter((f) => f.fixes?.some((x) => x.safe)), [], "no safe fix is left");
    // The unsafe fix (copying the rules into the middleware) is left for the user to choose.
    assert.deepEqual(after.findings.map((f) => f.code), ["middleware-drops-permissions"]);
  });

  it("Given a Python file with a relative path, When fixing all, Then it is made absolute in Python syntax", () => {
    const text = `from deepagents import create_deep_agent, FilesystemPermission
agent = create_deep_agent(permissions=[FilesystemPermission(operations=["read"], paths=["x/**"], mode="deny")])
`;
    assert.deepEqual(codes(text, "python"), ["path-not-absolute"]);
    const fixed = fixAllInSource(text, "python", { analysis: true });
    assert.equal(fixed.text, text.replace('"x/**"', '"/x/**"'));
    assert.ok(!codes(fixed.text, "python").includes("path-not-absolute"));
  });

  it("Given nothing safe to fix, Then the text is unchanged", () => {
    const text = PY("");
    const fixed = fixAllInSource(text, "python");
    assert.equal(fixed.text, text);
    assert.deepEqual(fixed.applied, []);
  });
});
