/**
 * The editor's side of test/engine/valueSwap.test.ts: every value of a realistic config replaced by values of other
 * kinds, one at a time, and the outline, code lenses, hover and completion asked at that value. None may throw.
 * (`paths: [{}]` made the outline throw: the parser's objects have no prototype, and `String` throws on them.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseJsonc } from "../../server/src/engine/config/parse";
import { valueNodes } from "../helpers/valueNodes";
import { analyze } from "../../server/src/lsp/engineFacade";
import { documentSymbols } from "../../server/src/lsp/documentSymbols";
import { codeLenses } from "../../server/src/lsp/codeLens";
import { hover } from "../../server/src/lsp/hover";
import { complete } from "../../server/src/lsp/completion";

const SEED = `{
  "version": 1,
  "runtime": "deepagents-js",
  "compatibleWith": ["deepagents-py"],
  "tools": ["web_search"],
  "interruptOn": { "write_file": true },
  "backend": { "type": "composite", "default": { "type": "sandbox" }, "routes": { "/memories/": { "type": "store" } } },
  "permissions": [
    { "operations": ["read", "write"], "paths": ["/memories/.env", "/memories/{a,b}/**"], "mode": "deny" },
    { "operations": ["write"], "paths": ["/memories/**"] }
  ],
  "middleware": [{ "type": "filesystem", "tools": ["ls", "read_file"], "permissions": [{ "operations": ["read"], "paths": ["/ws/**"] }] }],
  "subagents": [{ "name": "auditor", "description": "Reviews", "tools": ["run_sql"], "permissions": [{ "operations": ["write"], "paths": ["/**"], "mode": "deny" }] }],
  "authorization": { "enabled": true, "default_role": "user", "roles": { "user": { "tools": { "allow": "*", "deny": ["execute"] } }, "guest": { "tools": { "allow": ["read_file"] } } } },
  "workspace": { "root": "./ws", "mountAt": "/ws" }
}`;
const REPLACEMENTS = ["{}", "[]", "null", "-1.5", '""', "true", '[{}]', '["/a", 1, {}]'];


test("the outline, code lenses, hover and completion never throw on a value of another kind, anywhere", async () => {
  const root = parseJsonc(SEED).root!;
  const fsPath = "/nonexistent/agent-sandbox.jsonc";
  const sample = async () => undefined;
  let runs = 0;
  for (const node of valueNodes(root).slice(1)) {
    for (const replacement of REPLACEMENTS) {
      const text = SEED.slice(0, node.offset) + replacement + SEED.slice(node.offset + node.length);
      const what = `${JSON.stringify(SEED.slice(node.offset, node.offset + node.length))} → ${replacement}`;
      try {
        const analysis = analyze(fsPath, text, { severities: {} });
        assert.deepEqual(analysis.findings.filter((f) => f.code === "internal-error").map((f) => f.message), [], what);
        documentSymbols(analysis);
        codeLenses(analysis, "file:///nonexistent/agent-sandbox.jsonc");
        for (const offset of [node.offset, node.offset + 1, node.offset + replacement.length]) {
          await hover({ analysis, uri: "file:///nonexistent/agent-sandbox.jsonc", fsPath, offset, sample });
          await complete({ analysis, offset, snippets: true, sample, scenarioConfig: () => undefined });
        }
        runs++;
      } catch (error) {
        assert.fail(`${what}: ${(error as Error).stack}`);
      }
    }
  }
  assert.ok(runs > 400, `${runs} runs`);
});
