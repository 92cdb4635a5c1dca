/** textDocument/documentSymbol, foldingRange, formatting and codeLens. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CodeLens, DocumentSymbol, FoldingRange, TextEdit } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { FIXTURES } from "./fixtures";
import { rangeText } from "./lspClient";
import { request, serverSession } from "./session";

describe("outline, folding, formatting, code lens", () => {
  const session = serverSession();

  it("Given a config, When the outline is asked for, Then agents, subagents, rules and roles nest as in the file", async () => {
    const given = await session.open(FIXTURES.research);
    const symbols = await request<DocumentSymbol[]>(session, given, "textDocument/documentSymbol");
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
    const doc = given.doc;
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

  it("Given one rule and one role, When the outline is asked for, Then their counts are in the singular", async () => {
    const given = await session.open(FIXTURES.research);
    const symbols = await request<DocumentSymbol[]>(session, given, "textDocument/documentSymbol");
    const details = (s: DocumentSymbol): string[] => [`${s.name}: ${s.detail ?? ""}`, ...(s.children ?? []).flatMap(details)];
    const all = details(symbols[0]!);
    assert.ok(all.includes("permissions: 3 rules"), all.join("\n"));
    assert.ok(all.includes("permissions: 1 rule"), all.join("\n"));
    assert.ok(all.includes("authorization: 2 roles"), all.join("\n"));
    const one = await session.open({ text: '{ "version": 1, "authorization": { "enabled": true, "default_role": "r", "roles": { "r": { "tools": { "allow": "*" } } } } }' });
    const roles = (await request<DocumentSymbol[]>(session, one, "textDocument/documentSymbol"))[0]!.children!.find((s) => s.name === "authorization")!;
    assert.equal(roles.detail, "1 role");
  });

  it("Given a dry-run scenario, When the outline is asked for, Then its steps are listed", async () => {
    const given = await session.open(FIXTURES.scenario);
    const symbols = await request<DocumentSymbol[]>(session, given, "textDocument/documentSymbol");
    assert.deepEqual(symbols.map((s) => s.name), ["step 1: read_file", "step 2: write_file"]);
  });

  it("Given a config, When folding ranges are asked for, Then objects, arrays, comments and regions fold", async () => {
    const text = '{\n  // #region rules\n  "permissions": [\n    {\n      "operations": ["read"], "paths": ["/a"]\n    }\n  ],\n  // #endregion\n  /* a\n     b */\n  "version": 1\n}\n';
    const given = await session.open({ text });
    const ranges = await request<FoldingRange[]>(session, given, "textDocument/foldingRange");
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
    const given = await session.open({ text: '{"version":1,\n// keep me\n"permissions":[{"operations":["read"],"paths":["/a"]}]}' });
    const edits = await request<TextEdit[]>(session, given, "textDocument/formatting", { options: { tabSize: 2, insertSpaces: true } });
    const formatted = TextDocument.applyEdits(given.doc, edits);
    assert.equal(formatted, '{\n  "version": 1,\n  // keep me\n  "permissions": [\n    {\n      "operations": [\n        "read"\n      ],\n      "paths": [\n        "/a"\n      ]\n    }\n  ]\n}');
    const range = await request<TextEdit[]>(session, given, "textDocument/rangeFormatting", {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 13 } },
      options: { tabSize: 4, insertSpaces: true },
    });
    assert.ok(range.length > 0);
  });

  it("Given a config, When code lenses are asked for, Then each agent gets 'N tools · Preview prompt · Explain…'", async () => {
    const given = await session.open(FIXTURES.research);
    const lenses = await request<CodeLens[]>(session, given, "textDocument/codeLens");
    const doc = given.doc;
    const byLine = new Map<number, string[]>();
    for (const l of lenses) byLine.set(l.range.start.line, [...(byLine.get(l.range.start.line) ?? []), l.command!.title]);
    const line = (snippet: string) => doc.positionAt(given.text.indexOf(snippet)).line;
    // Without a role the config's default role applies (its `user` may not delete).
    assert.deepEqual(byLine.get(0), ["8 tools", "Preview prompt", "Explain…"]);
    assert.deepEqual(byLine.get(line('"subagents"')), ["general-purpose: 7 tools", "Preview prompt", "Explain…"]);
    assert.deepEqual(byLine.get(line('{ "name": "auditor"')), ["auditor: 7 tools", "Preview prompt", "Explain…"]);
    const args = lenses.find((l) => l.command!.title === "auditor: 7 tools")!.command!;
    assert.equal(args.command, "agentSandbox.showEffectiveTools");
    assert.deepEqual(args.arguments, [{ uri: given.uri, agent: "auditor" }]);
  });

  it("Given a filesystem middleware the runtime refuses, When code lenses are asked for, Then the count is of the tools the agent sees and the lens says the middleware is refused", async () => {
    // No read_file: deepagents-js throws when it builds the middleware; ls and write_file are not tools of anyone.
    const given = await session.open({ text: '{\n  "version": 1,\n  "tools": ["web_search"],\n  "middleware": [{ "type": "filesystem", "tools": ["ls", "write_file"] }],\n  "subagents": [{ "name": "helper", "description": "d", "systemPrompt": "p" }]\n}\n' });
    const lenses = await request<CodeLens[]>(session, given, "textDocument/codeLens");
    const counts = lenses.map((l) => l.command!.title).filter((t) => /tool/.test(t));
    assert.deepEqual(counts, ["2 tools (deepagents-js 1.14.1 refuses middleware #0)", "general-purpose: 1 tool (deepagents-js 1.14.1 refuses middleware #0)", "helper: 8 tools"]);
  });
});
