/**
 * Section 3: the whole CLI process, as a pre-commit hook or CI step runs it, on the 1,000-rule config:
 * wall time of `node dist/cli.js check <file> --format json --no-analysis` minus the wall time of `node -e 0` (Node's own
 * start-up, which no product can avoid), each the median of several runs, interleaved. The first, untimed run
 * also leaves V8's compiled code of the bundles in the compile cache (Node 22's own, or the CLI's on Node 20:
 * server/src/cli/compileCache.ts), as any earlier run on that machine would.
 *
 * Alone, e.g. to compare two builds in the same minute (with two or more `--cli`, interleaved: `compareClis`):
 *   node --import tsx bench/cli.ts [--runs N] [--rules N | --example] [--cli path/to/cli.js ...]
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
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
  /** Median CPU time (user + system) of each, where the platform tells (Linux). */
  cliCpuMs?: number;
  nodeCpuMs?: number;
  /** Median minor page faults of each, where the platform tells (Linux). */
  cliFaults?: number;
  nodeFaults?: number;
  exitCode: number;
  diagnostics: number;
  /** The first, untimed run's wall time: the one that may compile the bundles from scratch and fill the cache. */
  firstRunMs?: number;
  /** The same command with each check of `WHERE_THE_TIME_GOES` turned off, timed in the same rounds. */
  without?: readonly CheckOffResult[];
}

/** One row of `CliResult.without`. */
export interface CheckOffResult {
  readonly code: string;
  /** Median wall time of `… --severity <code>=off`, minus `node -e 0`'s. */
  readonly aboveNodeMs: number;
  /** The whole command's median minus this one's: what the check costs the process. */
  readonly checkMs: number;
  /** In how many rounds the command without the check was the faster of the two. */
  readonly fasterRounds: number;
  readonly diagnostics: number;
}

/**
 * The checks whose share of the process the section also shows: the command again with one turned off
 * (`--severity CODE=off`, which skips running it: checkConfig.ts), in the same interleaved rounds. dotfiles-unprotected's
 * witness search (a Python-compatible config: `compatibleWith: ["deepagents-py"]`, as the generated one is) is
 * about half the process at 1,000 rules, and where the time goes is what a reader of a missed target needs first.
 */
export const WHERE_THE_TIME_GOES = ["dotfiles-unprotected"] as const;

/**
 * What this process's waited-for children have used so far, from /proc/self/stat (Linux; `undefined` elsewhere):
 * CPU time (user + system, ms; clock ticks, usually 10 ms) and minor page faults. Shown next to wall time: on a
 * busy machine wall time mostly counts waiting for a core, CPU time does not; and on a virtual machine a page fault
 * (the first touch of fresh memory) can cost microseconds, so the faults say how much memory a run touched.
 */
function childrenUsage(): { cpuMs: number; faults: number } | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 11, 16 and 17 of proc(5) (cminflt, cutime, cstime) are the 8th, 14th and 15th after the command name.
    return { cpuMs: ((Number(fields[13]) + Number(fields[14])) * 1000) / 100, faults: Number(fields[8]) };
  } catch {
    return undefined;
  }
}

/** One CLI run longer than this is stopped, and the section reports that instead of a time. */
export const CLI_TIMEOUT_MS = 20_000;

export function timed(args: string[], cwd: string): { ms: number; cpuMs: number | undefined; faults: number | undefined; status: number | null; stdout: string; stderr: string; timedOut: boolean } {
  const usage0 = childrenUsage();
  const t0 = performance.now();
  // The same environment for both, without NODE_OPTIONS that npm or the parent might carry (e.g. a loader).
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024, timeout: CLI_TIMEOUT_MS });
  const ms = performance.now() - t0;
  const usage1 = childrenUsage();
  const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT";
  if (r.error && !timedOut) throw r.error;
  const used = usage0 && usage1 ? { cpuMs: usage1.cpuMs - usage0.cpuMs, faults: usage1.faults - usage0.faults } : undefined;
  return { ms, cpuMs: used?.cpuMs, faults: used?.faults, status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "", timedOut };
}

