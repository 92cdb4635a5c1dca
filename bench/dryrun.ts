/**
 * The dry run's figures (issue 29), section 9 of `npm run bench` (`npm run bench -- --only dryrun` runs it alone),
 * each against a baseline measured in the same run:
 *
 * - a 10,000-step scenario (generated: every tool, `task` calls with nested steps, `.`-segments, `..`, denied
 *   listings, subtree deletes) through the engine, from the config's and the scenario's text to the last step's
 *   result, against the real `deepagents@1.14.1` running the same steps: `createDeepAgent` with the scripted chat
 *   model of the conformance suite over a `FilesystemBackend` in virtual mode on a temporary copy of the sample
 *   workspace (test/helpers/realDeepAgent.ts). The real agent runs the whole scenario, all 10,000 steps, in the
 *   same run as the engine, and the ratio is taken on that scenario: it costs some 10 ms of CPU a step at first
 *   and more as its message list grows (until its summarisation middleware cuts the list, a model call the
 *   scripted model answers with a summary), so this takes minutes. `--quick` runs only the first 250 steps through it
 *   (the ratio then on that prefix, against the engine on the same prefix);
 * - the capability map of a generated 100,000-file workspace, written to a temporary folder outside the repository
 *   and read through the CLI's read-only view (`hostWorkspace`, as `agent-sandbox map` reads it), against a bare
 *   recursive `readdirSync` walk of the same tree (what listing it costs at all); and the engine alone on an
 *   in-memory view of the same listing;
 * - diagnostics on a 1,000-step scenario file after an edit, through the language server (dist/server.js over
 *   LSP, as bench/lsp.ts does for configs): from the didChange to the server's word that the check of that version
 *   is done (its complete diagnostics pushed: a large scenario's first push has only its shape), minus the
 *   server's debounce; against the engine's `checkDryRunText` of the same text in this process, with the run
 *   (the server's work) and without it (parse and schema only, no config to run against);
 * - the bad inputs of test/helpers/dryRunBadInputs.ts (a 10 MB scenario, 100,000 steps, a `task` nested 10,000
 *   deep, a 1 MB argument, a lazily listed 1,000,000-file workspace, a link loop): the time to the clear answer the
 *   tests check (test/dryrun/badInput.test.ts), in process and, for the files, as a CLI process, and in the
 *   language server from the didOpen to the complete diagnostics (test/lsp/dryRunBadInput.test.ts); bound 2 s.
 *
 * In-process figures use the bench's clock (process CPU time by default, bench/measure.ts); the real agent and the
 * CLI and LSP figures are wall time of a mostly single-threaded process, with CPU time beside them where it can be
 * read. Alone: `node --import tsx bench/dryrun.ts [--quick]`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runScenarioSource } from "../server/src/cli/commands/dryRun";
import { hostWorkspace, scenarioCheckOptions } from "../server/src/host/workspace";
import { checkConfigText } from "../server/src/engine/checkConfig";
import { checkDryRunText } from "../server/src/engine/checkDryRun";
import { parseJsonc } from "../server/src/engine/config/parse";
import { capabilityMap } from "../server/src/engine/dryrun/capabilityMap";
import { runScenario, type StepInput } from "../server/src/engine/dryrun/runner";
import { scenarioOf } from "../server/src/engine/dryrun/scenario";
import { memoryWorkspace, type WorkspaceEntry, type WorkspaceSource } from "../server/src/engine/workspace/source";
import { LspTestClient, ROOT } from "../test/lsp/lspClient";
import { deepTaskSteps, deepTaskText, hundredThousandSteps, millionFileWorkspace, ONE_MEGABYTE, tenMegabyteScenario } from "../test/helpers/dryRunBadInputs";
import { makeRng } from "../test/helpers/random";
import { linkLoopWorkspace } from "../test/helpers/scratch";
import { generateConfig, generateStep, generateWorkspace, runReal, type Generated } from "../test/helpers/realDeepAgent";
import { threadCpuMs } from "./lsp";
import { consume, cpuNowMs, median, now } from "./measure";

export const DRYRUN_TARGETS = { scenarioMs: 1000, mapMs: 2000, diagnosticsAboveDebounceMs: 100, badInputMs: 2000 };
const SCENARIO_STEPS = 10_000;
/** `--quick`: the steps of the scenario the real agent runs (all of them take minutes). */
const QUICK_REAL_STEPS = 250;
const MAP_FILES = 100_000;
const DIAGNOSTIC_STEPS = 1000;
const DEBOUNCE_MS = 100;
const SEED = 29;

