/**
 * The source front ends (server/src/engine/sources/): how long a check of a source file takes against the same
 * checks on the equivalent agent-sandbox.jsonc, in the same run; bad inputs and truncation at every character
 * (times only: test/sources/badInput.test.ts asserts the answers); `check` of a folder of 10,000 source files of
 * which 10 call the runtime, against `node -e 0`; and what the parser adds to the package.
 *
 * Alone (after `node build.mjs`): node --import tsx bench/sources.ts
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { medianCpuMs } from "./measure";
import { gzipSync } from "node:zlib";
import { checkConfigText } from "../server/src/engine/checkConfig";
import { checkSource, loadGrammars, SOURCE_FIXTURES } from "../test/helpers/sources";
import { SOURCE_BAD_INPUTS } from "../test/helpers/sourceBadInputs";
import { twoThousandLines } from "./parsers";

const ROOT = join(__dirname, "..");

const cpuMs = (run: () => void, rounds = 11): number => medianCpuMs(run, rounds, 3);

/** The config the 2,000-line files' call describes. */
const EQUIVALENT = (runtime: string) => `{
  "version": 1,
  "runtime": "${runtime}",
  "permissions": [{ "operations": ["read", "write"], "paths": ["secrets/**"], "mode": "deny" }],
  "middleware": [{ "type": "filesystem", "tools": ["ls", "glob"] }]
}`;

function wallMs(command: string[]): number {
  const start = process.hrtime.bigint();
  spawnSync(command[0]!, command.slice(1), { stdio: "ignore" });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function main(): Promise<void> {
  await loadGrammars();
  console.log("## Checks on a 2,000-line source file with one call (CPU ms, median of 11, after a warm-up)\n");
  console.log("| file | source | equivalent JSONC | ratio |\n| --- | --- | --- | --- |");
  for (const [language, runtime] of [["typescript", "deepagents-js"], ["python", "deepagents-py"]] as const) {
    const text = twoThousandLines(language);
    const source = cpuMs(() => checkSource(text, language));
    const config = cpuMs(() => checkConfigText(EQUIVALENT(runtime), { analysis: true }));
    console.log(`| ${language} | ${source.toFixed(2)} | ${config.toFixed(2)} | ${(source / config).toFixed(1)} |`);
  }

  console.log("\n## Bad input (CPU ms of one check, after the grammar is loaded)\n");
  console.log("| input | ms |\n| --- | --- |");
  for (const input of SOURCE_BAD_INPUTS) {
    const text = input.text();
    console.log(`| ${input.name} | ${cpuMs(() => checkSource(text, input.language), 3).toFixed(1)} |`);
  }
  for (const [folder, file, language] of [["ts", "namespace-import.ts", "typescript"], ["py", "middleware-drops.py", "python"]] as const) {
    const text = readFileSync(join(SOURCE_FIXTURES, folder, file), "utf8");
    let worst = 0;
    const start = process.cpuUsage();
    for (let end = 0; end <= text.length; end++) {
      const one = process.cpuUsage();
      checkSource(text.slice(0, end), language, { analysis: false });
      const used = process.cpuUsage(one);
      worst = Math.max(worst, (used.user + used.system) / 1000);
    }
    const all = process.cpuUsage(start);
    console.log(`| ${file} cut at each of its ${text.length + 1} places: worst one / all | ${worst.toFixed(1)} / ${((all.user + all.system) / 1000).toFixed(0)} |`);
  }

  console.log("\n## check of a folder: 10,000 source files, 10 of which call the runtime (wall ms, median of 3)\n");
  const folder = mkdtempSync(join(tmpdir(), "agent-sandbox-sources-"));
  try {
    const calling = readFileSync(join(SOURCE_FIXTURES, "ts", "alias-import.ts"), "utf8");
    for (let i = 0; i < 10_000; i++) {
      const dir = join(folder, `pkg${i % 100}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `module${i}.${i % 2 ? "ts" : "py"}`), i % 1000 === 0 ? calling : `export const value${i} = ${i};\n`);
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
    const cli = median([0, 1, 2].map(() => wallMs([process.execPath, join(ROOT, "dist", "cli.js"), "check", folder, "--format", "json"])));
    const node = median([0, 1, 2].map(() => wallMs([process.execPath, "-e", "0"])));
    console.log(`| check | node -e 0 | ratio |\n| --- | --- | --- |\n| ${cli.toFixed(0)} | ${node.toFixed(0)} | ${(cli / node).toFixed(1)} |`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }

  console.log("\n## What the parser adds to dist/ (bytes; deflated as the VSIX's zip stores them)\n");
  let raw = 0;
  let packed = 0;
  let all = 0;
  let allPacked = 0;
  for (const name of readdirSync(join(ROOT, "dist"))) {
    const bytes = readFileSync(join(ROOT, "dist", name));
    const size = statSync(join(ROOT, "dist", name)).size;
    const deflated = gzipSync(bytes, { level: 9 }).length;
    all += size;
    allPacked += deflated;
    if (name.endsWith(".wasm") || name === "tree-sitter.js") {
      raw += size;
      packed += deflated;
    }
  }
  console.log(`| | raw | deflated |\n| --- | --- | --- |\n| parser (tree-sitter.js + 4 .wasm) | ${raw} | ${packed} |\n| all of dist/ | ${all} | ${allPacked} |`);
}

void main();
