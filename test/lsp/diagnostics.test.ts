/** textDocument/diagnostic and publishDiagnostics against the real bundled server. */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { before, describe, it } from "node:test";
import { FileChangeType } from "vscode-languageserver-protocol/node";
import { FIXTURES } from "./fixtures";
import { rangeText, type LspTestClient } from "./lspClient";
import { serverSession } from "./session";

// The pages ship with the extension: a code's link is the installed page's file URI (offline), here the checkout's.
const DOCS = pathToFileURL(join(__dirname, "..", "..", "docs", "checks")).href;

describe("diagnostics (pull)", () => {
  let settings: Record<string, unknown> = {};
  const session = serverSession({ pull: true, settings: () => settings });
  const folder = session.folder;
  let client: LspTestClient;
  before(() => {
    client = session.client;
  });

  it("Given rule mistakes, When pulled, Then each finding has its code, range, docs link and source", async () => {
    const given = folder.write(FIXTURES.ruleMistakes);
    await client.open(given.uri, given.text);
    // The codes this fixture is about (the engine may say more about it as it grows).
    const about = new Set(["pattern-never-matches", "path-not-absolute", "operations-not-list", "rule-empty"]);
    const diagnostics = (await client.pullDiagnostics(given.uri)).filter((d) => about.has(String(d.code)));
    const doc = client.document(given.uri);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, rangeText(doc, d.range)]),
      [
        ["pattern-never-matches", '"/workspace/tmp/"'],
        ["path-not-absolute", '"workspace/notes/**"'],
        ["operations-not-list", '"read"'],
        ["rule-empty", "[]"],
      ],
    );
    assert.deepEqual(
      diagnostics.map((d) => given.text.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end))),
      given.ranges.map((r) => given.text.slice(r.start, r.end)),
    );
    for (const d of diagnostics) {
      assert.equal(d.source, "agent-sandbox");
      assert.equal(d.codeDescription?.href, `${DOCS}/${d.code}.md`);
      assert.ok(existsSync(fileURLToPath(d.codeDescription!.href)), `${d.codeDescription!.href} is a page that exists`);
    }
    assert.deepEqual(diagnostics.map((d) => d.severity), [2, 1, 1, 2]);
    assert.deepEqual(diagnostics.find((d) => d.code === "rule-empty")?.tags, [1], "rule-empty is Unnecessary");
  });

  it("Given a duplicate tool, When pulled, Then it is a hint with related information and the Unnecessary tag", async () => {
    const given = folder.write(FIXTURES.toolDuplicate);
    await client.open(given.uri, given.text);
    const [d] = await client.pullDiagnostics(given.uri);
    assert.equal(d?.code, "tool-duplicate");
    assert.equal(d.severity, 4);
    assert.deepEqual(d.tags, [1]);
    assert.ok(d.relatedInformation?.length, "related information");
    assert.equal(d.relatedInformation![0]!.location.uri, given.uri);
    assert.equal(rangeText(client.document(given.uri), d.relatedInformation![0]!.location.range), '"ls"');
  });

  it("Given a suppression comment, When pulled, Then the finding below it is silenced", async () => {
    const given = folder.write(FIXTURES.suppressed);
    await client.open(given.uri, given.text);
    assert.deepEqual(await client.pullDiagnostics(given.uri), []);
  });

  it("Given severity settings, When pulled, Then codes take the configured severity or disappear", async () => {
    const given = folder.write(FIXTURES.ruleMistakes);
    settings = { severities: { "rule-empty": "off", "pattern-never-matches": "error", "path-not-absolute": "bogus" } };
    await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: null });
    await client.open(given.uri, given.text);
    const diagnostics = await client.pullDiagnostics(given.uri);
    settings = {};
    await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: null });
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity]),
      [
        ["pattern-never-matches", 1],
        ["path-not-absolute", 1],
        ["operations-not-list", 1],
      ],
    );
  });

  it("Given the defaultRuntime setting, When a file names no runtime, Then its checks use that runtime", async () => {
    const given = folder.write(FIXTURES.interruptMode);
    await client.open(given.uri, given.text);
    const modeUnknown = async () => (await client.pullDiagnostics(given.uri)).filter((d) => d.code === "mode-unknown").length;
    assert.equal(await modeUnknown(), 1);
    settings = { defaultRuntime: "deepagents-py" };
    await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: null });
    assert.equal(await modeUnknown(), 0, "interrupt is a mode in deepagents-py");
    assert.match(client.checks.at(-1)?.runtime ?? "", /deepagents-py .*defaultRuntime setting/);
    settings = {};
    await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: null });
    assert.equal(await modeUnknown(), 1);
  });

  it("Given a missing systemPromptFile, When the file is created and the watcher reports it, Then the client is asked to refresh and the error is gone", async () => {
    const given = folder.write(FIXTURES.missingPromptFile);
    await client.open(given.uri, given.text);
    assert.deepEqual((await client.pullDiagnostics(given.uri)).map((d) => d.code), ["system-prompt-conflict"]);
    const prompt = join(given.folder, "PROMPT.md");
    writeFileSync(prompt, "Be careful.\n");
    const refreshes = client.refreshes;
    await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: pathToFileURL(prompt).href, type: FileChangeType.Created }] });
    for (let i = 0; i < 50 && client.refreshes === refreshes; i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(client.refreshes > refreshes, "workspace/diagnostic/refresh was sent");
    assert.deepEqual(await client.pullDiagnostics(given.uri), []);
  });

  it("Given a file that does not parse, When pulled, Then json-syntax errors where the parser stopped", async () => {
    const given = folder.write(FIXTURES.broken);
    await client.open(given.uri, given.text);
    const syntax = (await client.pullDiagnostics(given.uri)).filter((d) => d.code === "json-syntax");
    assert.deepEqual(syntax.map((d) => [d.severity, d.message]), [
      [1, "A comma is expected."],
      [1, 'A closing bracket "]" is expected.'],
    ]);
  });

  it("Given a dry-run scenario, When pulled, Then its schema and the scenario checks apply", async () => {
    const given = folder.write(FIXTURES.scenario);
    await client.open(given.uri, given.text, "agent-sandbox-dryrun");
    const diagnostics = await client.pullDiagnostics(given.uri);
    // The fixture's folder has no agent-sandbox.jsonc; its write_file step has no arguments.
    assert.deepEqual(diagnostics.map((d) => [d.code, rangeText(client.document(given.uri), d.range)]), [
      ["scenario-config-missing", '"./agent-sandbox.jsonc"'],
      ["scenario-args-invalid", '"write_file"'],
      ["schema", '"maybe"'],
    ]);
  });

  it("Given an edit, When pulled again, Then the diagnostics follow the new text", async () => {
    const given = folder.write(FIXTURES.suppressed);
    await client.open(given.uri, given.text);
    assert.deepEqual(await client.pullDiagnostics(given.uri), []);
    const doc = client.document(given.uri);
    const comment = given.text.indexOf("// agent-sandbox-ignore");
    await client.change(given.uri, [{ range: { start: doc.positionAt(comment), end: doc.positionAt(given.text.indexOf("\n", comment)) }, text: "" }]);
    assert.deepEqual((await client.pullDiagnostics(given.uri)).map((d) => d.code), ["pattern-never-matches"]);
  });

  it("Given a list the client has, When it pulls again with its result id, Then the answer is 'unchanged' until the text changes", async () => {
    const given = folder.write(FIXTURES.ruleMistakes);
    await client.open(given.uri, given.text);
    await client.pullCompleteDiagnostics(given.uri);
    type Report = { kind: string; resultId?: string; items?: unknown[] };
    const pull = (previousResultId?: string) => client.request<Report>("textDocument/diagnostic", { textDocument: { uri: given.uri }, ...(previousResultId ? { previousResultId } : {}) });
    const full = await pull();
    assert.equal(full?.kind, "full");
    assert.ok(full.resultId, "a full report carries a result id");
    assert.deepEqual(await pull(full.resultId), { kind: "unchanged", resultId: full.resultId });
    assert.equal((await pull("an id from an earlier server"))?.kind, "full");
    const doc = client.document(given.uri);
    await client.change(given.uri, [{ range: { start: doc.positionAt(0), end: doc.positionAt(0) }, text: " " }]);
    const after = await pull(full.resultId);
    assert.equal(after?.kind, "full", "a new text is a new list");
    assert.notEqual(after.resultId, full.resultId);
  });
});