export interface DryRunBenchResult {
  scenario: {
    steps: number;
    bytes: number;
    /** Engine, from the texts to the last result: median ms (the bench's clock). */
    engineMs: number;
    /** Engine, the run alone (config model and scenario already parsed). */
    engineRunMs: number;
    /**
     * The real agent on the same scenario (all of it; with `--quick`, its first 250 steps), against the engine on
     * the same steps.
     */
    real: { steps: number; wallMs: number; cpuMs: number; engineMs: number; ratio: number; summaries: number }[];
    /** Whether the real agent ran the whole scenario (not with `--quick`). */
    realFullMeasured: boolean;
  };
  map: { files: number; dirs: number; entries: number; hostMs: number; walkMs: number; memoryMs: number; cliWallMs: number; cliCpuMs: number; ratio: number };
  diagnostics: { steps: number; bytes: number; pushAboveDebounceMs: number; serverCpuPerEditMs: number; serverProcessCpuPerEditMs: number; firstEditAboveDebounceMs: number; engineMs: number; schemaOnlyMs: number; findings: number; rounds: number };
  /**
   * Each bad input of test/helpers/dryRunBadInputs.ts: in process (the bench's clock, the CLI's scenario runner or
   * the engine), and for those that are files, the whole CLI process (`dry-run FILE --format json`, wall and CPU).
   */
  badInput: { name: string; ms: number; cliWallMs?: number; cliCpuMs?: number; answer: string }[];
  /** The file-shaped bad inputs in the language server: to the complete diagnostics, wall and the server's CPU. */
  editor: { name: string; wallMs: number; serverCpuMs: number; requestThreadCpuMs: number; answer: string }[];
  targets: { what: string; measured: string; pass: boolean }[];
}

/** A process's CPU time, every thread (the language server's request thread and its worker), from /proc (Linux). */
function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Times `fn` `runs` times on the bench's clock after one warm-up call; the median, in ms. */
function timeMedian(runs: number, fn: () => number): number {
  consume(fn());
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    (globalThis as { gc?: (o?: { type: "minor" }) => void }).gc?.({ type: "minor" });
    const t0 = now();
    consume(fn());
    xs.push(now() - t0);
  }
  return median(xs);
}

/** Steps, counted with every `task`'s nested steps, up to `count` (the generator's mix, a fixed seed). */
function generatedSteps(g: { files: Record<string, string> }, count: number, seed: number): StepInput[] {
  const rng = makeRng(seed);
  const steps: StepInput[] = [];
  let n = 0;
  while (n < count) {
    const s = generateStep(rng, g.files, false);
    if (s.steps && n + 1 + s.steps.length > count) continue;
    steps.push(s);
    n += 1 + (s.steps?.length ?? 0);
  }
  return steps;
}

/** The steps as a scenario file's JSON (`task` steps carry theirs under `args.steps`, as scenario files do). */
function scenarioJson(steps: readonly StepInput[]): unknown[] {
  return steps.map((s) => ({ tool: s.tool, args: s.steps ? { ...s.args, steps: scenarioJson(s.steps) } : s.args }));
}

/** The first `count` steps, counted with nested ones (a `task` is kept whole). */
function prefix(steps: readonly StepInput[], count: number): StepInput[] {
  const out: StepInput[] = [];
  let n = 0;
  for (const s of steps) {
    const size = 1 + (s.steps?.length ?? 0);
    if (n + size > count) break;
    out.push(s);
    n += size;
  }
  return out;
}
const countSteps = (steps: readonly StepInput[]) => steps.reduce((n, s) => n + 1 + (s.steps?.length ?? 0), 0);

