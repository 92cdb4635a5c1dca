/** TypeScript and Python documents against the real bundled server: diagnostics, quick fixes and the hover on the call (sourceEditor.test.ts: the rest). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rangeText } from "./lspClient";
import { serverSession } from "./session";

describe("source files (pull)", () => {
  const session = serverSession({ pull: true });

  const open = async (file: string, text: string, languageId: string) => {
    const written = session.folder.write({ file, text });
    await session.client.open(written.uri, written.text, languageId);
    return { ...written, doc: session.client.document(written.uri) };
  };

  it("Given a TypeScript call with mistakes, When pulled, Then its findings are at the source spans, with fixes in TypeScript", async () => {
    const given = await open(
      "agent.ts",
      `import { createDeepAgent, createFilesystemMiddleware } from "deepagents";
export const agent = createDeepAgent({
  permissions: [{ operations: ["read"], paths: ["relative/**"], mode: "deny" }],
  middleware: [createFilesystemMiddleware({ tools: ["ls"] })],
});`,
      "typescript",
    );
    const diagnostics = await session.client.pullDiagnostics(given.uri);
    assert.deepEqual(diagnostics.map((d) => [d.code, rangeText(given.doc, d.range)]).sort(), [
      ["middleware-drops-permissions", 'createFilesystemMiddleware({ tools: ["ls"] })'],
      ["path-not-absolute", '"relative/**"'],
      ["read-file-required", '["ls"]'],
    ]);
    const actions = await session.client.request<{ title: string; edit: { changes: Record<string, { newText: string; range: unknown }[]> } }[] | null>("textDocument/codeAction", {
      textDocument: { uri: given.uri },
      range: diagnostics[0]!.range,
      context: { diagnostics },
    });
    // Each finding's fixes, in TypeScript at the source spans, and the ignore comment; fix-all only when asked for.
    const titles = (actions ?? []).map((a) => a.title);
    assert.ok(titles.includes('Add "read_file"'), JSON.stringify(titles));
    assert.ok(titles.includes("Copy the rules into this middleware"), JSON.stringify(titles));
    assert.ok(titles.some((t) => t.startsWith("Ignore")), JSON.stringify(titles));
    assert.ok(!titles.some((t) => t.startsWith("Fix all")), JSON.stringify(titles));
    const add = actions!.find((a) => a.title === 'Add "read_file"')!;
    assert.deepEqual(add.edit.changes[given.uri]!.map((e) => e.newText), ['["read_file", "ls"]']);
    const copy = actions!.find((a) => a.title === "Copy the rules into this middleware")!;
    assert.deepEqual(copy.edit.changes[given.uri]!.map((e) => e.newText), [', permissions: [{ operations: ["read"], paths: ["relative/**"], mode: "deny" }]']);
  });

  it("Given a Python set of tools, When pulled, Then tools-not-list is on the set", async () => {
    const given = await open(
      "agent.py",
      `from deepagents import create_deep_agent
from deepagents.middleware import FilesystemMiddleware
agent = create_deep_agent(middleware=[FilesystemMiddleware(tools={"read_file", "ls"})])
`,
      "python",
    );
    const diagnostics = await session.client.pullDiagnostics(given.uri);
    assert.deepEqual(diagnostics.map((d) => [d.code, rangeText(given.doc, d.range)]), [["tools-not-list", '{"read_file", "ls"}']]);
  });

  it("Given files that do not call the runtime, When pulled, Then nothing at all", async () => {
    const ts = await open("util.ts", `export function createDeepAgent(o: unknown) { return o; }\ncreateDeepAgent({ permissions: [{ paths: ["x"] }] });`, "typescript");
    assert.deepEqual(await session.client.pullDiagnostics(ts.uri), []);
    const py = await open("util.py", `import os\nprint(os.getcwd())\n`, "python");
    assert.deepEqual(await session.client.pullDiagnostics(py.uri), []);
  });

  it("Given a call, When hovering its name, Then the effective tools of its agents (on a subagent's name, its own), and nothing elsewhere", async () => {
    const given = await open(
      "agent.ts",
      `import { createDeepAgent as make, createFilesystemMiddleware } from "deepagents";
export const agent = make({ middleware: [createFilesystemMiddleware({ tools: ["read_file", "ls"] })], subagents: [{ name: "w", description: "Writes" }] });`,
      "typescript",
    );
    await session.client.pullDiagnostics(given.uri);
    const at = (offset: number) => session.client.request<{ contents: { value: string } } | null>("textDocument/hover", { textDocument: { uri: given.uri }, position: given.doc.positionAt(offset) });
    const hover = await at(given.text.indexOf("make({") + 2);
    assert.ok(hover, "a hover on the call");
    assert.match(hover.contents.value, /\*\*main\*\*: 3 of 9 tools visible/);
    assert.match(hover.contents.value, /\| `ls` \| filesystem \|/);
    assert.match(hover.contents.value, /\*\*w\*\*/);
    assert.equal(await at(given.text.indexOf('"ls"')), null);
    // On a subagent's name: that subagent's tools alone.
    const onSubagent = await at(given.text.indexOf('"w"') + 1);
    assert.ok(onSubagent, "a hover on the subagent's name");
    assert.match(onSubagent.contents.value, /subagent "w"/);
    assert.match(onSubagent.contents.value, /\*\*w\*\*/);
    assert.doesNotMatch(onSubagent.contents.value, /\*\*main\*\*/);
  });

  it("Given a source file, When asking for completion, symbols or formatting, Then nothing (the language's own extensions answer)", async () => {
    const given = await open("agent.py", `from deepagents import create_deep_agent\nagent = create_deep_agent(name="a")\n`, "python");
    const textDocument = { uri: given.uri };
    assert.deepEqual((await session.client.request<unknown[] | null>("textDocument/completion", { textDocument, position: { line: 1, character: 5 } })) ?? [], []);
    assert.deepEqual((await session.client.request<unknown[] | null>("textDocument/documentSymbol", { textDocument })) ?? [], []);
    assert.deepEqual((await session.client.request<unknown[] | null>("textDocument/formatting", { textDocument, options: { tabSize: 2, insertSpaces: true } })) ?? [], []);
    assert.deepEqual((await session.client.request<unknown[] | null>("textDocument/foldingRange", { textDocument })) ?? [], []);
  });
});
