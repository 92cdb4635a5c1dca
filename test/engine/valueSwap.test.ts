/**
 * Every value of realistic configs replaced, one at a time, by a value of another kind (an object, a list, null, a
 * number, a string, `true`): whatever a user types, or error recovery makes of a half-typed file, no check may
 * throw. A check that throws shows up as an `internal-error` finding. An object from the parser has no prototype,
 * so `String(value)` on one throws: that is how this test first failed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { parseJsonc } from "../../server/src/engine/config/parse";
import { valueNodes } from "../helpers/valueNodes";
import { explainDecision } from "../../server/src/engine/explain";
import { effectiveTools } from "../../server/src/engine/agents/effectiveTools";
import { promptPreview, renderPromptPreview } from "../../server/src/engine/agents/promptPreview";

const ROOT = join(__dirname, "..", "..");
const SEEDS: string[] = [
  readFileSync(join(ROOT, "examples", "research-agent", "agent-sandbox.jsonc"), "utf8"),
  `{
    "version": 1,
    "runtime": "deepagents-py",
    "compatibleWith": ["deepagents-js"],
    "tools": ["web_search"],
    "interruptOn": { "write_file": true },
    "backend": { "type": "composite", "default": { "type": "sandbox", "provider": "modal" }, "routes": { "/memories/": { "type": "store" }, "/ws/": { "type": "filesystem", "rootDir": "./ws", "virtualMode": true } } },
    "permissions": [
      { "operations": ["read", "write"], "paths": ["/ws/.env", "/ws/{a,b}/**"], "mode": "deny" },
      { "operations": ["write"], "paths": ["/memories/**"], "mode": "interrupt" }
    ],
    "middleware": [{ "type": "filesystem", "tools": ["ls", "read_file", "execute"], "permissions": [{ "operations": ["read"], "paths": ["/ws/**"] }], "toolDescriptions": { "ls": "List" } }],
    "subagents": [{ "name": "auditor", "description": "Reviews", "tools": ["run_sql"], "permissions": null, "interruptOn": { "run_sql": true }, "middleware": [{ "type": "custom", "name": "x" }] }],
    "skills": ["./skills"],
    "authorization": { "enabled": true, "fail_closed": true, "default_role": "user", "roles": { "user": { "tools": { "allow": "*", "deny": ["execute"] }, "models": { "allow": ["gpt"] } }, "guest": { "tools": { "allow": ["read_file", "ls"] } } } },
    "workspace": { "root": "./ws", "mountAt": "/ws" }
  }`,
];
const REPLACEMENTS = ["{}", "[]", "null", "0", "-1.5", '""', '"x"', "true", '{ "a": [1] }', '[{}]', '[null]', '["/a", 1, {}]'];


test("no check, explanation, tool set or prompt preview throws on any value of another kind, anywhere in a config", () => {
  let runs = 0;
  for (const seed of SEEDS) {
    const root = parseJsonc(seed).root!;
    for (const node of valueNodes(root).slice(1)) {
      for (const replacement of REPLACEMENTS) {
        const text = seed.slice(0, node.offset) + replacement + seed.slice(node.offset + node.length);
        const result = checkConfigText(text, { analysis: true });
        runs++;
        const what = `${JSON.stringify(seed.slice(node.offset, node.offset + node.length))} → ${replacement}`;
        const internal = result.findings.filter((f) => f.code === "internal-error");
        assert.deepEqual(internal.map((f) => f.message), [], what);
        // What explain, tools and prompt show of the same file (the CLI shows them for a file with errors too).
        const model = result.model;
        if (!model) continue;
        try {
          for (const agent of ["main", "general-purpose", "auditor"]) {
            for (const op of ["read", "write"] as const) for (const path of ["/ws/.env", "/ws/a/x", "/memories/n", "/etc/passwd", "rel"]) explainDecision(model, agent, op, path);
            for (const role of [null, "user", "guest"]) {
              effectiveTools(model, agent, role);
              const preview = promptPreview(model, agent, role, () => undefined);
              if (preview) renderPromptPreview(preview);
            }
          }
        } catch (error) {
          assert.fail(`${what}: ${(error as Error).stack}`);
        }
      }
    }
  }
  assert.ok(runs > 1000, `${runs} runs`);
});