export async function benchScenario(quick: boolean): Promise<DryRunBenchResult["scenario"]> {
  const rng = makeRng(SEED);
  const files = generateWorkspace(rng);
  const config = generateConfig(rng, "fs");
  const steps = generatedSteps({ files }, SCENARIO_STEPS, SEED + 1);
  const configText = JSON.stringify(config);
  const scenarioText = JSON.stringify({ config: "./agent-sandbox.jsonc", steps: scenarioJson(steps) });
  const workspace = memoryWorkspace(files);
  const fromText = (text: string) => () => {
    const { model } = checkConfigText(configText);
    const scenario = scenarioOf(parseJsonc(text).root);
    return runScenario(model!, scenario, workspace).steps.length;
  };
  const runs = quick ? 3 : 7;
  const engineMs = timeMedian(runs, fromText(scenarioText));
  const { model } = checkConfigText(configText);
  const engineRunMs = timeMedian(runs, () => runScenario(model!, { agent: "main", role: null, steps }, workspace).steps.length);

  // The whole scenario through the real agent (minutes); --quick, a short sample of it for trying the harness.
  const prefixes = quick ? [QUICK_REAL_STEPS] : [SCENARIO_STEPS];
  const real: DryRunBenchResult["scenario"]["real"] = [];
  for (const size of prefixes) {
    const part = prefix(steps, size);
    const n = countSteps(part);
    const g: Generated = { layout: "fs", config, files, steps: part };
    const partText = JSON.stringify({ config: "./agent-sandbox.jsonc", steps: scenarioJson(part) });
    const engine = timeMedian(runs, fromText(partText));
    const c0 = cpuNowMs();
    const w0 = performance.now();
    const run = await runReal(g);
    const wallMs = performance.now() - w0;
    const cpuMs = cpuNowMs() - c0;
    if (run.director.problems.length) throw new Error(`the scripted agent went wrong: ${run.director.problems[0]}`);
    // The ratio on CPU time, as the engine's side is timed (on a shared machine wall time counts the others' turns
    // on the cores); wall time is reported beside it (it also counts the real agent's waits on its files).
    real.push({ steps: n, wallMs, cpuMs, engineMs: engine, ratio: cpuMs / engine, summaries: run.director.summaries });
  }
  return {
    steps: countSteps(steps),
    bytes: scenarioText.length,
    engineMs,
    engineRunMs,
    real,
    realFullMeasured: real.at(-1)!.steps === countSteps(steps),
  };
}

/** 100 folders × 10 subfolders × 100 files, with a `.env` and a `secrets/` beside them: `files` files in all. */
function writeMapWorkspace(root: string, files: number): { files: number; dirs: number } {
  let made = 0;
  let dirs = 0;
  const perDir = 100;
  for (let a = 0; made < files; a++) {
    for (let b = 0; b < 10 && made < files; b++) {
      const dir = join(root, a === 0 ? "secrets" : `pkg${a}`, `mod${b}`);
      mkdirSync(dir, { recursive: true });
      dirs++;
      if (b === 0) dirs++;
      for (let f = 0; f < perDir && made < files; f++, made++) writeFileSync(join(dir, f === 0 ? ".env" : `file${f}.ts`), "");
    }
  }
  return { files: made, dirs };
}

/** The tree's listing read once into memory: the engine's part of the map without the disk. */
function memoryListing(source: WorkspaceSource): WorkspaceSource {
  const folders = new Map<string, readonly WorkspaceEntry[]>();
  const walk = (dir: string) => {
    const entries = source.list(dir) ?? [];
    folders.set(dir, entries);
    for (const e of entries) if (e.kind === "dir") walk(dir ? `${dir}/${e.name}` : e.name);
  };
  walk("");
  return { list: (dir) => folders.get(dir), read: () => "" };
}

