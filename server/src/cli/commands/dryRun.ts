import { writeFileSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { checkConfigReference, configReference } from "../../engine/configReference";
import { parseJsonc } from "../../engine/config/parse";
import { findAgent } from "../../engine/agents/agents";
import { runScenario, type StepResult } from "../../engine/dryrun/runner";
import { scenarioOf } from "../../engine/dryrun/scenario";
import { callsFromRecording, type RecordedCall } from "../../engine/dryrun/fromMessages";
import { outcomeWords, stepTitle, type DenialEntry } from "../../engine/dryrun/outcomes";
import { memoryWorkspace } from "../../engine/workspace/source";
import { flag, oneOf, UsageError, type ParsedArgs } from "../args";
import { displayPath, findFiles, isDirectory, isDryRunFileName, readTextFile, relativeAccess } from "../../host/files";
import { paint } from "../text";
import { afterGrammars, scenarioConfigLanguage } from "../sourceConfig";
import type { Io } from "../stdio";
import { hostWorkspace } from "../../host/workspace";


/** One step as `dry-run --format json` prints it (cli.md): a stable contract, fields only ever added. */
export interface StepJson {
  index: number;
  agent: string;
  tool: string;
  args: Record<string, unknown>;
  callId: string;
  outcome: string;
  rule: { index: number; pattern: string; mode: string } | null;
  denyPatterns?: string[];
  output: string;
  reason?: string;
  expected: string | null;
  passed: boolean | null;
  failure?: string;
  /** 0 for the scenario's own steps, 1 inside a task, and so on. */
  depth: number;
}

export interface ScenarioJson {
  path: string;
  agent: string;
  role: string | null;
  passed: boolean;
  runtime?: string;
  /** Why the scenario could not run (its config is missing, its agent unknown, …). */
  error?: string;
  /** Notes on how it ran (a config with errors, a missing sample workspace). */
  notes?: string[];
  steps: StepJson[];
  journal: DenialEntry[];
}

/** Runs one scenario file; never throws for bad input (the report says what is wrong). */
export function runScenarioFile(file: string): ScenarioJson {
  return runScenarioSource(readTextFile(file).text, displayPath(file), dirname(file));
}

/** Runs a scenario's text; `dir` is the folder its `config` is relative to. */
export function runScenarioSource(text: string, path: string, dir: string): ScenarioJson {
  const checked = parseJsonc(text);
  const root = checked.root;
  const scenario = scenarioOf(root);
  const report: ScenarioJson = { path, agent: scenario.agent, role: scenario.role, passed: false, steps: [], journal: [] };
  const syntax = checked.findings.find((f) => f.code === "json-syntax");
  if (syntax || !root) return { ...report, error: `the scenario cannot be read as JSON: ${syntax?.message ?? "the file is empty"}` };
  if (scenario.config === undefined) return { ...report, error: "the scenario names no config (the key config is missing)" };
  // The config, or a source file's call (`agent.ts`, `agent.ts:12`) read without running it.
  const reference = configReference(scenario.config);
  const configPath = resolve(dir, reference.file);
  let configText: string;
  try {
    configText = readTextFile(configPath).text;
  } catch (error) {
    return { ...report, error: `cannot read the config ${displayPath(configPath)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  const result = checkConfigReference({ ...reference, file: configPath }, configText, relativeAccess(configPath));
  const model = result.model;
  if (!model) {
    const why = result.error ?? result.findings[0]?.message ?? "no content";
    return { ...report, error: reference.language ? `the config ${displayPath(configPath)} cannot be read: ${why}` : `the config ${displayPath(configPath)} is not a configuration: ${why}` };
  }
  const notes: string[] = [];
  // What the source computes at run time is not in the model: the run goes without it, and says so.
  if (model.dynamic?.length) notes.push(`not read from the source, as only running it would tell: ${[...model.dynamic].sort((a, b) => a.span.start - b.span.start).map((d) => `${d.what} (${d.expression})`).join("; ")}; the run goes without ${model.dynamic.length === 1 ? "it" : "them"}`);
  const errors = result.findings.filter((f) => f.severity === "error");
  if (errors.length > 0) notes.push(`the config has ${errors.length} error(s) (the first: ${errors[0]!.message}); the run uses it as written, which the runtime may refuse`);
  if (!findAgent(model, scenario.agent)) return { ...report, notes, error: `the config has no agent named ${JSON.stringify(scenario.agent)}` };
  const wsRoot = model.workspace?.root?.value;
  let workspace = wsRoot !== undefined ? hostWorkspace(resolve(dirname(configPath), wsRoot)) : undefined;
  if (!workspace) {
    notes.push(wsRoot === undefined ? "the config has no workspace: the run starts with no sample files" : `the sample workspace ${wsRoot} cannot be read: the run starts with no sample files`);
    workspace = memoryWorkspace({});
  }
  const run = runScenario(model, scenario, workspace);
  const out: ScenarioJson = { ...report, agent: run.agent, passed: run.passed, runtime: run.runtime, steps: run.steps.map(stepJson), journal: run.journal };
  // A run stopped early (too many steps, a workspace too large to read) fails the scenario with the reason.
  if (run.stopped !== undefined) out.error = run.stopped;
  if (notes.length) out.notes = notes;
  return out;
}

function stepJson(s: StepResult): StepJson {
  const j: StepJson = {
    index: s.index, agent: s.agent, tool: s.tool, args: s.args, callId: s.callId, outcome: s.outcome, rule: s.rule ?? null, output: s.output,
    expected: s.expected ?? null, passed: s.passed ?? null, depth: s.depth,
  };
  if (s.denyPatterns) j.denyPatterns = s.denyPatterns;
  if (s.reason) j.reason = s.reason;
  if (s.failure) j.failure = s.failure;
  return j;
}

/** A promise only when a scenario's config is a source file, whose grammar loads first. */
export function dryRun(args: ParsedArgs, io: Io): number | Promise<number> {
  const format = oneOf(flag(args, "format"), ["text", "json", "junit"] as const, "format", "text");
  const junitFile = flag(args, "junit");
  const recording = flag(args, "from-messages");
  if (recording !== undefined) {
    const config = flag(args, "config");
    return afterGrammars([config !== undefined ? configReference(config).language : undefined], io, () => {
      const scenario = scenarioFromRecording(args, io, recording);
      if (!scenario) return 2;
      return report([scenario], 0, format, junitFile, io);
    });
  }
  for (const only of ["config", "write", "agent", "role"]) if (flag(args, only) !== undefined) throw new UsageError(`--${only} goes with --from-messages`);
  const targets = args.positionals.length ? args.positionals : ["."];
  const files: string[] = [];
  for (const t of targets) {
    if (isDirectory(t)) files.push(...findFiles(t, isDryRunFileName));
    else files.push(t);
  }
  if (files.length === 0) {
    io.err(`agent-sandbox: no dry-run scenarios (*.dryrun.jsonc) found in ${targets.join(", ")}\n`);
    return 2;
  }
  const languages = files.map((file) => {
    try {
      return scenarioConfigLanguage(readTextFile(file).text);
    } catch {
      return undefined;
    }
  });
  return afterGrammars(languages, io, () => runFiles(files, format, junitFile, io));
}

function runFiles(files: readonly string[], format: "text" | "json" | "junit", junitFile: string | undefined, io: Io): number {
  const scenarios: ScenarioJson[] = [];
  let unreadable = 0;
  for (const file of files) {
    try {
      scenarios.push(runScenarioFile(file));
    } catch (error) {
      unreadable++;
      io.err(`agent-sandbox: cannot read ${displayPath(file)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
    }
  }
  return report(scenarios, unreadable, format, junitFile, io);
}

function report(scenarios: ScenarioJson[], unreadable: number, format: "text" | "json" | "junit", junitFile: string | undefined, io: Io): number {
  const passed = scenarios.filter((s) => s.passed).length;
  const summary = { scenarios: scenarios.length, passed, failed: scenarios.length - passed };
  if (format === "json") io.out(`${JSON.stringify({ scenarios, summary }, null, 2)}\n`);
  else if (format === "junit") io.out(junit(scenarios));
  else io.out(dryRunText(scenarios, summary, io.color));
  if (junitFile !== undefined) {
    try {
      writeFileSync(junitFile, junit(scenarios));
    } catch (error) {
      io.err(`agent-sandbox: cannot write ${junitFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
      return 2;
    }
  }
  if (unreadable > 0) return 2;
  return summary.failed > 0 ? 1 : 0;
}

/**
 * `--from-messages RUN.json --config CONFIG [--agent NAME] [--role ROLE] [--write SCENARIO]`: the recorded run's tool
 * calls as a scenario (written with `--write`, the only file this command writes), run against the config.
 */
function scenarioFromRecording(args: ParsedArgs, io: Io, recording: string): ScenarioJson | undefined {
  const config = flag(args, "config");
  if (config === undefined) throw new UsageError("--from-messages needs --config CONFIG (the config to run the recorded calls against)");
  if (args.positionals.length > 0) throw new UsageError("--from-messages takes no scenario files");
  let value: unknown;
  try {
    value = JSON.parse(readTextFile(recording).text);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    io.err(`agent-sandbox: cannot read ${displayPath(recording)}: ${e.code ?? e.message}\n`);
    return undefined;
  }
  const calls = callsFromRecording(value);
  if (!calls.ok) {
    io.err(`agent-sandbox: ${displayPath(recording)}: ${calls.error}\n`);
    return undefined;
  }
  const write = flag(args, "write");
  const dir = write !== undefined ? dirname(resolve(write)) : process.cwd();
  const role = flag(args, "role");
  const scenario = {
    config: relative(dir, resolve(config)).split(sep).join("/") || ".",
    agent: flag(args, "agent") ?? "main",
    ...(role !== undefined ? { role } : {}),
    steps: calls.calls.map(scenarioStep),
  };
  const text = `${JSON.stringify(scenario, null, 2)}\n`;
  if (write !== undefined) {
    try {
      writeFileSync(write, text);
    } catch (error) {
      io.err(`agent-sandbox: cannot write ${write}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
      return undefined;
    }
    io.err(`agent-sandbox: wrote ${displayPath(write)} (${countCalls(calls.calls)} steps from ${calls.messages} messages)\n`);
  }
  return runScenarioSource(text, write !== undefined ? displayPath(write) : `${displayPath(recording)} (recorded run)`, dir);
}

export { outcomeWords, stepTitle };

const countCalls = (calls: readonly RecordedCall[]): number => calls.reduce((n, c) => n + 1 + countCalls(c.steps ?? []), 0);

/** A recorded call as a scenario step: a `task` with the subagent's calls carries them under `args.steps`. */
function scenarioStep(c: RecordedCall): { tool: string; args: Record<string, unknown> } {
  return { tool: c.tool, args: c.steps ? { ...c.args, steps: c.steps.map(scenarioStep) } : c.args };
}


function dryRunText(scenarios: readonly ScenarioJson[], summary: { scenarios: number; passed: number; failed: number }, color: boolean): string {
  const lines: string[] = [];
  for (const sc of scenarios) {
    const mark = sc.passed ? paint("PASS", "green", color) : paint("FAIL", "red", color);
    lines.push(`${mark} ${sc.path} (agent ${sc.agent}${sc.role !== null ? `, role ${sc.role}` : ""}${sc.runtime ? `, ${sc.runtime}` : ""})`);
    // A scenario that could not run says why first; a run that stopped says so after its last step.
    if (sc.error && sc.steps.length === 0) lines.push(`  ${paint("error", "red", color)}: ${sc.error}`);
    for (const note of sc.notes ?? []) lines.push(`  note: ${note}`);
    for (const s of sc.steps) {
      const indent = "  ".repeat(1 + s.depth);
      const sign = s.passed === false ? paint("✖", "red", color) : s.passed === true ? paint("✔", "green", color) : "•";
      lines.push(`${indent}${sign} ${s.index}. [${s.agent}] ${stepTitle(s)} → ${outcomeWords(s)}`);
      if (s.passed === false) {
        lines.push(`${indent}    ${s.failure}`);
        if (s.output) lines.push(...s.output.split("\n").slice(0, 12).map((l) => `${indent}    | ${l}`));
      }
    }
    if (sc.error && sc.steps.length > 0) lines.push(`  ${paint("error", "red", color)}: ${sc.error}`);
    if (sc.journal.length > 0) lines.push(`  denial journal: ${sc.journal.length} denial(s) (${sc.journal.map((j) => `${j.tool} ${j.reasonCodes.join(",")}`).join("; ")})`);
  }
  lines.push(`${summary.scenarios} scenario(s): ${summary.passed} passed, ${summary.failed} failed`);
  return `${lines.join("\n")}\n`;
}

function xml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");
}

/** JUnit XML: one test suite per scenario, one test case per step (a scenario that cannot run: one failing case). */
export function junit(scenarios: readonly ScenarioJson[]): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  let tests = 0;
  let failures = 0;
  const suites: string[] = [];
  for (const sc of scenarios) {
    const cases: string[] = [];
    let f = 0;
    if (sc.error) {
      f++;
      cases.push(`    <testcase classname="${xml(sc.path)}" name="scenario"><failure message="${xml(sc.error)}"/></testcase>`);
    }
    for (const s of sc.steps) {
      const name = `${s.index}. [${s.agent}] ${stepTitle(s)}`;
      if (s.passed === false) {
        f++;
        cases.push(`    <testcase classname="${xml(sc.path)}" name="${xml(name)}"><failure message="${xml(s.failure ?? "")}">${xml(`${outcomeWords(s)}\n${s.output}`)}</failure></testcase>`);
      } else cases.push(`    <testcase classname="${xml(sc.path)}" name="${xml(name)}"/>`);
    }
    tests += cases.length;
    failures += f;
    suites.push(`  <testsuite name="${xml(sc.path)}" tests="${cases.length}" failures="${f}" errors="0">`, ...cases, "  </testsuite>");
  }
  out.push(`<testsuites name="agent-sandbox dry-run" tests="${tests}" failures="${failures}">`, ...suites, "</testsuites>");
  return `${out.join("\n")}\n`;
}
