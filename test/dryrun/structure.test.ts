/**
 * The engine (and with it the dry-run runner) imports no module that can start a process, write a file or reach
 * the network, and nothing of VS Code or the language server: the host hands it file contents, and the dry run's
 * isolation rests on that.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const ENGINE = join(__dirname, "..", "..", "server", "src", "engine");
const FORBIDDEN = /^(node:)?(fs|fs\/promises|child_process|net|http|https|http2|dgram|worker_threads|cluster|os|vm)$|^vscode|^vscode-languageserver|^fast-glob$|^deepagents$/;

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (e.name.endsWith(".ts")) yield p;
  }
}

test("the engine imports nothing that spawns, writes, listens or belongs to the editor", () => {
  const offenders: string[] = [];
  let files = 0;
  for (const file of sources(ENGINE)) {
    files++;
    // A comment line (`//`, or a line of a `/** … */` block) may quote an import (the source front ends describe the calls they read): only code counts.
    const text = readFileSync(file, "utf8").replace(/^\s*(?:\/\/|\/?\*).*$/gm, "");
    for (const m of text.matchAll(/(?:from\s+|require\(\s*|import\(\s*)["']([^"']+)["']/g)) {
      if (FORBIDDEN.test(m[1]!)) offenders.push(`${relative(ENGINE, file)}: ${m[1]}`);
    }
  }
  assert.ok(files > 100 && [...sources(ENGINE)].some((f) => f.includes(join("engine", "dryrun"))), "the engine's sources were found");
  assert.deepEqual(offenders, []);
});