describe("diagnostics (push, and files that are not open)", () => {
  const session = serverSession((folder) => ({ pull: false, workspaceFolders: [folder.root], initializationOptions: { scanWorkspace: true } }));
  const folder = session.folder;
  // On disk before the server starts (and scans the workspace folder).
  const workspaceFile = folder.write(FIXTURES.ruleMistakes);
  // The same file as Notepad saves it: a byte order mark in front, which VS Code keeps out of the document.
  const markedFile = folder.write(FIXTURES.ruleMistakes, `\uFEFF${FIXTURES.ruleMistakes.text}`);
  let client: LspTestClient;
  before(() => {
    client = session.client;
  });

  it("Given a config file in a workspace folder, When the server starts, Then its diagnostics are pushed without opening it", async () => {
    const published = client.published.get(workspaceFile.uri) ?? (await client.waitForPublish(workspaceFile.uri));
    assert.equal(published.diagnostics.length, 4);
  });

  it("Given a closed config file that starts with a byte order mark, When the server reads it from disk, Then it gets the diagnostics of the same file without one", async () => {
    const plain = client.published.get(workspaceFile.uri) ?? (await client.waitForPublish(workspaceFile.uri));
    const marked = client.published.get(markedFile.uri) ?? (await client.waitForPublish(markedFile.uri));
    const summary = (p: typeof plain) => p.diagnostics.map((d) => ({ code: d.code, range: d.range, message: d.message }));
    assert.deepEqual(summary(marked), summary(plain));
    assert.ok(!marked.diagnostics.some((d) => d.code === "json-syntax"));
  });

  it("Given a closed workspace file, When it is deleted, Then its diagnostics are cleared", async () => {
    if (!client.published.get(workspaceFile.uri)?.diagnostics.length) await client.waitForPublish(workspaceFile.uri, (p) => p.diagnostics.length > 0);
    rmSync(workspaceFile.path);
    const cleared = client.waitForPublish(workspaceFile.uri, (p) => p.diagnostics.length === 0);
    await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: workspaceFile.uri, type: FileChangeType.Deleted }] });
    assert.deepEqual((await cleared).diagnostics, []);
  });

  it("Given a client without pull diagnostics, When a document is opened and edited, Then diagnostics are pushed after the debounce", async () => {
    const given = folder.write(FIXTURES.suppressed);
    const first = client.waitForPublish(given.uri, () => true, 5000).catch(() => undefined);
    await client.open(given.uri, given.text);
    // Nothing to report: nothing is pushed for a clean file.
    assert.equal(await Promise.race([first, new Promise((r) => setTimeout(() => r("quiet"), 300))]), "quiet");
    const doc = client.document(given.uri);
    const comment = given.text.indexOf("// agent-sandbox-ignore");
    const pushed = client.waitForPublish(given.uri, (p) => p.diagnostics.length > 0);
    await client.change(given.uri, [{ range: { start: doc.positionAt(comment), end: doc.positionAt(given.text.indexOf("\n", comment)) }, text: "" }]);
    const published = await pushed;
    assert.deepEqual(published.diagnostics.map((d) => d.code), ["pattern-never-matches"]);
    assert.equal(published.version, client.document(given.uri).version);
    const cleared = client.waitForPublish(given.uri, (p) => p.diagnostics.length === 0);
    await client.close(given.uri);
    await cleared;
  });

  it("Given a new config file in the workspace, When the watcher reports it, Then it is checked", async () => {
    const created = folder.write(FIXTURES.toolDuplicate);
    const pushed = client.waitForPublish(created.uri, (p) => p.diagnostics.length > 0);
    await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: created.uri, type: FileChangeType.Created }] });
    assert.deepEqual((await pushed).diagnostics.map((d) => d.code), ["tool-duplicate"]);
  });

  it("Given the exact analysis, When its complete set is pushed, Then the notification that it is done follows the diagnostics", async () => {
    const given = folder.write({ text: '{ "version": 1, "permissions": [\n { "operations": ["read"], "paths": ["/w/**"] },\n { "operations": ["read"], "paths": ["/w/a.md"], "mode": "deny" }\n] }\n' });
    await client.open(given.uri, given.text);
    const done = await client.waitForCheck((c) => c.uri === given.uri && c.analysis === "done");
    // Read as the notification arrives: what was pushed by then is the complete set, the analysis's finding in.
    assert.equal(done.version, 1);
    assert.ok(client.published.get(given.uri)?.diagnostics.some((d) => d.code === "rule-shadowed"), JSON.stringify(client.published.get(given.uri)));
  });

  it("Given the exact analysis, Then it runs in a thread of lower priority than the one answering requests (Linux)", { skip: process.platform !== "linux" && "thread priorities are set on Linux only" }, async () => {
    const given = folder.write({ text: '{ "version": 1, "permissions": [{ "operations": ["read"], "paths": ["/w/**"] }] }\n' });
    await client.open(given.uri, given.text);
    await client.waitForCheck((c) => c.uri === given.uri && c.analysis === "done");
    const pid = client.process.pid!;
    const nice = (tid: string) => {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
    };
    const threads = readdirSync(`/proc/${pid}/task`);
    assert.equal(nice(String(pid)), 0, "the thread answering requests keeps its priority");
    assert.deepEqual(threads.map(nice).filter((n) => n !== 0), [5], "exactly one thread, the analysis's, is lowered");
  });

  it("registers watchers for the config file names and for the inputs a config reads", async () => {
    const given = folder.write(FIXTURES.missingPromptFile);
    await client.open(given.uri, given.text);
    await client.waitForPublish(given.uri);
    for (let i = 0; i < 50; i++) {
      if (JSON.stringify(client.registrations).includes("PROMPT.md")) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const text = JSON.stringify(client.registrations);
    assert.match(text, /agent-sandbox\.\{json,jsonc\}/);
    assert.match(text, /PROMPT\.md/);
  });
});

describe("diagnostics (pull, with workspace files pushed from disk)", () => {
  const session = serverSession((folder) => ({ pull: true, workspaceFolders: [folder.root], initializationOptions: { scanWorkspace: true } }));
  // On disk before the server starts (and scans the workspace folder).
  const file = session.folder.write(FIXTURES.ruleMistakes);
  let client: LspTestClient;
  before(() => {
    client = session.client;
  });

  it("Given a pushed workspace file, When it is opened, Then the pushed list is cleared (pull takes over), and it is pushed again on close", async () => {
    if (!client.published.get(file.uri)?.diagnostics.length) await client.waitForPublish(file.uri, (p) => p.diagnostics.length > 0);
    const cleared = client.waitForPublish(file.uri, (p) => p.diagnostics.length === 0);
    await client.open(file.uri, file.text);
    await cleared;
    assert.equal((await client.pullDiagnostics(file.uri)).length >= 4, true);
    const again = client.waitForPublish(file.uri, (p) => p.diagnostics.length > 0);
    await client.close(file.uri);
    assert.ok((await again).diagnostics.length >= 4);
  });
});
