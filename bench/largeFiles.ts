/**
 * Section 8: large files through the whole CLI process (issue 27, "Scale without surprises"): `check <file>
 * --format json` with the default options (the exact analysis on), on
 *
 *  - the largest kind of file the CLI reads: 65,089 rules in one list, 3.9 MB (`generateLargeConfigText`);
 *  - the 1,000-rule config of section 3 (`generateConfigText`: comments, subagents, a sample workspace),
 *
 * each with `runtime: "deepagents-js"` and `compatibleWith: ["deepagents-py"]` (both runtimes' readings) and with
 * `runtime: "deepagents-py"` alone; and `check <file> --fix --format json` on the 1,000-rule config with
 * `runtime: "deepagents-js"` alone (no `compatibleWith`, so its redundant rules are safe to remove: 193 fixes in
 * two rounds), each run on a fresh copy of the file (written before the clock starts), against the issue's 3 s. Each row: the process's wall time and CPU time (user + system), and its peak
 * memory (maximum resident set size, read by the process itself as it exits: a preloaded hook prints
 * `process.resourceUsage().maxRSS`), medians of several runs interleaved with `node -e 0` (same hook), whose figures
 * are printed beside them. The issue's bound: every file in under 5 s and 500 MB. What the exact analysis left out
 * (`skipped`) is counted per row: the large file's list is too big to read whole and is said once.
 *
 * Alone: node --import tsx bench/largeFiles.ts [--runs N] [--cli path/to/cli.js] [--only TEXT (rows whose name has it)]
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCHEMA_URI } from "./check";
import { CLI_PATH, CLI_TIMEOUT_MS, timed } from "./cli";
import { generateConfigText, generateLargeConfigText } from "./generate";
import { median } from "./measure";

/** The bounds on each file, the whole process. */
export const LARGE_FILE_TARGET = { ms: 5000, rssMB: 500 };

export const LARGE_RULES = 65_089;

/** `check --fix` on the 1,000-rule config, to its fixed point: the bound, the whole process. */
export const FIX_TARGET_MS = 3000;

export interface LargeFileRow {
  readonly name: string;
  readonly rules: number;
  readonly bytes: number;
  /** Medians: wall ms, CPU ms (where the platform tells), peak memory in MB; and `node -e 0`'s in the same rounds. */
  readonly ms: number;
  readonly cpuMs: number | undefined;
  readonly rssMB: number;
  readonly nodeMs: number;
  readonly nodeRssMB: number;
  readonly runs: number;
  readonly diagnostics: number;
  /** Entries of `skipped` (what the analysis did not finish, said once each). */
  readonly skipped: number;
  readonly exitCode: number;
  readonly timedOut: boolean;
  /** The bound on its wall time (LARGE_FILE_TARGET's, or FIX_TARGET_MS for the `--fix` row). */
  readonly targetMs: number;
  /** For the `--fix` row: the safe fixes applied, as the CLI says on stderr. */
  readonly fixesApplied?: number;
}

interface Report {
  files?: { diagnostics?: unknown[]; skipped?: unknown[] }[];
}

/** Prints the process's peak memory (KB) on stderr as it exits; preloaded into every timed process. */
const MAX_RSS_HOOK = `process.on("exit", () => { try { require("fs").writeSync(2, "\\nmax-rss-kb " + process.resourceUsage().maxRSS + "\\n"); } catch {} });\n`;

