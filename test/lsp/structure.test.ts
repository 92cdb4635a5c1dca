/** textDocument/documentSymbol, foldingRange, formatting and codeLens. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { CodeLens, DocumentSymbol, FoldingRange, TextEdit } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { FIXTURES, FixtureFolder } from "./fixtures";
import { LspTestClient, rangeText } from "./lspClient";

describe("outline, folding, formatting, code lens", () => {
  const folder = new FixtureFolder();
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start({ pull: true });
  });
  after(async () => {
    assert.deepEqual(client.failures, [], "no request may fail");
    await client.stop();
    folder.dispose();
  });

  it("Given a config, When the outline is asked for, Then agents, subagents, rules and roles nest as in the file", async () => {
    const given = folder.write(FIXTURES.research);
    await client.open(given.uri, given.text);
    const symbols = (await client.request<DocumentSymbol[]>("textDocument/documentSymbol", { textDocument: { uri: given.uri } }))!;
    const shape = (s: DocumentSymbol): unknown => (s.children?.length ? [s.name, s.children.map(shape)] : s.name);
    assert.deepEqual(symbols.map(shape), [
      [
        "research",
        [
          ["permissions", ["rule 0: deny /workspace/.env, /workspace/secrets/**", "rule 1: allow /workspace/**, /memories/**", "rule 2: deny /**"]],
          ["auditor", [["permissions", ["rule 0: deny /**"]]]],
          ["authorization", ["user", "guest"]],
        ],
      ],
    ]);
    const doc = client.document(given.uri);
    const main = symbols[0]!;
    assert.equal(rangeText(doc, main.selectionRange), '"research"');
    const auditor = main.children![1]!;
    assert.equal(rangeText(doc, auditor.selectionRange), '"auditor"');
    // Every selection range lies inside its range (VS Code rejects the outline otherwise).
    const inside = (s: DocumentSymbol) => {
      assert.ok(doc.offsetAt(s.range.start) <= doc.offsetAt(s.selectionRange.start) && doc.offsetAt(s.selectionRange.end) <= doc.offsetAt(s.range.end), s.name);
      s.children?.forEach(inside);
    };
    symbols.forEach(inside);
  });

  it("Given a dry-run scenario, When the outline is asked for, Then its steps are listed", async () => {
    const given = folder.write(FIXTURES.scenario);
    await client.open(given.uri, given.text, "agent-sandbox-dryrun");
    const symbols = (await client.request<DocumentSymbol[]>("textDocument/documentSymbol", { textDocument: { uri: given.uri } }))!;
    assert.deepEqual(symbols.map((s) => s.name), ["step 1: read_file", "step 2: write_file"]);
  });

  it("Given a config, When folding ranges are asked for, Then objects, arrays, comments and regions fold", async () => {
    const text = '{\n  // #region rules\n  "permissions": [\n    {\n      "operations": ["read"], "paths": ["/a"]\n    }\n  ],\n  // #endregion\n  /* a\n     b */\n  "version": 1\n}\n';
    const given = folder.write({ text });
    await client.open(given.uri, given.text);
    const ranges = (await client.request<FoldingRange[]>("textDocument/foldingRange", { textDocument: { uri: given.uri } }))!;
    assert.deepEqual(
      ranges.map((r) => [r.startLine, r.endLine, r.kind ?? ""]),
      [
        [0, 10, ""],
        [1, 7, "region"],
        [2, 5, ""],
        [3, 4, ""],
        [8, 9, "comment"],
      ],
    );
  });

  it("Given messy JSONC, When formatted, Then it is indented as asked and comments survive", async () => {
    const given = folder.write({ text: '{"version":1,\n// keep me\n"permissions":[{"operations":["read"],"paths":["/a"]}]}' });
    await client.open(given.uri, given.text);
    const edits = (await client.request<TextEdit[]>("textDocument/formatting", { textDocument: { uri: given.uri }, options: { tabSize: 2, insertSpaces: true } }))!;
    const formatted = TextDocument.applyEdits(client.document(given.uri), edits);
    assert.equal(formatted, '{\n  "version": 1,\n  // keep me\n  "permissions": [\n    {\n      "operations": [\n        "read"\n      ],\n      "paths": [\n        "/a"\n      ]\n    }\n  ]\n}');
    const range = (await client.request<TextEdit[]>("textDocument/rangeFormatting", {
      textDocument: { uri: given.uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 13 } },
      options: { tabSize: 4, insertSpaces: true },
    }))!;
    assert.ok(range.length > 0);
  });

  it("Given a config, When code lenses are asked for, Then each agent gets 'N tools · Preview prompt · Explain…'", async () => {
    const given = folder.write(FIXTURES.research);
    await client.open(given.uri, given.text);
    const lenses = (await client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri: given.uri } }))!;
    const doc = client.document(given.uri);
    const byLine = new Map<number, string[]>();
    for (const l of lenses) byLine.set(l.range.start.line, [...(byLine.get(l.range.start.line) ?? []), l.command!.title]);
    const line = (snippet: string) => doc.positionAt(given.text.indexOf(snippet)).line;
    assert.deepEqual(byLine.get(0), ["9 tools", "Preview prompt", "Explain…"]);
    assert.deepEqual(byLine.get(line('"subagents"')), ["general-purpose: 8 tools", "Preview prompt", "Explain…"]);
    assert.deepEqual(byLine.get(line('{ "name": "auditor"')), ["auditor: 8 tools", "Preview prompt", "Explain…"]);
    const args = lenses.find((l) => l.command!.title === "auditor: 8 tools")!.command!;
    assert.equal(args.command, "agentSandbox.showEffectiveTools");
    assert.deepEqual(args.arguments, [{ uri: given.uri, agent: "auditor" }]);
  });
});
