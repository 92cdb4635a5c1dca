/**
 * The extension in a real VS Code (code-server's Node extension host): activation, diagnostics with per-folder
 * settings in a multi-root workspace, hovers, completion, code actions, outline, folding, formatting, code lenses,
 * the three commands, the language status data, files changed outside the editor, and createDeepAgent /
 * create_deep_agent calls in TypeScript and Python files (diagnostics, quick fixes, the hover on the call).
 */
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "mocha";
import * as vscode from "vscode";

import { sleep, until as untilQuiet } from "./wait";
/** `until`, saying on time-out what diagnostics the open configs have. */
const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000): Promise<T> =>
  untilQuiet(what, probe, timeoutMs, () => `diagnostics now: ${vscode.workspace.textDocuments.filter((d) => d.languageId === "agent-sandbox").map((d) => `${d.uri.path.split("/").slice(-2).join("/")} v${d.version}: [${codes(d.uri).join(", ")}]`).join("; ")}`);
const codes = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === "agent-sandbox").map((d) => String(typeof d.code === "object" ? d.code.value : d.code));
/** An unsaved edit of the example config: its deny rule no longer covers /workspace/secrets/** (undo restores it). */
async function dropSecretsRule(config: vscode.TextDocument): Promise<void> {
  const editor = await vscode.window.showTextDocument(config);
  const rule = '"paths": ["/workspace/.env", "/workspace/secrets/**"]';
  const at = config.getText().indexOf(rule);
  assert.ok(at >= 0);
  await editor.edit((e) => e.replace(new vscode.Range(config.positionAt(at), config.positionAt(at + rule.length)), '"paths": ["/workspace/.env"]'));
}
function positionOf(doc: vscode.TextDocument, snippet: string, caret = 1): vscode.Position {
  const at = doc.getText().indexOf(snippet);
  assert.ok(at >= 0, `${snippet} in ${doc.uri.path}`);
  return doc.positionAt(at + caret);
}
const timings: Record<string, number> = {};
/** A tab of the markdown extension's rendered preview (a webview; its title ends with the document's file name). */
const isMarkdownPreview = (t: vscode.Tab) => t.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(t.input.viewType);
const renderedTab = (uri: vscode.Uri) => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => isMarkdownPreview(t) && t.label.endsWith(uri.path.split("/").at(-1)!));