function maxRssMB(stderr: string): number {
  const m = /max-rss-kb (\d+)\s*$/.exec(stderr);
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

interface LargeInput {
  name: string;
  rules: number;
  text: string;
  /** `check --fix`: each run on a fresh copy of `text`. */
  fix?: boolean;
}

function inputs(): LargeInput[] {
  const rows: LargeInput[] = [];
  for (const runtime of ["deepagents-js", "deepagents-py"] as const) {
    const name = runtime === "deepagents-js" ? "deepagents-js + compatibleWith deepagents-py" : "deepagents-py";
    rows.push({ name: `${LARGE_RULES.toLocaleString("en")} rules, one list, ${name}`, rules: LARGE_RULES, text: generateLargeConfigText(LARGE_RULES, LARGE_RULES, runtime) });
  }
  // Section 3's config (seed and all), as generated; then the same with deepagents-py as its runtime.
  const thousand = generateConfigText(1000, 2000, SCHEMA_URI);
  rows.push({ name: "1,000 rules (section 3), deepagents-js + compatibleWith deepagents-py", rules: 1000, text: thousand });
  rows.push({ name: "1,000 rules (section 3), deepagents-py", rules: 1000, text: thousand.replace(`"runtime": "deepagents-js",\n  "compatibleWith": ["deepagents-py"],`, `"runtime": "deepagents-py",`) });
  rows.push({ name: "1,000 rules (section 3), deepagents-js alone, check --fix", rules: 1000, text: thousand.replace(`  "compatibleWith": ["deepagents-py"],\n`, ""), fix: true });
  return rows;
}

/** `only`: the rows whose name contains it (all by default). */
export function benchLargeFiles(runs: number, cliPath = CLI_PATH, only?: string): LargeFileRow[] | { skipped: string } {
  if (!existsSync(cliPath)) return { skipped: `${cliPath} does not exist (npm run build has not produced the CLI yet)` };
  const dir = mkdtempSync(join(tmpdir(), "agent-sandbox-bench-large-"));
  try {
    const hook = join(dir, "max-rss.cjs");
    writeFileSync(hook, MAX_RSS_HOOK);
    mkdirSync(join(dir, "sample-workspace"));
    writeFileSync(join(dir, "sample-workspace", "README.md"), "# sample\n");
    const rows: LargeFileRow[] = [];
    inputs().forEach((input, k) => {
      if (only !== undefined && !input.name.includes(only)) return;
      const file = join(dir, `large-${k}.agent-sandbox.jsonc`);
      writeFileSync(file, input.text);
      const args = ["--require", hook, cliPath, "check", file, ...(input.fix ? ["--fix"] : []), "--format", "json"];
      const nodeArgs = ["--require", hook, "-e", "0"];
      // --fix rewrites the file: every run starts from the text as generated.
      const run = () => {
        if (input.fix) writeFileSync(file, input.text);
        return timed(args, dir);
      };
      // An untimed first run: the answer, and the compile cache and file cache filled as for any later run.
      const first = run();
      let report: Report | undefined;
      try {
        report = JSON.parse(first.stdout) as Report;
      } catch {
        report = undefined;
      }
      const file0 = report?.files?.[0];
      const applied = /: (\d+) safe fix(?:es)? applied/.exec(first.stderr);
      const base = {
        name: input.name, rules: input.rules, bytes: input.text.length, diagnostics: file0?.diagnostics?.length ?? -1, skipped: file0?.skipped?.length ?? 0, exitCode: first.status ?? -1,
        targetMs: input.fix ? FIX_TARGET_MS : LARGE_FILE_TARGET.ms,
        ...(input.fix ? { fixesApplied: applied ? Number(applied[1]) : 0 } : {}),
      };
      if (first.timedOut) {
        rows.push({ ...base, ms: first.ms, cpuMs: undefined, rssMB: Number.NaN, nodeMs: Number.NaN, nodeRssMB: Number.NaN, runs: 0, timedOut: true });
        return;
      }
      const cli: ReturnType<typeof timed>[] = [];
      const node: ReturnType<typeof timed>[] = [];
      for (let i = 0; i < runs; i++) {
        // Alternate which goes first so neither always follows the other.
        const pair = [() => cli.push(run()), () => node.push(timed(nodeArgs, dir))];
        if (i % 2 === 1) pair.reverse();
        for (const run of pair) run();
      }
      const cpu = cli.every((r) => r.cpuMs !== undefined) ? median(cli.map((r) => r.cpuMs!)) : undefined;
      rows.push({
        ...base,
        ms: median(cli.map((r) => r.ms)),
        cpuMs: cpu,
        rssMB: median(cli.map((r) => maxRssMB(r.stderr))),
        nodeMs: median(node.map((r) => r.ms)),
        nodeRssMB: median(node.map((r) => maxRssMB(r.stderr))),
        runs,
        timedOut: cli.some((r) => r.timedOut),
      });
    });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Under its bound (5 s; 3 s for --fix) and 500 MB, with an answer (JSON printed, exit 0 or 1). */
export function largeFileTargetMet(row: LargeFileRow): boolean {
  return !row.timedOut && row.diagnostics >= 0 && (row.exitCode === 0 || row.exitCode === 1) && row.ms < row.targetMs && row.rssMB < LARGE_FILE_TARGET.rssMB;
}

export function formatLargeFileRow(r: LargeFileRow): string {
  const cpu = r.cpuMs === undefined ? "" : `, CPU ${r.cpuMs.toFixed(0)} ms`;
  const bytes = r.bytes >= 1 << 20 ? `${(r.bytes / (1 << 20)).toFixed(1)} MB` : `${(r.bytes / 1024).toFixed(0)} KB`;
  if (r.timedOut) return `${r.name} (${bytes}): no answer within ${CLI_TIMEOUT_MS / 1000} s`;
  const fixes = r.fixesApplied === undefined ? "" : `, ${r.fixesApplied} fixes applied`;
  return `${r.name} (${bytes}): ${r.ms.toFixed(0)} ms${cpu}, ${r.rssMB.toFixed(0)} MB; node -e 0 ${r.nodeMs.toFixed(0)} ms, ${r.nodeRssMB.toFixed(0)} MB (median of ${r.runs}); exit ${r.exitCode}, ${r.diagnostics} diagnostics${fixes}, ${r.skipped} skipped`;
}

// Run alone (`node --import tsx bench/largeFiles.ts`), not when bundled into the whole benchmark (bench/build.mjs).
if (process.argv[1]?.endsWith("largeFiles.ts")) {
  const option = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const result = benchLargeFiles(Number(option("--runs") ?? 5), option("--cli") ?? CLI_PATH, option("--only"));
  if ("skipped" in result) console.log(`skipped: ${result.skipped}`);
  else for (const r of result) console.log(`${largeFileTargetMet(r) ? "PASS" : "FAIL"}  ${formatLargeFileRow(r)}`);
}
