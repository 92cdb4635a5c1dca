/**
 * Section 3: the whole CLI process, as a pre-commit hook or CI step runs it, on the 1,000-rule config:
 * wall time of `node dist/cli.js check <file> --format json` minus the wall time of `node -e 0` (Node's own
 * start-up, which no product can avoid), each the median of several runs, interleaved.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { SCHEMA_URI } from "./check";
import { generateConfigText } from "./generate";
import { median } from "./measure";

export const CLI_PATH = join(__dirname, "..", "dist", "cli.js");

export interface CliResult {
  ruleCount: number;
  runs: number;
  cliMs: number;
  nodeMs: number;
  /** cliMs − nodeMs. */
  aboveNodeMs: number;
  cliRuns: number[];
  nodeRuns: number[];
  exitCode: number;
  diagnostics: number;
}

function timed(args: string[], cwd: string): { ms: number; status: number | null; stdout: string; stderr: string } {
  const t0 = performance.now();
  // The same environment for both, without NODE_OPTIONS that npm or the parent might carry (e.g. a loader).
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.error) throw r.error;
  return { ms, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `undefined` with a reason when the CLI bundle is not there (run `npm run build`). */
export function benchCli(ruleCount: number, runs: number): CliResult | { skipped: string } {
  if (!existsSync(CLI_PATH)) return { skipped: `${CLI_PATH} does not exist (npm run build has not produced the CLI yet)` };
  const dir = mkdtempSync(join(tmpdir(), "agent-sandbox-bench-"));
  try {
    const file = join(dir, "agent-sandbox.jsonc");
    writeFileSync(file, generateConfigText(ruleCount, 1000 + ruleCount, SCHEMA_URI));
    mkdirSync(join(dir, "sample-workspace"));
    writeFileSync(join(dir, "sample-workspace", "README.md"), "# sample\n");

    const cliArgs = [CLI_PATH, "check", file, "--format", "json"];
    const nodeArgs = ["-e", "0"];
    // A first run of each checks the answer and warms the file cache.
    const first = timed(cliArgs, dir);
    if (first.status !== 0 && first.status !== 1) {
      return { skipped: `the CLI exited with ${first.status}: ${first.stderr.trim().split("\n").slice(0, 5).join(" | ")}` };
    }
    let diagnostics = 0;
    try {
      const out = JSON.parse(first.stdout) as { files?: { diagnostics?: unknown[] }[] };
      diagnostics = (out.files ?? []).reduce((s, f) => s + (f.diagnostics?.length ?? 0), 0);
    } catch {
      const why = first.stderr.trim().split("\n").filter((l) => /error/i.test(l)).slice(0, 2).join(" | ") || first.stdout.slice(0, 200);
      return { skipped: `the CLI did not print JSON (exit ${first.status}): ${why}` };
    }
    timed(nodeArgs, dir);
    // Keep the section near half a minute even when the CLI is slow (a regression, or a busy machine).
    if (first.ms * runs > 30_000) runs = Math.max(3, Math.floor(30_000 / first.ms));

    const cliRuns: number[] = [];
    const nodeRuns: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Alternate which goes first so neither always follows the other.
      if (i % 2 === 0) {
        cliRuns.push(timed(cliArgs, dir).ms);
        nodeRuns.push(timed(nodeArgs, dir).ms);
      } else {
        nodeRuns.push(timed(nodeArgs, dir).ms);
        cliRuns.push(timed(cliArgs, dir).ms);
      }
    }
    const cliMs = median(cliRuns);
    const nodeMs = median(nodeRuns);
    return { ruleCount, runs, cliMs, nodeMs, aboveNodeMs: cliMs - nodeMs, cliRuns, nodeRuns, exitCode: first.status ?? -1, diagnostics };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
