/**
 * 10,000 random edits (insertions, deletions, garbage, huge pastes) against a live server, with requests of every
 * kind in between: no crash, no error response, bounded memory, and the final diagnostics equal a fresh check of
 * the final text.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { relativeAccess } from "../../server/src/host/files";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { toDiagnosticJson } from "../../server/src/engine/output";
import { FIXTURES, FixtureFolder } from "./fixtures";
import { LspTestClient } from "./lspClient";
import { rng } from "../helpers/random";

const EDITS = 10_000;
const REQUEST_EVERY = 50;
const MAX_TEXT = 120_000;
const SEVERITY = ["", "error", "warning", "information", "hint"];

const SNIPPETS = [
  '{ "operations": ["read"], "paths": ["/workspace/**"], "mode": "deny" },',
  '"paths": ["/a/{b,c}/**", "/x/[!y]", "//", "../up", "~/home", ""],',
  '"subagents": [{ "name": "s", "permissions": null }],',
  '"authorization": { "enabled": true, "roles": { "r": { "tools": { "allow": ["*"] } } } },',
  '"backend": { "type": "sandbox" },',
  '"middleware": [{ "type": "filesystem", "tools": ["ls", "ls"] }],',
  "// agent-sandbox-ignore all\n",
  "/* block */",
  "{", "}", "[", "]", ",", ":", '"', "\\", "\n", "\r\n", "\t", " ",
  "\u0000", "\uD800", "😀", "é", "null", "true", "1e999", "-0", "𝕏",
];

function garbage(random: () => number, length: number): string {
  let s = "";
  for (let i = 0; i < length; i++) s += String.fromCharCode(Math.floor(random() * 0x3000));
  return s;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

describe("robustness", () => {
  const folder = new FixtureFolder();
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start({ pull: true });
  });
  after(async () => {
    await client.stop();
    folder.dispose();
  });

  it(`survives ${EDITS} random edits with requests in between, and ends where a fresh check ends`, { timeout: 600_000 }, async () => {
    const random = rng(20_240_601);
    const given = folder.write(FIXTURES.research);
    await client.open(given.uri, given.text);
    const pid = client.process.pid!;
    const memory: number[] = [];
    const kinds = { insert: 0, delete: 0, garbage: 0, paste: 0, replaceAll: 0 };
    for (let i = 1; i <= EDITS; i++) {
      const doc = client.document(given.uri);
      const text = doc.getText();
      const at = Math.floor(random() * (text.length + 1));
      const roll = random();
      let change: { start: number; end: number; text: string };
      if (text.length > MAX_TEXT) {
        change = { start: Math.floor(text.length / 4), end: text.length, text: "" };
        kinds.delete++;
      } else if (roll < 0.45) {
        change = { start: at, end: at, text: SNIPPETS[Math.floor(random() * SNIPPETS.length)]! };
        kinds.insert++;
      } else if (roll < 0.8) {
        change = { start: at, end: Math.min(text.length, at + Math.floor(random() * 40)), text: "" };
        kinds.delete++;
      } else if (roll < 0.97) {
        change = { start: at, end: Math.min(text.length, at + Math.floor(random() * 5)), text: garbage(random, 1 + Math.floor(random() * 20)) };
        kinds.garbage++;
      } else if (roll < 0.995) {
        // A huge paste: hundreds of rules, or a long run of garbage.
        const rules = Array.from({ length: 50 + Math.floor(random() * 150) }, (_, n) => `{ "operations": ["write"], "paths": ["/p${n}/**"], "mode": "deny" },`).join("\n");
        change = { start: at, end: at, text: random() < 0.5 ? rules : garbage(random, 20_000) };
        kinds.paste++;
      } else {
        change = { start: 0, end: text.length, text: given.text };
        kinds.replaceAll++;
      }
      await client.change(given.uri, [{ range: { start: doc.positionAt(change.start), end: doc.positionAt(change.end) }, text: change.text }]);
      if (i % REQUEST_EVERY === 0) {
        const now = client.document(given.uri);
        const position = now.positionAt(Math.floor(random() * (now.getText().length + 1)));
        const textDocument = { uri: given.uri };
        await Promise.all([
          client.pullDiagnostics(given.uri),
          client.request("textDocument/hover", { textDocument, position }),
          client.request("textDocument/completion", { textDocument, position }),
          client.request("textDocument/documentSymbol", { textDocument }),
          client.request("textDocument/foldingRange", { textDocument }),
          client.request("textDocument/codeLens", { textDocument }),
          client.request("textDocument/codeAction", { textDocument, range: { start: position, end: position }, context: { diagnostics: [], only: ["quickfix"] } }),
          // Fix-all re-checks the text after every round of fixes: now and then only.
          i % (REQUEST_EVERY * 10) === 0 ? client.request("textDocument/codeAction", { textDocument, range: { start: position, end: position }, context: { diagnostics: [], only: ["source.fixAll.agent-sandbox"] } }) : undefined,
          i % (REQUEST_EVERY * 10) === 0 ? client.request("textDocument/formatting", { textDocument, options: { tabSize: 2, insertSpaces: true } }) : undefined,
        ]);
      }
      if (i % 500 === 0) memory.push(rssMb(pid));
    }
    assert.equal(client.process.exitCode, null, "the server is alive");
    assert.deepEqual(client.failures, [], "no request failed");

    // Memory stays bounded: no growth from the first quarter of the run to the last beyond noise.
    const quarter = Math.max(1, Math.floor(memory.length / 4));
    const early = Math.max(...memory.slice(0, quarter));
    const late = Math.max(...memory.slice(-quarter));
    console.log(`edits: ${JSON.stringify(kinds)}; server RSS MB per 500 edits: ${memory.map((m) => m.toFixed(0)).join(" ")}`);
    assert.ok(Math.max(...memory) < 700, `RSS stayed under 700 MB (max ${Math.max(...memory).toFixed(0)})`);
    assert.ok(late < early * 1.5 + 64, `no leak: early ${early.toFixed(0)} MB, late ${late.toFixed(0)} MB`);

    const finalText = client.document(given.uri).getText();
    // The editor runs the exact rule analysis by default (`agentSandbox.ruleAnalysis`).
    const fresh = checkConfigText(finalText, { ...relativeAccess(given.path), analysis: true });
    const actual = await client.pullCompleteDiagnostics(given.uri);
    assert.deepEqual(
      actual.map((d) => ({ code: d.code, severity: SEVERITY[d.severity!], message: d.message, range: d.range })),
      fresh.findings.map((f) => toDiagnosticJson(f, fresh.lines)).map((d) => ({ code: d.code, severity: d.severity, message: d.message, range: d.range })),
    );
    assert.deepEqual(client.failures, []);
  });
});