function benchMap(work: string, quick: boolean): DryRunBenchResult["map"] {
  const root = join(work, "map-workspace");
  const { files, dirs } = writeMapWorkspace(root, MAP_FILES);
  const configPath = join(work, "map.agent-sandbox.jsonc");
  const config = {
    version: 1,
    backend: { type: "filesystem", rootDir: "./map-workspace", virtualMode: true },
    workspace: { root: "./map-workspace", mountAt: "/workspace" },
    permissions: [
      { operations: ["read", "write"], paths: ["/workspace/secrets/**", "/**/.env"], mode: "deny" },
      { operations: ["write"], paths: ["/workspace/pkg1*/**"], mode: "deny" },
      { operations: ["read", "write"], paths: ["/workspace/**"], mode: "allow" },
      { operations: ["read", "write"], paths: ["/**"], mode: "deny" },
    ],
  };
  writeFileSync(configPath, JSON.stringify(config));
  const { model } = checkConfigText(JSON.stringify(config));
  const runs = quick ? 1 : 3;
  let entries = 0;
  const hostMs = timeMedian(runs, () => (entries = capabilityMap(model!, "main", null, hostWorkspace(root)!)!.entries.length));
  const walkMs = timeMedian(runs, () => {
    let n = 0;
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        n++;
        if (e.isDirectory()) walk(join(d, e.name));
      }
    };
    walk(root);
    return n;
  });
  const listing = memoryListing(hostWorkspace(root)!);
  const memoryMs = timeMedian(runs, () => capabilityMap(model!, "main", null, listing)!.entries.length);
  // The command as a user runs it: a fresh process, the whole JSON written to a pipe.
  const cli = join(ROOT, "dist", "cli.js");
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    const t0 = performance.now();
    const r = spawnSync("/usr/bin/time", ["-f", "%U %S", process.execPath, cli, "map", configPath, "--format", "json"], { encoding: "utf8", maxBuffer: 1 << 30 });
    walls.push(performance.now() - t0);
    const [user, sys] = (r.stderr.trim().split("\n").at(-1) ?? "").split(" ").map(Number);
    cpus.push(((user ?? NaN) + (sys ?? NaN)) * 1000);
    if (r.status !== 0 && r.status !== 1) throw new Error(`map exited ${r.status}: ${r.stderr.slice(0, 300)}`);
    if (JSON.parse(r.stdout).entries.length !== entries) throw new Error("the CLI's map and the engine's differ in size");
  }
  return { files, dirs, entries, hostMs, walkMs, memoryMs, cliWallMs: median(walls), cliCpuMs: median(cpus), ratio: hostMs / walkMs };
}

async function benchDiagnostics(work: string, quick: boolean): Promise<DryRunBenchResult["diagnostics"]> {
  const rng = makeRng(SEED + 2);
  const files = generateWorkspace(rng);
  const config = generateConfig(rng, "fs");
  config.workspace = { root: "./diag-ws", mountAt: "/workspace" };
  for (const [rel, content] of Object.entries(files)) {
    const p = join(work, "diag-ws", ...rel.split("/"));
    mkdirSync(join(p, ".."), { recursive: true });
    writeFileSync(p, content);
  }
  writeFileSync(join(work, "diag.agent-sandbox.jsonc"), JSON.stringify(config, null, 2));
  // Every step with an expectation (the one the run gives, so the file is clean and each edit re-runs it all).
  const steps = generatedSteps({ files }, DIAGNOSTIC_STEPS, SEED + 3);
  const draft = { config: "./diag.agent-sandbox.jsonc", steps: scenarioJson(steps) };
  const path = join(work, "bench.dryrun.jsonc");
  const { model } = checkConfigText(JSON.stringify(config));
  const ran = runScenario(model!, scenarioOf(parseJsonc(JSON.stringify(draft)).root), hostWorkspace(join(work, "diag-ws"))!);
  let k = 0;
  const withExpect = (list: unknown[]): unknown[] =>
    list.map((s) => {
      const step = s as { tool: string; args: Record<string, unknown> };
      const outcome = ran.steps[k++]!.outcome;
      const nested = Array.isArray(step.args.steps) ? { ...step.args, steps: withExpect(step.args.steps as unknown[]) } : step.args;
      return { tool: step.tool, args: nested, expect: outcome };
    });
  const text = JSON.stringify({ ...draft, steps: withExpect(draft.steps) }, null, 2);
  writeFileSync(path, text);
  const options = scenarioCheckOptions(path);
  let findings = 0;
  const runs = quick ? 3 : 7;
  const engineMs = timeMedian(runs, () => (findings = checkDryRunText(text, options).findings.length));
  const schemaOnlyMs = timeMedian(runs, () => checkDryRunText(text).findings.length);

  const client = await LspTestClient.start({ pull: false, initializationOptions: { debounceMs: DEBOUNCE_MS } });
  const uri = pathToFileURL(path).href;
  const push: number[] = [];
  let serverCpuPerEditMs = NaN;
  let serverProcessCpuPerEditMs = NaN;
  try {
    // Complete: the server says the check of that version is done (a large scenario's first push has only its shape).
    const done = (version: number) => client.waitForCheck((c) => c.uri === uri && c.version === version && c.analysis === "done", 120_000);
    const opened = done(1);
    await client.open(uri, text, "agent-sandbox-dryrun");
    await opened;
    const rounds = quick ? 5 : 21;
    const cpuBefore = threadCpuMs(client.process.pid);
    const processBefore = processCpuMs(client.process.pid);
    for (let i = 0; i < rounds; i++) {
      const doc = client.document(uri);
      // An edit inside the last step's first argument, then its undo: every round checks the same text.
      const at = doc.getText().lastIndexOf('"/workspace') + 1;
      const expected = doc.version + 1;
      const published = done(expected);
      const t0 = performance.now();
      await client.change(uri, [{ range: { start: doc.positionAt(at), end: doc.positionAt(at) }, text: "x" }]);
      await published;
      push.push(performance.now() - t0 - DEBOUNCE_MS);
      const undone = done(expected + 1);
      await client.change(uri, [{ range: { start: doc.positionAt(at), end: doc.positionAt(at + 1) }, text: "" }]);
      await undone;
    }
    serverCpuPerEditMs = (threadCpuMs(client.process.pid) - cpuBefore) / (2 * push.length);
    serverProcessCpuPerEditMs = (processCpuMs(client.process.pid) - processBefore) / (2 * push.length);
    if (client.failures.length) throw new Error(`requests failed: ${JSON.stringify(client.failures)}`);
  } finally {
    await client.stop();
  }
  return { steps: countSteps(steps), bytes: text.length, pushAboveDebounceMs: median(push), serverCpuPerEditMs, serverProcessCpuPerEditMs, firstEditAboveDebounceMs: push[0]!, engineMs, schemaOnlyMs, findings, rounds: push.length };
}

