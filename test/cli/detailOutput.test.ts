/**
 * A finding's detail in each CLI format: JSON carries it as a field, SARIF after the message in `message.text`
 * (the first sentence stays the summary), text indented under the finding's line, wrapped.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { main } from "../../server/src/cli/main";
import { toSarif } from "../../server/src/cli/sarif";
import { textReport, wrap } from "../../server/src/cli/text";
import type { DiagnosticJson } from "../../server/src/engine/output";
import { scratchDir } from "../helpers/scratch";

const MESSAGE = 'deepagents-js 1.14.1 refuses the path "relative/x" when it builds the agent: it does not start with "/".';
const DETAIL = 'It throws: Error: path must be absolute: "relative/x"';

function run(format: string): string {
  const file = join(scratchDir("detail-output"), "agent-sandbox.jsonc");
  writeFileSync(file, '{\n  "version": 1,\n  "permissions": [{ "operations": ["read"], "paths": ["relative/x"], "mode": "deny" }]\n}\n');
  const out: string[] = [];
  main(["check", file, "--format", format, "--no-analysis"], { out: (t) => out.push(t), err: () => undefined, color: false });
  return out.join("");
}

test("check --format json: the detail beside the message", () => {
  const [d] = JSON.parse(run("json")).files[0].diagnostics as DiagnosticJson[];
  assert.deepEqual([d!.code, d!.message, d!.detail], ["path-not-absolute", MESSAGE, DETAIL]);
});

test("check --format sarif: message.text is the message, then the detail", () => {
  const result = JSON.parse(run("sarif")).runs[0].results[0];
  assert.equal(result.message.text, `${MESSAGE} ${DETAIL}`);
});

test("check --format text: the detail indented under the finding's line", () => {
  const lines = run("text").split("\n");
  const at = lines.findIndex((l) => l.includes(MESSAGE));
  assert.ok(at >= 0, lines.join("\n"));
  assert.equal(lines[at + 1], `${" ".repeat(22)}${DETAIL}`);
});

test("a long detail is wrapped at spaces, every line within 100 columns, and a witness and related lines follow it", () => {
  const detail = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
  const d: DiagnosticJson = {
    code: "rule-shadowed",
    severity: "warning",
    message: "Rule 1 never applies: rule 0 decides every path it matches first.",
    range: { start: { line: 3, character: 4 }, end: { line: 3, character: 9 } },
    detail,
    witness: "/workspace/.env",
  };
  const out = textReport([{ path: "a.jsonc", diagnostics: [d] }], { files: 1, errors: 0, warnings: 1, information: 0, hints: 0 }, false);
  const lines = out.split("\n");
  const first = lines.findIndex((l) => l.includes(d.message));
  const detailLines = lines.slice(first + 1).filter((l) => /^ {22}word/.test(l));
  assert.ok(detailLines.length > 1);
  assert.ok(detailLines.every((l) => l.length <= 100), detailLines.join("\n"));
  assert.equal(detailLines.map((l) => l.trim()).join(" "), detail);
  assert.equal(lines[first + 1 + detailLines.length], `${" ".repeat(22)}witness: /workspace/.env`);
});

test("wrap: a word longer than the width gets a line of its own, never cut", () => {
  assert.deepEqual(wrap(`a ${"x".repeat(30)} b c`, 10), ["a", "x".repeat(30), "b c"]);
  assert.deepEqual(wrap("one two three", 100), ["one two three"]);
});

test("SARIF without a detail: the message alone, the witness after it", () => {
  const d: DiagnosticJson = { code: "x", severity: "hint", message: "M.", range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, witness: "/w" };
  const sarif = toSarif([{ path: "a.jsonc", diagnostics: [d] }], "0", "https://example.invalid") as { runs: { results: { message: { text: string } }[] }[] };
  assert.equal(sarif.runs[0]!.results[0]!.message.text, "M. (witness: /w)");
});