/** A temporary folder with the generated config of `ruleCount` rules and its sample workspace (the caller removes it). */
function benchFolder(ruleCount: number): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "agent-sandbox-bench-"));
  const file = join(dir, "agent-sandbox.jsonc");
  writeFileSync(file, generateConfigText(ruleCount, 1000 + ruleCount, SCHEMA_URI));
  mkdirSync(join(dir, "sample-workspace"));
  writeFileSync(join(dir, "sample-workspace", "README.md"), "# sample\n");
  return { dir, file };
}

/** `undefined` with a reason when the CLI bundle is not there (run `npm run build`). */
export function benchCli(ruleCount: number, runs: number, cliPath = CLI_PATH): CliResult | { skipped: string } | { timedOut: number } {
  if (!existsSync(cliPath)) return { skipped: `${cliPath} does not exist (npm run build has not produced the CLI yet)` };
  const { dir, file } = benchFolder(ruleCount);
  try {
    // The checks of the engine's part 1 (parse, schema, path rules, …), the measure issue #2 sets; the exact
    // rule-order analysis, on by default, has its own section (6, bench/analysis.ts).
    const command = [cliPath, "check", file, "--format", "json", "--no-analysis"];
    const result = benchCliCommand(command, dir, runs, WHERE_THE_TIME_GOES.map((code) => ({ code, args: [...command, "--severity", `${code}=off`] })));
    return "cliMs" in result ? { ruleCount, ...result } : result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The example config shipped in the repository, which the README's first command checks. */
export const EXAMPLE_CONFIG = join(__dirname, "..", "examples", "research-agent", "agent-sandbox.jsonc");

/**
 * The command most people run: `check` of a small config, the exact analysis included (the default), in the
 * example's folder. No target; shown beside the 1,000-rule figure because it is mostly start-up, and a regression
 * there (a compile cache refused on every run: 245 → 198 ms above Node's start-up across cf5ffce, `--example`
 * below) shows here first.
 */
export function benchCliExample(runs: number, cliPath = CLI_PATH): Omit<CliResult, "ruleCount"> | { skipped: string } | { timedOut: number } {
  if (!existsSync(cliPath)) return { skipped: `${cliPath} does not exist (npm run build has not produced the CLI yet)` };
  return benchCliCommand([cliPath, "check", EXAMPLE_CONFIG, "--format", "json"], dirname(EXAMPLE_CONFIG), runs);
}

/**
 * `args` (a CLI run) and `node -e 0`, each `runs` times, interleaved, after an untimed first run of each; and each of
 * `variants` (the same run with a check turned off) in the same rounds.
 */
function benchCliCommand(cliArgs: string[], dir: string, runs: number, variants: readonly { code: string; args: string[] }[] = []): Omit<CliResult, "ruleCount"> | { skipped: string } | { timedOut: number } {
  const nodeArgs = ["-e", "0"];
  // A first run of each checks the answer and warms the file cache.
  const first = timed(cliArgs, dir);
  if (first.timedOut) return { timedOut: CLI_TIMEOUT_MS };
  if (first.status !== 0 && first.status !== 1) {
    return { skipped: `the CLI exited with ${first.status}: ${first.stderr.trim().split("\n").slice(0, 5).join(" | ")}` };
  }
  const diagnostics = diagnosticsIn(first.stdout);
  if (diagnostics === undefined) {
    const why = first.stderr.trim().split("\n").filter((l) => /error/i.test(l)).slice(0, 2).join(" | ") || first.stdout.slice(0, 200);
    return { skipped: `the CLI did not print JSON (exit ${first.status}): ${why}` };
  }
  const firstNode = timed(nodeArgs, dir);
  // Each variant's first run: its answer (how many diagnostics the check's absence removes), untimed.
  const variantDiagnostics = variants.map((v) => diagnosticsIn(timed(v.args, dir).stdout) ?? -1);
  // Keep the section under about 20 s even when the CLI is slow (a regression, or a busy machine).
  runs = Math.max(3, Math.min(runs, Math.floor(20_000 / ((1 + variants.length) * first.ms + firstNode.ms))));

  const cli: ReturnType<typeof timed>[] = [];
  const node: ReturnType<typeof timed>[] = [];
  const variantMs = variants.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first so neither always follows the other.
    if (i % 2 === 0) {
      cli.push(timed(cliArgs, dir));
      node.push(timed(nodeArgs, dir));
    } else {
      node.push(timed(nodeArgs, dir));
      cli.push(timed(cliArgs, dir));
    }
    variants.forEach((v, k) => variantMs[k]!.push(timed(v.args, dir).ms));
  }
  const cliMs = median(cli.map((r) => r.ms));
  const nodeMs = median(node.map((r) => r.ms));
  const medianOf = (rs: ReturnType<typeof timed>[], of: (r: ReturnType<typeof timed>) => number | undefined) =>
    rs.every((r) => of(r) !== undefined) ? median(rs.map((r) => of(r)!)) : undefined;
  return {
    runs,
    cliMs,
    nodeMs,
    aboveNodeMs: cliMs - nodeMs,
    cliRuns: cli.map((r) => r.ms),
    nodeRuns: node.map((r) => r.ms),
    cliCpuMs: medianOf(cli, (r) => r.cpuMs),
    nodeCpuMs: medianOf(node, (r) => r.cpuMs),
    cliFaults: medianOf(cli, (r) => r.faults),
    nodeFaults: medianOf(node, (r) => r.faults),
    exitCode: first.status ?? -1,
    diagnostics,
    firstRunMs: first.ms,
    ...(variants.length > 0
      ? {
          without: variants.map((v, k) => ({
            code: v.code,
            aboveNodeMs: median(variantMs[k]!) - nodeMs,
            checkMs: cliMs - median(variantMs[k]!),
            fasterRounds: variantMs[k]!.filter((t, round) => t < cli[round]!.ms).length,
            diagnostics: variantDiagnostics[k]!,
          })),
        }
      : {}),
  };
}

/** How many diagnostics a `--format json` run printed; `undefined` when it printed no JSON. */
function diagnosticsIn(stdout: string): number | undefined {
  try {
    const out = JSON.parse(stdout) as { files?: { diagnostics?: unknown[] }[] };
    return (out.files ?? []).reduce((s, f) => s + (f.diagnostics?.length ?? 0), 0);
  } catch {
    return undefined;
  }
}

/**
 * Two or more builds of the CLI on the same config, interleaved round by round (the order alternating, `node -e 0`
 * once per round): on a shared machine whose speed drifts within minutes, builds measured one after the other
 * differ by more than most changes do. Each line gives the build's median wall time above Node's start-up and in
 * how many rounds it was faster than the first build.
 */
export function compareClis(ruleCount: number, runs: number, paths: readonly string[], example = false): string[] {
  // The runs' working folder is a temporary one: paths are taken from where the command was given.
  const clis = paths.map((path) => resolve(path));
  const { dir, file } = benchFolder(ruleCount);
  try {
    // The section's command, or with `example` the example row's (`benchCliExample`).
    const argsOf = (cli: string) => (example ? [cli, "check", EXAMPLE_CONFIG, "--format", "json"] : [cli, "check", file, "--format", "json", "--no-analysis"]);
    const cwd = example ? dirname(EXAMPLE_CONFIG) : dir;
    // Untimed first runs: the answer must be the same, and each build fills its compile cache.
    const outputs = clis.map((cli) => timed(argsOf(cli), cwd).stdout);
    const times = clis.map(() => [] as number[]);
    const cpu = clis.map(() => [] as number[]);
    const node: number[] = [];
    const nodeCpu: number[] = [];
    for (let round = 0; round < runs; round++) {
      const order = clis.map((_, k) => k);
      if (round % 2 === 1) order.reverse();
      for (const k of order) {
        const run = timed(argsOf(clis[k]!), cwd);
        times[k]!.push(run.ms);
        if (run.cpuMs !== undefined) cpu[k]!.push(run.cpuMs);
      }
      const base = timed(["-e", "0"], cwd);
      node.push(base.ms);
      if (base.cpuMs !== undefined) nodeCpu.push(base.cpuMs);
    }
    const nodeMs = median(node);
    // CPU time (Linux), in clock ticks of 10 ms: coarse per run, but its median moves less with a busy host.
    const cpuOf = (k: number) => (cpu[k]!.length === runs && nodeCpu.length === runs ? `; CPU ${(median(cpu[k]!) - median(nodeCpu)).toFixed(0)} ms above Node's` : "");
    return [
      ...clis.map((cli, k) => {
        const same = outputs[k] === outputs[0] ? "" : " (its output differs from the first build's)";
        const faster = k === 0 ? "" : `, faster than the first in ${times[k]!.filter((t, round) => t < times[0]![round]!).length} of ${runs} rounds`;
        return `${cli}: ${(median(times[k]!) - nodeMs).toFixed(1)} ms above Node's start-up (median of ${runs}: ${median(times[k]!).toFixed(1)} ms${cpuOf(k)})${faster}${same}`;
      }),
      `node -e 0: ${nodeMs.toFixed(1)} ms (median of ${runs})`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run alone (`node --import tsx bench/cli.ts`), not when bundled into the whole benchmark (bench/build.mjs).
if (process.argv[1]?.endsWith("cli.ts")) {
  const argv = process.argv.slice(2);
  const option = (name: string) => argv.flatMap((a, i) => (a === name && argv[i + 1] !== undefined ? [argv[i + 1]!] : []));
  const runs = Number(option("--runs").at(-1) ?? 11);
  const rules = Number(option("--rules").at(-1) ?? 1000);
  const clis = option("--cli");
  if (clis.length > 1) for (const line of compareClis(rules, runs, clis, argv.includes("--example"))) console.log(line);
  else for (const cli of clis.length ? clis : [CLI_PATH]) {
    const r = benchCli(rules, runs, cli);
    if ("skipped" in r) console.log(`${cli}: skipped: ${r.skipped}`);
    else if ("timedOut" in r) console.log(`${cli}: the first run took over ${r.timedOut / 1000} s`);
    else {
      const cpu = r.cliCpuMs !== undefined && r.nodeCpuMs !== undefined ? `, CPU ${r.cliCpuMs.toFixed(0)} ms vs ${r.nodeCpuMs.toFixed(0)} ms (${(r.cliCpuMs - r.nodeCpuMs).toFixed(0)} ms above)` : "";
      const faults = r.cliFaults !== undefined && r.nodeFaults !== undefined ? `, page faults ${r.cliFaults} vs ${r.nodeFaults}` : "";
      console.log(`${cli}: ${rules} rules, median of ${r.runs}: ${r.cliMs.toFixed(1)} ms vs node -e 0 ${r.nodeMs.toFixed(1)} ms: ${r.aboveNodeMs.toFixed(1)} ms above Node's start-up${cpu}${faults} (exit ${r.exitCode}, ${r.diagnostics} diagnostics; the untimed first run: ${r.firstRunMs?.toFixed(0)} ms)`);
      for (const w of r.without ?? []) console.log(`  with --severity ${w.code}=off: ${w.aboveNodeMs.toFixed(1)} ms above Node's start-up (the check: ${w.checkMs.toFixed(1)} ms of the process, faster without it in ${w.fasterRounds} of ${r.runs} rounds; ${w.diagnostics} diagnostics)`);
    }
  }
}
