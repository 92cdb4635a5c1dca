/**
 * The editor's features on a `createDeepAgent` / `create_deep_agent` call, against the real bundled server: code
 * lenses on the call and its subagents (and a Dry run lens per scenario that names the call), the custom requests
 * (agents, effective tools, prompt preview, explain, capability map) answered from the model the call builds, the
 * "Ignore CODE here" comment in the file's own syntax, and fix-all.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, it } from "node:test";
import type { CodeAction, CodeLens, TextEdit } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { AgentsResult, CapabilityMapResult, EffectiveToolsResult, ExplainResult, PromptPreviewResult } from "../../server/src/protocol";
import { Commands } from "../../server/src/protocol";
import { rangeText } from "./lspClient";
import { serverSession } from "./session";

const TWO_CALLS = `import { createDeepAgent, createFilesystemMiddleware } from "deepagents";

export const reader = createDeepAgent({
  systemPrompt: "You read the docs.",
  middleware: [createFilesystemMiddleware({ tools: ["read_file", "ls"] })],
  subagents: [
    { name: "writer", description: "Writes notes", tools: [] },
  ],
});

export const guarded = createDeepAgent({
  permissions: [
    { operations: ["read", "write"], paths: ["/workspace/.env"], mode: "deny" },
  ],
});
`;

describe("source files in the editor (pull)", () => {
  const session = serverSession({ pull: true });

  const open = async (file: string, text: string, languageId: string) => {
    const written = session.folder.write({ file, text });
    await session.client.open(written.uri, written.text, languageId);
    await session.client.pullDiagnostics(written.uri);
    return { ...written, doc: session.client.document(written.uri) };
  };
  const lensesOf = async (uri: string) => (await session.client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri } })) ?? [];
  const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split("\n").length - 1;

  it("Given two calls, When asking for code lenses, Then each call and its subagent has tools, prompt preview and explain, with the call's line", async () => {
    const given = await open("two.ts", TWO_CALLS, "typescript");
    const lenses = await lensesOf(given.uri);
    const first = lineOf(TWO_CALLS, "createDeepAgent({\n  systemPrompt");
    const writer = lineOf(TWO_CALLS, '{ name: "writer"');
    const second = lineOf(TWO_CALLS, "createDeepAgent({\n  permissions");
    assert.deepEqual(
      lenses.map((l) => [l.range.start.line, l.command?.title, l.command?.command]),
      [
        [first, "3 tools", Commands.showEffectiveTools],
        [first, "Preview prompt", Commands.previewPrompt],
        [first, "Explain…", Commands.explainDecision],
        [writer, "writer: 7 tools", Commands.showEffectiveTools],
        [writer, "Preview prompt", Commands.previewPrompt],
        [writer, "Explain…", Commands.explainDecision],
        [second, "8 tools", Commands.showEffectiveTools],
        [second, "Preview prompt", Commands.previewPrompt],
        [second, "Explain…", Commands.explainDecision],
      ],
    );
    assert.deepEqual(lenses[3]!.command!.arguments, [{ uri: given.uri, agent: "writer", line: first }]);
    assert.deepEqual(lenses[7]!.command!.arguments, [{ uri: given.uri, agent: "main", line: second }]);
  });

  it("Given a middleware the runtime refuses, or values only known at run time, Then the tools lens says so", async () => {
    const refused = await open("refused.ts", `import { createDeepAgent, createFilesystemMiddleware } from "deepagents";\nexport const a = createDeepAgent({ middleware: [createFilesystemMiddleware({ tools: ["ls"] })] });\n`, "typescript");
    const [tools] = await lensesOf(refused.uri);
    assert.match(tools!.command!.title, /^\d+ tools? \(.+\)$/, "the refusal is in the title");
    assert.doesNotMatch(tools!.command!.title, /not analysed/);
    const dynamic = await open("dynamic.py", `from deepagents import create_deep_agent\nagent = create_deep_agent(permissions=load_rules())\n`, "python");
    const [pyTools] = await lensesOf(dynamic.uri);
    assert.equal(pyTools!.command!.title, "8 tools (1 value not analysed)");
  });

  it("Given files without a call, When asking for lenses or fix-all, Then none", async () => {
    const ts = await open("plain.ts", `export const x = 1;\n`, "typescript");
    assert.deepEqual(await lensesOf(ts.uri), []);
    const py = await open("plain.py", `import os\n`, "python");
    assert.deepEqual(await lensesOf(py.uri), []);
    // Nor a fix-all (a save's fix-all asks about every file of the language).
    const fixAll = await session.client.request<CodeAction[]>("textDocument/codeAction", {
      textDocument: { uri: ts.uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ["source.fixAll"] },
    });
    assert.deepEqual(fixAll ?? [], []);
  });

  it("Given a scenario that names the second call by its line, Then that call has a Dry run lens to run it, and its map shows the scenario's workspace", async () => {
    const second = lineOf(TWO_CALLS, "createDeepAgent({\n  permissions");
    const scenarioText = JSON.stringify({ config: `./agent.ts:${second + 1}`, workspace: { root: "./sample", mountAt: "/workspace" }, steps: [] });
    const source = session.folder.write({ file: "agent.ts", text: TWO_CALLS, files: { "env.dryrun.jsonc": scenarioText, "sample/.env": "X=1\n", "sample/README.md": "hi\n" } });
    await session.client.open(source.uri, source.text, "typescript");
    const scenario = { uri: pathToFileURL(join(source.folder, "env.dryrun.jsonc")).href };
    await session.client.open(scenario.uri, scenarioText, "agent-sandbox-dryrun");
    const lenses = await lensesOf(source.uri);
    const dryRun = lenses.filter((l) => l.command?.command === Commands.runScenario);
    assert.deepEqual(
      dryRun.map((l) => [l.range.start.line, l.command!.title, l.command!.arguments]),
      [[second, "Dry run: env.dryrun.jsonc", [{ uri: scenario.uri }]]],
    );
    const map = await session.client.request<CapabilityMapResult>("agentSandbox/capabilityMap", { uri: source.uri, line: second });
    assert.equal(map?.available, true, map?.reason);
    assert.deepEqual(
      map!.entries.map((e) => [e.path, e.read, e.write]),
      [
        ["/workspace/.env", "deny", "deny"],
        ["/workspace/README.md", "allow", "allow"],
      ],
    );
    // The first call is named by no scenario: it has no sample workspace, and says where one comes from.
    const unmapped = await session.client.request<CapabilityMapResult>("agentSandbox/capabilityMap", { uri: source.uri, line: 3 });
    assert.equal(unmapped?.available, false);
    assert.match(unmapped!.reason!, /dry-run scenario/);
    assert.deepEqual(unmapped!.agents, ["main", "general-purpose", "writer"]);
  });

  it("Given scenarios naming a file without a line, or a line inside a call, Then the call they run has the lens: a file's only call, the call covering the line", async () => {
    const one = `import { createDeepAgent } from "deepagents";\nexport const a = createDeepAgent({\n  systemPrompt: "x",\n});\n`;
    const source = session.folder.write({
      file: "one.ts",
      text: one,
      files: { "whole.dryrun.jsonc": JSON.stringify({ config: "./one.ts", steps: [] }), "inside.dryrun.jsonc": JSON.stringify({ config: "./one.ts:3", steps: [] }), "other.dryrun.jsonc": JSON.stringify({ config: "./two.ts", steps: [] }) },
    });
    await session.client.open(source.uri, source.text, "typescript");
    for (const name of ["whole", "inside", "other"]) {
      const uri = pathToFileURL(join(source.folder, `${name}.dryrun.jsonc`)).href;
      await session.client.open(uri, JSON.stringify({ config: name === "whole" ? "./one.ts" : name === "inside" ? "./one.ts:3" : "./two.ts", steps: [] }), "agent-sandbox-dryrun");
    }
    const titles = (await lensesOf(source.uri)).filter((l) => l.command?.command === Commands.runScenario).map((l) => [l.range.start.line, l.command!.title]);
    assert.deepEqual(titles, [
      [1, "Dry run: inside.dryrun.jsonc"],
      [1, "Dry run: whole.dryrun.jsonc"],
    ]);
    // A file of two calls named without a line: the scenario names no call (it cannot run), so no lens.
    const two = session.folder.write({ file: "two.ts", text: TWO_CALLS, files: { "vague.dryrun.jsonc": JSON.stringify({ config: "./two.ts", steps: [] }) } });
    await session.client.open(two.uri, two.text, "typescript");
    await session.client.open(pathToFileURL(join(two.folder, "vague.dryrun.jsonc")).href, JSON.stringify({ config: "./two.ts", steps: [] }), "agent-sandbox-dryrun");
    assert.deepEqual((await lensesOf(two.uri)).filter((l) => l.command?.command === Commands.runScenario), []);
  });

  it("Given a source file, When asking for agents, tools, the prompt and a decision, Then the call the line picks answers", async () => {
    const given = await open("requests.ts", TWO_CALLS, "typescript");
    const second = lineOf(TWO_CALLS, "createDeepAgent({\n  permissions");
    const agents = (line?: number) => session.client.request<AgentsResult>("agentSandbox/agents", { uri: given.uri, ...(line !== undefined ? { line } : {}) });
    assert.deepEqual((await agents())?.agents, ["main", "general-purpose", "writer"]);
    assert.deepEqual((await agents(second))?.agents, ["main", "general-purpose"]);
    // A line after the last call picks the last call; one before the first, the first.
    assert.deepEqual((await agents(TWO_CALLS.split("\n").length - 1))?.agents, ["main", "general-purpose"]);
    assert.deepEqual((await agents(0))?.agents, ["main", "general-purpose", "writer"]);

    const tools = await session.client.request<EffectiveToolsResult>("agentSandbox/effectiveTools", { uri: given.uri, agent: "main", role: null });
    assert.deepEqual(tools!.tables[0]!.tools.filter((t) => t.visible).map((t) => t.name), ["ls", "read_file", "task"]);

    const prompt = await session.client.request<PromptPreviewResult>("agentSandbox/promptPreview", { uri: given.uri, agent: "main", role: null });
    assert.equal(prompt?.available, true);
    assert.match(prompt!.markdown, /You read the docs\./);
    assert.doesNotMatch(prompt!.markdown, /write_file/);

    const explained = await session.client.request<ExplainResult>("agentSandbox/explain", { uri: given.uri, line: second, agent: "main", operation: "write", path: "/workspace/.env" });
    assert.equal(explained?.decision, "deny");
    assert.equal(explained!.rule!.location.uri, given.uri);
    assert.equal(rangeText(given.doc, explained!.rule!.patternRange!), '"/workspace/.env"');
  });

  it("Given a file with no call, When asking for agents, Then a reason, not an error", async () => {
    const given = await open("none.py", `import os\n`, "python");
    const agents = await session.client.request<AgentsResult>("agentSandbox/agents", { uri: given.uri });
    assert.equal(agents?.available, false);
    assert.match(agents!.reason!, /no createDeepAgent or create_deep_agent call/);
  });

  const quickFixes = async (uri: string) => {
    const diagnostics = await session.client.pullDiagnostics(uri);
    const actions: CodeAction[] = [];
    for (const diagnostic of diagnostics) {
      actions.push(...((await session.client.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic] } })) ?? []));
    }
    return { diagnostics, actions };
  };
  const applied = (text: string, uri: string, action: CodeAction) => {
    const doc = TextDocument.create(uri, "x", 1, text);
    return TextDocument.applyEdits(doc, action.edit!.changes![uri]! as TextEdit[]);
  };

  it("Given a TypeScript finding, When ignoring it here, Then a // comment above its line silences it", async () => {
    const text = `import { createDeepAgent } from "deepagents";
export const agent = createDeepAgent({
  permissions: [
    { operations: ["read"], paths: ["relative/**"], mode: "deny" },
  ],
});
`;
    const given = await open("ignore.ts", text, "typescript");
    const { diagnostics, actions } = await quickFixes(given.uri);
    assert.deepEqual(diagnostics.map((d) => d.code), ["path-not-absolute"]);
    const ignore = actions.find((a) => a.title === "Ignore path-not-absolute here");
    assert.ok(ignore, JSON.stringify(actions.map((a) => a.title)));
    const after = applied(text, given.uri, ignore);
    assert.equal(after, text.replace('    { operations: ["read"]', '    // agent-sandbox-ignore path-not-absolute\n    { operations: ["read"]'));
    await session.client.change(given.uri, [{ text: after }]);
    assert.deepEqual(await session.client.pullDiagnostics(given.uri), []);
  });

  it("Given a comment above that silences another code already, When ignoring here, Then the code is added to that comment", async () => {
    const text = `import { createDeepAgent } from "deepagents";
export const agent = createDeepAgent({
  permissions: [
    // agent-sandbox-ignore rule-redundant
    { operations: ["read"], paths: ["relative/**"], mode: "deny" },
  ],
});
`;
    const given = await open("ignore-more.ts", text, "typescript");
    const { actions } = await quickFixes(given.uri);
    const ignore = actions.find((a) => a.title === "Ignore path-not-absolute here")!;
    assert.ok(ignore);
    assert.equal(applied(text, given.uri, ignore), text.replace("// agent-sandbox-ignore rule-redundant", "// agent-sandbox-ignore rule-redundant path-not-absolute"));
  });

  it("Given a Python finding, When ignoring it here, Then a # comment above its line silences it", async () => {
    const text = `from deepagents import create_deep_agent
from deepagents.middleware import FilesystemMiddleware
agent = create_deep_agent(
    middleware=[FilesystemMiddleware(tools={"read_file", "ls"})],
)
`;
    const given = await open("ignore.py", text, "python");
    const { actions } = await quickFixes(given.uri);
    const ignore = actions.find((a) => a.title === "Ignore tools-not-list here")!;
    assert.ok(ignore);
    const after = applied(text, given.uri, ignore);
    assert.equal(after, text.replace("    middleware=", "    # agent-sandbox-ignore tools-not-list\n    middleware="));
    await session.client.change(given.uri, [{ text: after }]);
    assert.deepEqual(await session.client.pullDiagnostics(given.uri), []);
  });

  it("Given safe fixes in a source file, When fix-all is asked for, Then one edit applies them in the file's syntax, and the re-check finds none left", async () => {
    const text = `import { createDeepAgent, createFilesystemMiddleware } from "deepagents";
export const agent = createDeepAgent({
  permissions: [{ operations: ["read"], paths: ["relative/**"], mode: "deny" }],
  middleware: [createFilesystemMiddleware({ tools: ["ls"] })],
});
`;
    const given = await open("fixall.ts", text, "typescript");
    const actions = await session.client.request<CodeAction[]>("textDocument/codeAction", {
      textDocument: { uri: given.uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ["source.fixAll"] },
    });
    assert.deepEqual(actions?.map((a) => [a.title, a.kind]), [["Fix all safe Agent Sandbox problems", "source.fixAll.agent-sandbox"]]);
    const after = applied(text, given.uri, actions![0]!);
    assert.equal(after, text.replace('"relative/**"', '"/relative/**"').replace('tools: ["ls"]', 'tools: ["read_file", "ls"]'));
    await session.client.change(given.uri, [{ text: after }]);
    const left = await session.client.pullDiagnostics(given.uri);
    assert.deepEqual(left.map((d) => d.code), ["middleware-drops-permissions"], "only the finding whose fix is not safe is left");
    const again = await session.client.request<CodeAction[]>("textDocument/codeAction", {
      textDocument: { uri: given.uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ["source.fixAll"] },
    });
    assert.deepEqual(again ?? [], [], "nothing safe is left to fix");
  });
});

describe("source files in the editor: scenarios on disk", () => {
  const session = serverSession((folder) => ({ pull: true, workspaceFolders: [folder.root], initializationOptions: { scanWorkspace: true } }));
  const text = `import { createDeepAgent } from "deepagents";\nexport const agent = createDeepAgent({ systemPrompt: "x" });\n`;
  // On disk before the server starts: the scenario is found by the workspace scan, never opened. Its step expects
  // what the call does not do, so that it has a finding to push (whether the run reads the call or not).
  const scenario = JSON.stringify({ config: "./agent.ts:2", steps: [{ tool: "ls", args: { path: "/" }, expect: "permission-denied" }] });
  const source = session.folder.write({ file: "agent.ts", text, files: { "closed.dryrun.jsonc": scenario } });
  const scenarioUri = pathToFileURL(join(source.folder, "closed.dryrun.jsonc")).href;

  it("Given a scenario on disk that names the call, When the source file is opened, Then its call has the Dry run lens", async () => {
    const client = session.client;
    if (!client.published.get(scenarioUri)?.diagnostics.length) await client.waitForPublish(scenarioUri, (p) => p.diagnostics.length > 0);
    await client.open(source.uri, text, "typescript");
    const lenses = (await client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri: source.uri } })) ?? [];
    assert.deepEqual(
      lenses.filter((l) => l.command?.command === Commands.runScenario).map((l) => [l.range.start.line, l.command!.title, l.command!.arguments]),
      [[1, "Dry run: closed.dryrun.jsonc", [{ uri: scenarioUri }]]],
    );
  });
});