const EXAMPLE_CONFIG = join(ROOT, "examples", "research-agent", "agent-sandbox.jsonc");

function benchBadInput(work: string, quick: boolean): DryRunBenchResult["badInput"] {
  const runs = quick ? 1 : 3;
  const rows: DryRunBenchResult["badInput"] = [];
  const cli = join(ROOT, "dist", "cli.js");
  const fromFile = (name: string, text: string) => {
    let answer = "";
    const ms = timeMedian(runs, () => {
      const r = runScenarioSource(text, name, work);
      answer = r.error ?? `${r.steps.length} steps, ${r.passed ? "passed" : "failed"}`;
      return r.steps.length;
    });
    const file = join(work, `${name}.dryrun.jsonc`);
    writeFileSync(file, text);
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = spawnSync("/usr/bin/time", ["-f", "%U %S", process.execPath, cli, "dry-run", file, "--format", "json"], { encoding: "utf8", maxBuffer: 1 << 30 });
      walls.push(performance.now() - t0);
      const [user, sys] = (r.stderr.trim().split("\n").at(-1) ?? "").split(" ").map(Number);
      cpus.push(((user ?? NaN) + (sys ?? NaN)) * 1000);
      if (r.status !== 1) throw new Error(`dry-run of ${name} exited ${r.status}, expected 1: ${r.stderr.slice(0, 300)}`);
    }
    rows.push({ name, ms, cliWallMs: median(walls), cliCpuMs: median(cpus), answer });
  };
  fromFile("a 10 MB scenario", tenMegabyteScenario(EXAMPLE_CONFIG));
  fromFile("100,000 steps (2.4 MB)", hundredThousandSteps(EXAMPLE_CONFIG));
  fromFile("a task nested 10,000 deep (text)", deepTaskText(EXAMPLE_CONFIG));

  const { model } = checkConfigText(JSON.stringify({ version: 1, backend: { type: "filesystem", rootDir: "./ws", virtualMode: true }, workspace: { root: "./ws", mountAt: "/workspace" }, subagents: [{ name: "auditor", description: "d" }] }));
  const inProcess = (name: string, fn: () => string) => {
    let answer = "";
    const ms = timeMedian(runs, () => (answer = fn()).length);
    rows.push({ name, ms, answer });
  };
  inProcess("a task nested 10,000 deep (built)", () => {
    const r = runScenario(model!, { agent: "main", role: null, steps: deepTaskSteps("auditor") }, memoryWorkspace({}));
    return r.steps.map((s) => `${s.tool} ${s.outcome}`).join(", ");
  });
  inProcess("a 1 MB argument (write, grep, edit, a 1 MB path)", () => {
    const r = runScenario(model!, { agent: "main", role: null, steps: [
      { tool: "write_file", args: { file_path: "/workspace/big.txt", content: ONE_MEGABYTE } },
      { tool: "grep", args: { pattern: ONE_MEGABYTE, path: "/workspace" } },
      { tool: "edit_file", args: { file_path: "/workspace/big.txt", old_string: ONE_MEGABYTE, new_string: "small" } },
      { tool: "read_file", args: { file_path: `/workspace/${ONE_MEGABYTE}` } },
    ] }, memoryWorkspace({}));
    return r.steps.map((s) => s.outcome).join(", ");
  });
  inProcess("1,000,000 files (a lazy view): glob **", () => {
    const r = runScenario(model!, { agent: "main", role: null, steps: [{ tool: "glob", args: { pattern: "**/*.txt", path: "/workspace" } }] }, millionFileWorkspace());
    return r.stopped ?? "not stopped";
  });
  inProcess("1,000,000 files in one folder (a lazy view): ls", () => {
    const r = runScenario(model!, { agent: "main", role: null, steps: [{ tool: "ls", args: { path: "/workspace" } }] }, millionFileWorkspace(true));
    return r.stopped ?? "not stopped";
  });
  inProcess("1,000,000 files in one folder (a lazy view): the map", () => {
    const m = capabilityMap(model!, "main", null, millionFileWorkspace(true))!;
    return `${m.entries.length.toLocaleString("en")} entries${m.truncated ? ", truncated" : ""}`;
  });
  inProcess("1,000,000 files (a lazy view): the map", () => {
    const m = capabilityMap(model!, "main", null, millionFileWorkspace())!;
    return `${m.entries.length.toLocaleString("en")} entries${m.truncated ? ", truncated" : ""}`;
  });
  const loop = join(work, "loop-ws");
  mkdirSync(join(loop, "a"), { recursive: true });
  writeFileSync(join(loop, "a", "f.txt"), "in\n");
  symlinkSync(join(loop, "l1"), join(loop, "l2"));
  symlinkSync(join(loop, "l2"), join(loop, "l1"));
  symlinkSync(loop, join(loop, "a", "up"));
  inProcess("a symbolic link loop and a link up: glob ** and the map", () => {
    const r = runScenario(model!, { agent: "main", role: null, steps: [{ tool: "glob", args: { pattern: "**", path: "/workspace" } }] }, hostWorkspace(loop)!);
    const m = capabilityMap(model!, "main", null, hostWorkspace(loop)!)!;
    return `glob: ${JSON.stringify(r.steps[0]!.output)}; map: ${m.entries.length} entries`;
  });
  return rows;
}

