/**
 * The extension in a workspace of plain Python and TypeScript files (e2e/fixtures/plain: no config, another
 * program's config.yaml, nothing naming deepagents): it activates on those languages, but starts no language server,
 * so no process, no grammar and no diagnostic, until a file that calls the runtime is opened. The languages' own
 * extensions keep answering (TypeScript's outline here).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "mocha";
import * as vscode from "vscode";

import { sleep, until } from "./wait";
const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === "agent-sandbox");
const codes = (uri: vscode.Uri) => ours(uri).map((d) => String(typeof d.code === "object" ? d.code.value : d.code));

/** The command lines of this machine's processes that run the extension's language server (read from /proc). */
function serverProcesses(extensionPath: string): string[] {
  const server = join(extensionPath, "dist", "server.js");
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (args.includes(server)) found.push(`${pid}: ${args.join(" ")}`);
    } catch {
      // The process ended while the list was read.
    }
  }
  return found;
}

describe("Agent Sandbox in a workspace that does not use deepagents", () => {
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
  const file = (name: string) => vscode.Uri.joinPath(folder(), name);
  let ext: vscode.Extension<{ ready: Promise<void>; started(): boolean }>;

  before(async () => {
    ext = vscode.extensions.getExtension("agent-sandbox.agent-sandbox")!;
    assert.ok(ext, "extension present");
  });

  it("activates for a plain Python and a plain TypeScript file but starts no server: no process, no diagnostic", async () => {
    const py = await vscode.workspace.openTextDocument(file("plain.py"));
    await vscode.window.showTextDocument(py);
    const ts = await vscode.workspace.openTextDocument(file("plain.ts"));
    await vscode.window.showTextDocument(ts, vscode.ViewColumn.Beside);
    assert.equal(py.languageId, "python");
    assert.equal(ts.languageId, "typescript");
    await until("activation on the languages", () => ext.isActive);
    // The workspace search (configs, DeerFlow's files: config.yaml here is another program's) runs after activation.
    await sleep(5000);
    assert.equal(ext.exports.started(), false, "the language client was not started");
    assert.deepEqual(serverProcesses(ext.extensionPath), [], "no language server process");
    assert.deepEqual([...codes(py.uri), ...codes(ts.uri)], []);
    // An edit that does not name the runtime changes nothing.
    const editor = await vscode.window.showTextDocument(py);
    await editor.edit((e) => e.insert(new vscode.Position(py.lineCount, 0), "\nimport json\n"));
    await sleep(1000);
    assert.equal(ext.exports.started(), false);
    await vscode.commands.executeCommand("undo");
  });

  it("starts the server when a file that calls create_deep_agent is opened, and shows its diagnostics", async () => {
    const agent = await vscode.workspace.openTextDocument(file("agent.py"));
    await vscode.window.showTextDocument(agent);
    await until("the language client to start", () => ext.exports.started());
    await ext.exports.ready;
    await until("the diagnostics of agent.py", () => (codes(agent.uri).length > 0 ? true : undefined));
    assert.deepEqual(codes(agent.uri), ["tools-not-list"]);
    assert.equal(agent.getText(ours(agent.uri)[0]!.range), '{"read_file", "ls"}');
    assert.equal(serverProcesses(ext.extensionPath).length, 1, "one language server process");
    // Still nothing in the plain files, which the server now sees too.
    assert.deepEqual([...codes(file("plain.py")), ...codes(file("plain.ts"))], []);
  });

  it("leaves TypeScript's own features to its extension (the outline of a TypeScript file)", async () => {
    const symbols = await until("TypeScript's outline of plain.ts", async () => {
      const found = await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>("vscode.executeDocumentSymbolProvider", file("plain.ts"));
      return found?.length ? found : undefined;
    });
    assert.deepEqual(symbols.map((s) => s.name), ["greet"]);
  });
});
