/** textDocument/codeAction: every quick fix applied and re-checked, "Ignore <code> here", source.fixAll. */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { Diagnostic, TextEdit } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { FIXTURES, type FixtureName } from "./fixtures";
import { ROOT } from "./lspClient";
import { codeActionsFor, fixAllOf, serverSession } from "./session";

const WITH_FIXES: FixtureName[] = ["ruleMistakes", "toolDuplicate", "sandboxGuard", "authz", "schemaErrors", "research"];

function apply(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create("x", "x", 0, text), edits);
}

describe("code actions", () => {
  const session = serverSession();

  for (const name of WITH_FIXES) {
    it(`Given ${name}, When each quick fix is applied, Then the server re-checks and that finding is gone`, async () => {
      const given = await session.open(FIXTURES[name]);
      const client = session.client;
      const before = await client.pullDiagnostics(given.uri);
      let applied = 0;
      for (const diagnostic of before) {
        const actions = await codeActionsFor(session, given, diagnostic);
        if (diagnostic.code !== "json-syntax") assert.ok(actions.some((a) => a.title === `Ignore ${diagnostic.code} here`), `ignore action for ${diagnostic.code}`);
        for (const action of actions) {
          assert.equal(action.kind, "quickfix");
          assert.deepEqual(action.diagnostics, [diagnostic]);
          const edits = action.edit!.changes![given.uri]!;
          await client.replaceAll(given.uri, apply(given.text, edits));
          const after = await client.pullDiagnostics(given.uri);
          const same = (d: Diagnostic) => d.code === diagnostic.code && d.message === diagnostic.message;
          assert.ok(
            after.filter(same).length < before.filter(same).length,
            `"${action.title}" should remove ${diagnostic.code}: ${diagnostic.message}\n${client.document(given.uri).getText()}`,
          );
          await client.replaceAll(given.uri, given.text);
          applied++;
        }
      }
      // internal-error reports a bug in a check: nothing to fix or ignore there.
      assert.ok(applied >= before.filter((d) => d.code !== "internal-error").length, `${name}: every finding has at least one action`);
    });
  }

  it("Given an ignore comment above a line, When another code is ignored there, Then the code is added to that comment", async () => {
    const given = await session.open({ text: '{\n  "version": 1,\n  "permissions": [\n    // agent-sandbox-ignore rule-empty\n    { "operations": "read", "paths": [], "mode": "deny" }\n  ]\n}\n' });
    const [diagnostic] = await session.client.pullDiagnostics(given.uri);
    assert.equal(diagnostic?.code, "operations-not-list");
    const ignore = (await codeActionsFor(session, given, diagnostic)).find((a) => a.title.startsWith("Ignore"))!;
    const text = apply(given.text, ignore.edit!.changes![given.uri]!);
    assert.match(text, /\/\/ agent-sandbox-ignore rule-empty operations-not-list\n/);
  });

  for (const name of ["ruleMistakes", "toolDuplicate", "sandboxGuard"] as const) {
    it(`Given ${name}, When source.fixAll.agent-sandbox runs, Then the text equals \`check --fix\` (safe fixes only)`, async () => {
      const given = await session.open(FIXTURES[name]);
      const client = session.client;
      const diagnostics = await client.pullDiagnostics(given.uri);
      const actions = (await fixAllOf(session, given, "source.fixAll.agent-sandbox")) ?? [];
      assert.equal(actions.length, 1);
      assert.equal(actions[0]!.kind, "source.fixAll.agent-sandbox");
      const fixed = apply(given.text, actions[0]!.edit!.changes![given.uri]!);
      try {
        execFileSync(process.execPath, [join(ROOT, "dist", "cli.js"), "check", "--fix", given.path], { stdio: "pipe" });
      } catch {
        /* exit 1: errors remain */
      }
      assert.equal(fixed, readFileSync(given.path, "utf8"));
      assert.notEqual(fixed, given.text);
      // A fixed point: once applied, fix-all has nothing left to do.
      await client.replaceAll(given.uri, fixed);
      assert.ok(diagnostics.length > 0);
      await client.pullDiagnostics(given.uri);
      assert.deepEqual(await fixAllOf(session, given, "source.fixAll.agent-sandbox"), []);
    });
  }

  it("Given an edit while the exact analysis runs, When fix-all is asked at once (on save), Then it waits for the analysis and applies its safe fix too", async () => {
    const text = `{
  "version": 1,
  "permissions": [
    { "operations": ["read", "write"], "paths": ["/workspace/**"] },
    { "operations": ["write"], "paths": ["/workspace/.git/**"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/workspace/**/*.md"], "mode": "allow" },
    { "operations": ["write"], "paths": ["/**/secret"], "mode": "deny" }
  ]
}
`;
    const given = await session.open({ text });
    const client = session.client;
    for (let round = 0; round < 3; round++) {
      // Typing, then saving at once: no pull in between, the analysis of the new text not yet done.
      const typed = round % 2 === 0 ? text.replace('"version": 1,', '"version": 1, ') : text;
      await client.replaceAll(given.uri, typed);
      const actions = (await fixAllOf(session, given, "source.fixAll.agent-sandbox")) ?? [];
      assert.equal(actions.length, 1, `round ${round}`);
      const fixed = apply(typed, actions[0]!.edit!.changes![given.uri]!);
      assert.ok(!fixed.includes("*.md"), fixed);
    }
    // A lightbulb on the analysis's diagnostic, asked right after an edit, offers its fix.
    const diagnostic = (await client.pullCompleteDiagnostics(given.uri)).find((d) => d.code === "rule-redundant")!;
    assert.ok(diagnostic);
    await client.replaceAll(given.uri, text.replace('"version": 1,', '"version": 1,  '));
    const titles = (await codeActionsFor(session, given, diagnostic)).map((a) => a.title);
    assert.ok(titles.includes("Remove rule"), titles.join(", "));
  });

  it("Given a file with only unsafe fixes, When source.fixAll runs, Then nothing is offered", async () => {
    const given = await session.open(FIXTURES.authz);
    assert.deepEqual(await fixAllOf(session, given, "source.fixAll"), []);
  });
});