/**
 * The file-shaped bad inputs opened in the language server (dist/server.js over LSP, pull diagnostics): from the
 * didOpen to the complete diagnostics, wall time and the server process's CPU time (request thread and worker),
 * after a small scenario has warmed the worker up. The 1,000,000-file workspace is not written to disk here (the
 * server reads the sample workspace through the same limited view as the engine rows above).
 */
async function benchBadInputEditor(work: string): Promise<DryRunBenchResult["editor"]> {
  const dir = join(work, "editor");
  linkLoopWorkspace(dir, "zq-outside\n");
  writeFileSync(join(dir, "loop.agent-sandbox.jsonc"), JSON.stringify({ version: 1, backend: { type: "filesystem", rootDir: "./ws", virtualMode: true }, workspace: { root: "./ws", mountAt: "/workspace" } }));
  const inputs: [string, string][] = [
    ["warm-up (a 2-step scenario)", JSON.stringify({ config: EXAMPLE_CONFIG, role: "admin", steps: [{ tool: "ls", args: { path: "/workspace" } }, { tool: "glob", args: { pattern: "**" } }] })],
    ["a 10 MB scenario", tenMegabyteScenario(EXAMPLE_CONFIG)],
    ["100,000 steps (2.4 MB)", hundredThousandSteps(EXAMPLE_CONFIG)],
    ["a task nested 10,000 deep", deepTaskText(EXAMPLE_CONFIG)],
    ["a 1 MB argument (write, grep)", JSON.stringify({ config: EXAMPLE_CONFIG, role: "admin", steps: [{ tool: "write_file", args: { file_path: "/workspace/notes/a.md", content: ONE_MEGABYTE }, expect: "ok" }, { tool: "grep", args: { pattern: ONE_MEGABYTE, path: "/workspace/notes" }, expect: "ok" }] })],
    ["a link loop, a link up, a link out (glob, grep)", JSON.stringify({ config: "./loop.agent-sandbox.jsonc", steps: [{ tool: "glob", args: { pattern: "**" } }, { tool: "grep", args: { pattern: "zq" } }] })],
  ];
  const rows: NonNullable<DryRunBenchResult["editor"]> = [];
  const client = await LspTestClient.start({ pull: true });
  try {
    for (const [i, [name, text]] of inputs.entries()) {
      const file = join(dir, `bad${i}.dryrun.jsonc`);
      writeFileSync(file, text);
      const uri = pathToFileURL(file).href;
      const pid = client.process.pid;
      const c0 = processCpuMs(pid);
      const m0 = threadCpuMs(pid);
      const w0 = performance.now();
      await client.open(uri, text, "agent-sandbox-dryrun");
      const found = await client.pullCompleteDiagnostics(uri);
      const wallMs = performance.now() - w0;
      const answer = found.length ? found.map((d) => `${d.code}: ${d.message}`).join(" ") : "no finding";
      if (i > 0) rows.push({ name, wallMs, serverCpuMs: processCpuMs(pid) - c0, requestThreadCpuMs: threadCpuMs(pid) - m0, answer });
      await client.close(uri);
    }
    if (client.failures.length) throw new Error(`requests failed: ${JSON.stringify(client.failures)}`);
  } finally {
    await client.stop();
  }
  return rows;
}

