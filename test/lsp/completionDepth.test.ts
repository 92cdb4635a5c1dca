/** Completion on text the engine refuses to parse (the stack overflowed at 20,000 levels). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyze } from "../../server/src/lsp/engineFacade";
import { complete } from "../../server/src/lsp/completion";
import { MAX_NESTING } from "../../server/src/engine/config/parse";

const sample = async () => undefined;
const completeAt = (fsPath: string, text: string, offset: number) =>
  complete({ analysis: analyze(fsPath, text, { severities: {} }), offset, snippets: true, sample, scenarioConfig: () => undefined });

test("completion in a file nested past the engine's limit answers nothing instead of overflowing the stack", async () => {
  for (const fsPath of ["/nonexistent/agent-sandbox.jsonc", "/nonexistent/x.dryrun.jsonc"]) {
    // Brackets nested 20,000 deep, and `[},` repeated: there the brackets' depth stays 1 while jsonc-parser's
    // parser (and so getLocation) enters one more array per repeat.
    for (const text of [`${"[".repeat(20_000)}${"]".repeat(20_000)}`, `{ "version": 1, "permissions": ${"[},".repeat(20_000)} }`]) {
      for (const offset of [1, 2, Math.floor(text.length / 2), text.length]) {
        assert.deepEqual(await completeAt(fsPath, text, offset), [], `${fsPath} at ${offset}`);
      }
    }
  }
});

test("completion still answers inside a file nested to the engine's limit, and in a file with a syntax error", async () => {
  const fsPath = "/nonexistent/agent-sandbox.jsonc";
  const depth = MAX_NESTING - 2;
  const text = `{ "version": 1, "x": ${"[".repeat(depth)}${"]".repeat(depth)},  }`;
  const labels = (await completeAt(fsPath, text, text.length - 2)).map((i) => i.label);
  assert.ok(labels.includes("runtime"), labels.join(", "));
  const broken = '{ "version": 1, "permissions": [ { "paths": ["/a"], "" } ] ';
  const inRule = (await completeAt(fsPath, broken, broken.indexOf('""') + 1)).map((i) => i.label);
  assert.ok(inRule.includes("operations"), inRule.join(", "));
});