describe("Agent Sandbox in VS Code", () => {
  const folders = () => vscode.workspace.workspaceFolders ?? [];
  let a: vscode.TextDocument;
  let b: vscode.TextDocument;
  let api: {
    ready: Promise<void>;
    activationMs: number;
    lastCheck(uri: string): { runtime?: string; durationMs: number } | undefined;
    scenarioTests: Promise<{ controller: vscode.TestController; profile: vscode.TestRunProfile; lastOutcomes: Map<string, { state: string; message?: string; expected?: string; actual?: string }>; discover(): Promise<void> }>;
  };

  before(async () => {
    const t0 = Date.now();
    const ext = vscode.extensions.getExtension("agent-sandbox.agent-sandbox");
    assert.ok(ext, "extension present");
    // workspaceContains:**/agent-sandbox.jsonc activates it without any file being opened.
    await until("activation by workspaceContains", () => ext.isActive);
    api = ext.exports;
    await api.ready;
    timings.activationMs = api.activationMs;
    timings.untilReadyMs = Date.now() - t0;
    const [fa, fb] = folders();
    a = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(fa!.uri, "agent-sandbox.jsonc"));
    b = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(fb!.uri, "agent-sandbox.jsonc"));
    await vscode.window.showTextDocument(a);
  });

  after(() => console.log(`timings: ${JSON.stringify(timings)}`));

  it("uses the agent-sandbox language for config files", () => {
    assert.equal(a.languageId, "agent-sandbox");
    assert.equal(folders().length, 2, "a multi-root workspace");
  });

  it("shows the engine's diagnostics with codes and docs links", async () => {
    const t0 = Date.now();
    await until("diagnostics of a", () => codes(a.uri).length >= 2 || undefined);
    timings.firstDiagnosticsMs = Date.now() - t0;
    // The engine grows (more checks may fire here later); these two must be among them.
    for (const code of ["operations-not-list", "pattern-never-matches"]) assert.ok(codes(a.uri).includes(code), codes(a.uri).join(", "));
    const d = vscode.languages.getDiagnostics(a.uri).find((x) => x.source === "agent-sandbox" && (x.code as { value: string }).value === "pattern-never-matches")!;
    const code = d.code as { value: string; target: vscode.Uri };
    assert.match(code.target.toString(), /docs\/checks\/.+\.md$/);
  });

  it("resolves settings per folder (folder b turns pattern-never-matches off)", async () => {
    await vscode.window.showTextDocument(b);
    await until("diagnostics of b", () => codes(b.uri).length > 0 || undefined);
    assert.ok(codes(b.uri).includes("system-prompt-conflict"), codes(b.uri).join(", "));
    assert.ok(!codes(b.uri).includes("pattern-never-matches"), "turned off for folder b");
  });

  it("re-checks when a cross-file input appears on disk (systemPromptFile)", async () => {
    const prompt = join(folders()[1]!.uri.fsPath, "PROMPT.md");
    // The server registers a watcher for PROMPT.md once it has checked b; on a loaded machine VS Code's file
    // watcher takes a moment to start, and an event before that is not seen by anyone.
    await sleep(3000);
    writeFileSync(prompt, "Be careful.\n");
    try {
      await until("system-prompt-conflict to go", () => (!codes(b.uri).includes("system-prompt-conflict") ? true : undefined));
    } finally {
      rmSync(prompt, { force: true });
    }
    await until("system-prompt-conflict to come back", () => (codes(b.uri).includes("system-prompt-conflict") ? true : undefined));
  });

  it("checks config files that are not open, and clears them when deleted", async () => {
    const path = join(folders()[0]!.uri.fsPath, "extra.agent-sandbox.jsonc");
    const uri = vscode.Uri.file(path);
    writeFileSync(path, '{ "version": 1, "middleware": [{ "type": "filesystem", "tools": ["read_file", "ls", "ls"] }] }\n');
    await until("diagnostics of a file created on disk", () => (codes(uri).includes("tool-duplicate") ? true : undefined));
    rmSync(path);
    await until("diagnostics of the deleted file to clear", () => (codes(uri).length === 0 ? true : undefined));
  });

  it("answers hovers from the engine: a pattern, a rule, an agent", async () => {
    await vscode.window.showTextDocument(a);
    const t0 = Date.now();
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", a.uri, positionOf(a, '"/workspace/secrets/**"', 5));
    timings.hoverMs = Date.now() - t0;
    const text = (hs: vscode.Hover[]) => hs.flatMap((h) => h.contents.map((c) => (typeof c === "string" ? c : c.value))).join("\n");
    assert.match(text(hovers), /\*\*Pattern\*\* `\/workspace\/secrets\/\*\*`/);
    assert.match(text(hovers), /`\/workspace\/secrets\/key\.txt`/);
    const rule = await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", a.uri, positionOf(a, '"mode": "deny" },', 3));
    assert.match(text(rule), /\*\*Rule 0\*\*.*`deny` read and write/);
    assert.match(text(rule), /decides 2 of 3 sample files/);
    const agent = await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", a.uri, positionOf(a, '"auditor"', 3));
    assert.match(text(agent), /Effective tools of `auditor`/);
  });

  it("completes operations, modes and sample paths", async () => {
    const list = await vscode.commands.executeCommand<vscode.CompletionList>("vscode.executeCompletionItemProvider", a.uri, positionOf(a, '"/workspace/.env"', 1));
    const labels = list.items.map((i) => (typeof i.label === "string" ? i.label : i.label.label));
    for (const expected of ["/workspace/**", "/workspace/secrets/**", "/workspace/README.md"]) assert.ok(labels.includes(expected), `${expected} in ${labels.join(", ")}`);
    const modes = await vscode.commands.executeCommand<vscode.CompletionList>("vscode.executeCompletionItemProvider", a.uri, positionOf(a, '"deny" },', 1));
    assert.deepEqual(modes.items.map((i) => (typeof i.label === "string" ? i.label : i.label.label)).filter((l) => ["allow", "deny", "interrupt"].includes(l)).sort(), ["allow", "deny"]);
  });

  it("offers quick fixes and 'Ignore <code> here', and the ignore comment silences the finding", async () => {
    const diagnostic = vscode.languages.getDiagnostics(a.uri).find((d) => (d.code as { value: string }).value === "pattern-never-matches")!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", a.uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
    const titles = actions.map((x) => x.title);
    assert.ok(titles.includes('Change to "/workspace/tmp/**"'), titles.join(", "));
    const ignore = actions.find((x) => x.title === "Ignore pattern-never-matches here")!;
    assert.ok(ignore, titles.join(", "));
    assert.ok(await vscode.workspace.applyEdit(ignore.edit!));
    await until("the ignored finding to go", () => (!codes(a.uri).includes("pattern-never-matches") ? true : undefined));
    await vscode.commands.executeCommand("undo");
    await until("the finding to come back after undo", () => (codes(a.uri).includes("pattern-never-matches") ? true : undefined));
  });

  it("applies only safe fixes with source.fixAll.agent-sandbox", async () => {
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", a.uri, new vscode.Range(0, 0, 0, 0), "source.fixAll.agent-sandbox");
    assert.equal(actions.length, 1);
    assert.ok(await vscode.workspace.applyEdit(actions[0]!.edit!));
    assert.match(a.getText(), /"operations": \["read"\], "paths": \["\/memories\/\*\*"\]/);
    assert.match(a.getText(), /"\/workspace\/tmp\/"/, "the unsafe pattern fix is not applied");
    await until("operations-not-list to go", () => (!codes(a.uri).includes("operations-not-list") ? true : undefined));
    await vscode.commands.executeCommand("undo");
  });

  it("outlines agents, rules and roles; folds; formats", async () => {
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>("vscode.executeDocumentSymbolProvider", a.uri);
    assert.equal(symbols[0]!.name, "research");
    const names = symbols[0]!.children.map((s) => s.name);
    assert.deepEqual(names, ["permissions", "auditor", "authorization"]);
    assert.equal(symbols[0]!.children[0]!.children.length, 4);
    const folding = await vscode.commands.executeCommand<vscode.FoldingRange[]>("vscode.executeFoldingRangeProvider", a.uri);
    assert.ok(folding.length >= 5);
    const edits = await vscode.commands.executeCommand<vscode.TextEdit[]>("vscode.executeFormatDocumentProvider", a.uri, { tabSize: 2, insertSpaces: true });
    assert.ok(Array.isArray(edits));
  });

  it("shows code lenses above each agent", async () => {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", a.uri);
    const titles = lenses.map((l) => l.command?.title);
    // Without a role, the config's default role (`user`, which may not delete) applies.
    assert.ok(titles.includes("8 tools"), titles.join(" | "));
    assert.ok(titles.includes("auditor: 7 tools"), titles.join(" | "));
    assert.ok(titles.includes("Preview prompt") && titles.includes("Explain…"));
  });

  it("Test Explorer lists the scenario and its steps, runs it, and shows the failing step with expected and actual outcome", async () => {
    const tests = await api.scenarioTests;
    const scenarioUri = vscode.Uri.joinPath(folders()[0]!.uri, "research.dryrun.jsonc");
    await tests.discover();
    const file = await until("the scenario in Test Explorer", () => tests.controller.items.get(scenarioUri.toString()));
    // Its steps come from the language server when the item is resolved (as the Testing view does on expanding it).
    await tests.controller.resolveHandler!(file);
    const children: vscode.TestItem[] = [];
    file.children.forEach((c) => void children.push(c));
    assert.deepEqual(
      children.map((c) => c.label),
      ["1. ls /workspace", "2. read_file /workspace/README.md", "3. read_file /workspace/secrets/key.txt", "4. write_file /workspace/notes.md", "5. task auditor"],
    );
    const task = children[4]!;
    assert.equal(task.children.size, 2, "the task's own steps are its children");
    // "Go to test" lands on the step.
    const doc = await vscode.workspace.openTextDocument(scenarioUri);
    assert.equal(children[2]!.range?.start.line, positionOf(doc, '"/workspace/secrets/key.txt"').line);
    const t0 = Date.now();
    await vscode.commands.executeCommand("testing.runAll");
    const outcome = await until("the scenario's result", () => tests.lastOutcomes.get(file.id));
    timings.scenarioRunMs = Date.now() - t0;
    assert.equal(outcome.state, "failed");
    const failing = tests.lastOutcomes.get(children[2]!.id)!;
    assert.equal(failing.state, "failed");
    assert.equal(failing.expected, "ok");
    assert.match(failing.actual!, /^permission-denied by rule 0 \(deny \/workspace\/secrets\/\*\*\)/);
    assert.match(failing.message!, /Expected ok, got permission-denied/);
    assert.equal(tests.lastOutcomes.get(children[1]!.id)?.state, "passed");
    let nested = "";
    task.children.forEach((c) => (nested += `${tests.lastOutcomes.get(c.id)?.state} `));
    assert.equal(nested, "passed passed ");
  });

  it("a continuous run re-runs the scenario when its config changes", async () => {
    const tests = await api.scenarioTests;
    const file = tests.controller.items.get(vscode.Uri.joinPath(folders()[0]!.uri, "research.dryrun.jsonc").toString())!;
    assert.ok(file);
    assert.equal(tests.profile.supportsContinuousRun, true);
    const stop = new vscode.CancellationTokenSource();
    const running = tests.profile.runHandler(new vscode.TestRunRequest([file], undefined, tests.profile, true), stop.token);
    tests.lastOutcomes.clear();
    await dropSecretsRule(a);
    try {
      await until("the continuous run to pass against the edited config", () => (tests.lastOutcomes.get(file.id)?.state === "passed" ? true : undefined));
    } finally {
      await vscode.window.showTextDocument(a);
      await vscode.commands.executeCommand("undo");
    }
    await until("the continuous run to fail again after the undo", () => (tests.lastOutcomes.get(file.id)?.state === "failed" ? true : undefined));
    stop.cancel();
    await running;
  });

  it("shows each scenario step's outcome inline, and follows an unsaved edit of the config", async () => {
    const scenarioUri = vscode.Uri.joinPath(folders()[0]!.uri, "research.dryrun.jsonc");
    const doc = await vscode.workspace.openTextDocument(scenarioUri);
    await vscode.window.showTextDocument(doc);
    const titles = async () => ((await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", scenarioUri)) ?? []).map((l) => l.command?.title ?? "");
    const secretLine = positionOf(doc, '"/workspace/secrets/key.txt"').line;
    const lensOn = async (line: number) => ((await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", scenarioUri)) ?? []).find((l) => l.range.start.line === line)?.command?.title;
    await until("the step outcomes", async () => ((await titles()).includes("✔ ok") ? true : undefined));
    assert.equal(await lensOn(secretLine), "✖ permission-denied by rule 0 (deny /workspace/secrets/**) · expected ok");
    assert.equal(codes(scenarioUri).filter((c) => c === "scenario-expectation-failed").length, 1, codes(scenarioUri).join(", "));
    // The config loses its rule for secrets (unsaved): the step now reads the file.
    await dropSecretsRule(a);
    try {
      await until("the step to pass against the edited config", async () => ((await lensOn(secretLine)) === "✔ ok" ? true : undefined));
      await until("the failed expectation to go", () => (!codes(scenarioUri).includes("scenario-expectation-failed") ? true : undefined));
    } finally {
      await vscode.window.showTextDocument(a);
      await vscode.commands.executeCommand("undo");
    }
    await until("the step to fail again", async () => ((await lensOn(secretLine))?.startsWith("✖ permission-denied") ? true : undefined));
  });

  it("Preview Effective Prompt opens the preview rendered, and it follows the config", async () => {
    let t0 = Date.now();
    const uri = await vscode.commands.executeCommand<vscode.Uri>("agentSandbox.previewPrompt", { uri: a.uri.toString(), agent: "main", role: "guest" });
    const preview = await vscode.workspace.openTextDocument(uri);
    timings.previewOpenMs = Date.now() - t0;
    assert.equal(preview.languageId, "markdown");
    assert.match(preview.getText(), /# Prompt preview: `main`/);
    assert.match(preview.getText(), /You are a careful research assistant\./);
    assert.doesNotMatch(preview.getText(), /`write_file`/, "hidden tools appear nowhere (guest may not write)");
    // Rendered (headings, tables), not the markdown text: the markdown extension's preview of the document.
    await until("the rendered prompt preview", () => renderedTab(uri));
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === uri.toString()), "no editor shows the markdown text");
    const editor = await vscode.window.showTextDocument(a);
    const at = a.getText().indexOf("You are a careful");
    await editor.edit((e) => e.replace(new vscode.Range(a.positionAt(at), a.positionAt(at + "You are a careful".length)), "You are a meticulous"));
    t0 = Date.now();
    await until("the preview to follow the edit", () => (preview.getText().includes("You are a meticulous") ? true : undefined));
    timings.previewFollowMs = Date.now() - t0;
    await vscode.commands.executeCommand("undo");
  });

  it("Show Effective Tools returns every agent and role", async () => {
    const result = await vscode.commands.executeCommand<{ tables: { agent: string; role: string | null }[] }>("agentSandbox.showEffectiveTools", { uri: a.uri.toString() });
    const keys = result.tables.map((t) => `${t.agent}/${t.role}`);
    for (const k of ["main/null", "main/guest", "general-purpose/user", "auditor/null"]) assert.ok(keys.includes(k), keys.join(", "));
    await until("the rendered effective tools", () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => isMarkdownPreview(t) && t.label.includes("Effective tools")));
  });

  it("Explain Decision… names the deciding rule and jumps to it", async () => {
    const result = await vscode.commands.executeCommand<{ decision: string; rule?: { index: number } }>("agentSandbox.explainDecision", {
      uri: a.uri.toString(),
      agent: "main",
      operation: "read",
      path: "/workspace/secrets/key.txt",
    });
    assert.equal(result.decision, "deny");
    assert.equal(result.rule?.index, 0);
    const editor = vscode.window.activeTextEditor!;
    assert.equal(editor.document.uri.toString(), a.uri.toString());
    assert.equal(editor.document.getText(editor.selection), '"/workspace/secrets/**"');
  });

  it("reports the runtime and the check time for the language status item", () => {
    const check = api.lastCheck(a.uri.toString());
    assert.equal(check?.runtime, "deepagents-js 1.14.1");
    assert.ok(typeof check?.durationMs === "number");
    timings.lastCheckMs = check!.durationMs;
  });
});

describe("The capability map and the sample config", () => {
  const folders = () => vscode.workspace.workspaceFolders ?? [];
  type MapState = { available: boolean; reason?: string; entries: number; agent: string; role: string | null };
  let api: { ready: Promise<void>; mapDecoration(uri: string): { badge?: string; tooltip?: string; color?: string } | undefined };
  let config: vscode.Uri;
  const sample = (path: string) => vscode.Uri.joinPath(folders()[0]!.uri, "sample", ...path.split("/")).toString();

  before(async () => {
    api = vscode.extensions.getExtension("agent-sandbox.agent-sandbox")!.exports;
    await api.ready;
    config = vscode.Uri.joinPath(folders()[0]!.uri, "agent-sandbox.jsonc");
  });

  it("decorates every sample file and folder in the Explorer, naming the deciding rule", async () => {
    const t0 = Date.now();
    const state = await vscode.commands.executeCommand<MapState>("agentSandbox.showCapabilityMap", { uri: config.toString(), agent: "main", role: null });
    timings.mapMs = Date.now() - t0;
    assert.equal(state.available, true, state.reason);
    assert.equal(state.entries, 4, "README.md, .env, secrets, secrets/key.txt");
    const key = api.mapDecoration(sample("secrets/key.txt"))!;
    assert.equal(key.badge, "✕");
    assert.equal(key.color, "agentSandbox.map.none");
    assert.match(key.tooltip!, /read: deny by rule 0 \(\/workspace\/secrets\/\*\*\)/);
    assert.equal(api.mapDecoration(sample("README.md"))?.badge, "RW");
    assert.equal(api.mapDecoration(sample("secrets"))?.badge, "✕", "folders too");
    assert.match(api.mapDecoration(sample(".env"))!.tooltip!, /write: deny by rule 0 \(\/workspace\/\.env\)/);
  });

  it("follows the role chosen in the view and the config as it is edited", async () => {
    await vscode.commands.executeCommand("agentSandbox.capabilityMap.chooseRole", "guest");
    const readme = api.mapDecoration(sample("README.md"))!;
    assert.equal(readme.badge, "R", "guest has no write tool");
    assert.match(readme.tooltip!, /has no write tool/);
    await vscode.commands.executeCommand("agentSandbox.capabilityMap.chooseRole", null);
    const doc = await vscode.workspace.openTextDocument(config);
    const editor = await vscode.window.showTextDocument(doc);
    const at = doc.getText().indexOf('"/workspace/.env", ');
    await editor.edit((e) => e.insert(doc.positionAt(at), '"/workspace/README.md", '));
    try {
      await until("README.md to lose both badges", () => (api.mapDecoration(sample("README.md"))?.badge === "✕" ? true : undefined));
    } finally {
      await vscode.commands.executeCommand("undo");
    }
    await until("README.md to be writable again", () => (api.mapDecoration(sample("README.md"))?.badge === "RW" ? true : undefined));
  });

  it("Create Sample Config writes the starter into a folder; it checks clean but for its one mistake, which the quick fix mends", async () => {
    const folder = vscode.Uri.joinPath(folders()[0]!.uri, "starter"); // folder b turns pattern-never-matches off
    const result = await vscode.commands.executeCommand<{ written: string[]; kept: string[] }>("agentSandbox.createSampleConfig", { folder: folder.toString() });
    assert.equal(result.written.length, 8);
    assert.deepEqual(result.kept, []);
    const starter = vscode.Uri.joinPath(folder, "agent-sandbox.jsonc");
    const scenario = vscode.Uri.joinPath(folder, "sample.dryrun.jsonc");
    assert.ok(vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === starter.toString()), "the config is open");
    assert.ok(vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === scenario.toString()), "the scenario is open");
    await until("the teaching finding", () => (codes(starter).join() === "pattern-never-matches" ? true : undefined));
    await until("the failing step", () => (codes(scenario).join() === "scenario-expectation-failed" ? true : undefined));
    const doc = await vscode.workspace.openTextDocument(starter);
    const diagnostic = vscode.languages.getDiagnostics(starter).find((d) => d.source === "agent-sandbox")!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", starter, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a) => a.title === 'Change to "/workspace/docs/**"');
    assert.ok(fix, actions.map((a) => a.title).join(", "));
    assert.ok(await vscode.workspace.applyEdit(fix.edit!));
    assert.ok(await doc.save());
    await until("the config to check clean", () => (codes(starter).length === 0 ? true : undefined));
    await until("the scenario to pass", () => (codes(scenario).length === 0 ? true : undefined));
    // Asked again, nothing is overwritten (the fixed config stays as saved).
    const again = await vscode.commands.executeCommand<{ written: string[]; kept: string[] }>("agentSandbox.createSampleConfig", { folder: folder.toString(), overwrite: false, open: false });
    assert.deepEqual(again.written, []);
    assert.equal(again.kept.length, 8);
    assert.match(new TextDecoder().decode(await vscode.workspace.fs.readFile(starter)), /"\/workspace\/docs\/\*\*"/);
  });
});

describe("createDeepAgent and create_deep_agent calls in source files", () => {
  const source = (name: string) => vscode.Uri.joinPath((vscode.workspace.workspaceFolders ?? [])[0]!.uri, "src", name);
  const hoverText = async (doc: vscode.TextDocument, snippet: string) => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", doc.uri, positionOf(doc, snippet, 3));
    return hovers.flatMap((h) => h.contents.map((c) => (typeof c === "string" ? c : c.value))).join("\n");
  };
  const diagnostic = (uri: vscode.Uri, code: string) => vscode.languages.getDiagnostics(uri).find((d) => d.source === "agent-sandbox" && (d.code as { value: string }).value === code);
  const quickFix = async (uri: vscode.Uri, d: vscode.Diagnostic, title: string) => {
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", uri, d.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a) => a.title === title);
    assert.ok(fix, actions.map((a) => a.title).join(", "));
    return fix;
  };

  it("TypeScript: a subagent regaining write_file and a relative path, at the source spans; the quick fix makes the path absolute", async () => {
    const doc = await vscode.workspace.openTextDocument(source("agent.ts"));
    assert.equal(doc.languageId, "typescript");
    await vscode.window.showTextDocument(doc);
    await until("diagnostics of agent.ts", () => (codes(doc.uri).length >= 3 ? true : undefined));
    assert.deepEqual(codes(doc.uri).sort(), ["path-not-absolute", "subagent-escalation", "subagent-escalation"]);
    const regains = vscode.languages.getDiagnostics(doc.uri).find((d) => /can use write_file/.test(d.message))!;
    assert.ok(regains, "the subagent regains write_file");
    assert.equal(doc.getText(regains.range), '"writer"');
    const relative = diagnostic(doc.uri, "path-not-absolute")!;
    assert.equal(doc.getText(relative.range), '"secrets/**"');
    const fix = await quickFix(doc.uri, relative, 'Make it absolute: "/secrets/**"');
    assert.ok(await vscode.workspace.applyEdit(fix.edit!));
    try {
      assert.match(doc.getText(), /permissions: \[\{ operations: \["read"\], paths: \["\/secrets\/\*\*"\], mode: "deny" \}\],/);
      await until("path-not-absolute to go", () => (!codes(doc.uri).includes("path-not-absolute") ? true : undefined));
    } finally {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand("undo");
    }
    assert.match(doc.getText(), /paths: \["secrets\/\*\*"\]/);
    await until("path-not-absolute to come back after undo", () => (codes(doc.uri).includes("path-not-absolute") ? true : undefined));
  });

  it("TypeScript: the hover on the call shows the effective tools of each agent it builds", async () => {
    const doc = await vscode.workspace.openTextDocument(source("agent.ts"));
    const text = await hoverText(doc, "createDeepAgent({");
    assert.match(text, /\*\*Agent Sandbox\*\*: the agent this call builds \(deepagents-js 1\.14\.1\)/);
    assert.match(text, /\*\*main\*\*: 4 of 9 tools visible/);
    assert.match(text, /`write_file`, `edit_file`, `delete`, `glob`, `execute` \(allowlist\)/);
    assert.match(text, /\*\*writer\*\*: 7 of 8 tools visible/);
  });

  it("Python: a set of tools, a relative path, a middleware without the rules; the quick fix writes the set as a list, and the hover follows", async () => {
    const doc = await vscode.workspace.openTextDocument(source("agent.py"));
    assert.equal(doc.languageId, "python");
    await vscode.window.showTextDocument(doc);
    await until("diagnostics of agent.py", () => (codes(doc.uri).length >= 3 ? true : undefined));
    assert.deepEqual(codes(doc.uri).sort(), ["middleware-drops-permissions", "path-not-absolute", "tools-not-list"]);
    assert.equal(doc.getText(diagnostic(doc.uri, "path-not-absolute")!.range), '"secrets/**"');
    const set = diagnostic(doc.uri, "tools-not-list")!;
    assert.equal(doc.getText(set.range), '{"read_file", "ls"}');
    // The set keeps all eight tools.
    assert.match(await hoverText(doc, "create_deep_agent("), /\*\*main\*\*: 8 of 9 tools visible/);
    const fix = await quickFix(doc.uri, set, 'Change to ["ls","read_file"]');
    assert.ok(await vscode.workspace.applyEdit(fix.edit!));
    try {
      assert.match(doc.getText(), /^researcher = FilesystemMiddleware\(tools=\["ls", "read_file"\]\)$/m);
      await until("tools-not-list to go", () => (!codes(doc.uri).includes("tools-not-list") ? true : undefined));
      assert.match(await hoverText(doc, "create_deep_agent("), /\*\*main\*\*: 3 of 9 tools visible/);
    } finally {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand("undo");
    }
    assert.match(doc.getText(), /tools=\{"read_file", "ls"\}/);
  });
});