export async function runDryRunBench(options: { quick?: boolean } = {}): Promise<DryRunBenchResult> {
  const quick = options.quick ?? false;
  // Outside the repository: the generated workspaces never sit where a scan of the project would find them.
  const work = mkdtempSync(join(tmpdir(), "agent-sandbox-dryrun-bench-"));
  try {
    const scenario = await benchScenario(quick);
    const map = benchMap(work, quick);
    const diagnostics = await benchDiagnostics(work, quick);
    const badInput = benchBadInput(work, quick);
    const editor = await benchBadInputEditor(work);
    const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
    const longest = scenario.real.at(-1)!;
    const targets = [
      { what: `dry run of a ${scenario.steps.toLocaleString("en")}-step scenario: < ${DRYRUN_TARGETS.scenarioMs} ms`, measured: `${fmt(scenario.engineMs)} ms (real deepagents ${fmt(longest.ratio)}× slower on ${longest.steps === scenario.steps ? "the same" : `the first ${longest.steps.toLocaleString("en")}`} steps)`, pass: scenario.engineMs < DRYRUN_TARGETS.scenarioMs },
      { what: `map of a ${map.files.toLocaleString("en")}-file workspace: < ${DRYRUN_TARGETS.mapMs} ms`, measured: `${fmt(map.hostMs)} ms in process; the CLI process ${fmt(map.cliCpuMs)} ms CPU (${fmt(map.cliWallMs)} ms wall)`, pass: map.hostMs < DRYRUN_TARGETS.mapMs && map.cliCpuMs < DRYRUN_TARGETS.mapMs },
      { what: `diagnostics on a ${diagnostics.steps.toLocaleString("en")}-step scenario: < ${DRYRUN_TARGETS.diagnosticsAboveDebounceMs} ms after the debounce`, measured: `${fmt(diagnostics.pushAboveDebounceMs)} ms (the server's CPU an edit: request thread ${fmt(diagnostics.serverCpuPerEditMs)} ms, all threads ${fmt(diagnostics.serverProcessCpuPerEditMs)} ms)`, pass: diagnostics.pushAboveDebounceMs < DRYRUN_TARGETS.diagnosticsAboveDebounceMs },
      ...badInput.map((b) => ({
        what: `bad input, ${b.name}: a clear answer in < ${DRYRUN_TARGETS.badInputMs} ms`,
        measured: `${fmt(b.ms)} ms${b.cliCpuMs !== undefined ? `; the CLI process ${fmt(b.cliCpuMs)} ms CPU (${fmt(b.cliWallMs!)} ms wall)` : ""}`,
        pass: b.ms < DRYRUN_TARGETS.badInputMs && (b.cliCpuMs === undefined || b.cliCpuMs < DRYRUN_TARGETS.badInputMs),
      })),
      ...editor.map((e) => ({
        what: `bad input in the editor, ${e.name}: complete diagnostics in < ${DRYRUN_TARGETS.badInputMs} ms of the server's CPU`,
        measured: `${fmt(e.serverCpuMs)} ms CPU (request thread ${fmt(e.requestThreadCpuMs)} ms; ${fmt(e.wallMs)} ms wall)`,
        pass: e.serverCpuMs < DRYRUN_TARGETS.badInputMs,
      })),
    ];
    return { scenario, map, diagnostics, badInput, editor, targets };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function formatDryRunBench(r: DryRunBenchResult): string {
  const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  const n = (x: number) => x.toLocaleString("en");
  const s = r.scenario;
  const lines = [
    `  scenario: ${n(s.steps)} steps (${(s.bytes / 1024).toFixed(0)} KB), through the engine from the texts: ${fmt(s.engineMs)} ms; the run alone: ${fmt(s.engineRunMs)} ms (${fmt((s.engineRunMs * 1000) / s.steps)} µs a step)`,
    ...s.real.map((p) =>
      `    the real deepagents on ${p.steps === s.steps ? `all ${n(p.steps)} steps` : `the first ${n(p.steps)} steps (--quick)`}: ${fmt(p.cpuMs / 1000)} s CPU (${fmt(p.cpuMs / p.steps)} ms a step; ${fmt(p.wallMs / 1000)} s wall; its conversation summarised ${p.summaries} times); the engine on the same: ${fmt(p.engineMs)} ms; ratio ${fmt(p.ratio)}×`),
    `  map: ${n(r.map.files)} files in ${n(r.map.dirs)} folders (${n(r.map.entries)} entries), through the CLI's read-only view: ${fmt(r.map.hostMs)} ms; a bare readdir walk of the same tree: ${fmt(r.map.walkMs)} ms (ratio ${fmt(r.map.ratio)}×);`,
    `    the engine on the listing held in memory: ${fmt(r.map.memoryMs)} ms; \`agent-sandbox map --format json\` as a process: ${fmt(r.map.cliWallMs)} ms wall, ${fmt(r.map.cliCpuMs)} ms CPU`,
    `  diagnostics: a ${n(r.diagnostics.steps)}-step scenario (${(r.diagnostics.bytes / 1024).toFixed(0)} KB, ${r.diagnostics.findings} findings) through the language server: ${fmt(r.diagnostics.pushAboveDebounceMs)} ms wall after the debounce (median of ${r.diagnostics.rounds}; first edit ${fmt(r.diagnostics.firstEditAboveDebounceMs)} ms);
    the server's request thread: ${fmt(r.diagnostics.serverCpuPerEditMs)} ms CPU an edit, the whole server (with its worker) ${fmt(r.diagnostics.serverProcessCpuPerEditMs)} ms (the edit and its undo, averaged);`,
    `    the engine's checkDryRunText on the same text: ${fmt(r.diagnostics.engineMs)} ms with the run, ${fmt(r.diagnostics.schemaOnlyMs)} ms parse and schema only`,
  ];
  lines.push("  bad input: in process (the CLI's scenario runner or the engine) and, for files, the CLI process `dry-run FILE --format json`:");
  for (const b of r.badInput) lines.push(`    ${b.name}: ${fmt(b.ms)} ms${b.cliCpuMs !== undefined ? `; process ${fmt(b.cliCpuMs)} ms CPU, ${fmt(b.cliWallMs!)} ms wall` : ""}; ${b.answer.length > 110 ? `${b.answer.slice(0, 107)}...` : b.answer}`);
  lines.push("  bad input in the editor (dist/server.js, pull diagnostics, worker warm): from the didOpen to the complete diagnostics:");
  for (const e of r.editor) lines.push(`    ${e.name}: ${fmt(e.serverCpuMs)} ms of the server's CPU (request thread ${fmt(e.requestThreadCpuMs)} ms), ${fmt(e.wallMs)} ms wall; ${e.answer.length > 110 ? `${e.answer.slice(0, 107)}...` : e.answer}`);
  for (const t of r.targets) lines.push(`  ${t.pass ? "✓" : "✗"} ${t.what}: ${t.measured}`);
  return lines.join("\n");
}

// Run alone (`node --import tsx bench/dryrun.ts`), not when bundled into the whole benchmark (bench/build.mjs).
if (process.argv[1]?.endsWith("dryrun.ts")) {
  runDryRunBench({ quick: process.argv.includes("--quick") }).then((r) => console.log(formatDryRunBench(r)), (error) => {
    console.error(error);
    process.exit(2);
  });
}
