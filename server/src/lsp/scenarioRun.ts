/**
 * A dry-run scenario's run as the editor shows it: each step with its outcome (the code lens on the step, Test
 * Explorer's result), the transcript, and the `agentSandbox/runScenario` request. The run itself is the engine's
 * (checkDryRunText runs it, in the server's worker thread: engineFacade.ts, exactJob.ts); this file only turns its
 * result into plain data that crosses from the worker, and that data into LSP answers.
 */
import { dirname, resolve } from "node:path";
import type { CodeLens } from "vscode-languageserver/node";
import type { DryRunCheckResult } from "../engine/checkDryRun";
import { property, spanOf } from "../engine/config/parse";
import { outcomeWords, stepTitle } from "../engine/dryrun/outcomes";
import type { StepInput, StepResult } from "../engine/dryrun/runner";
import type { Span } from "../engine/text";
import type { ScenarioRunResult, ScenarioStepRun } from "../protocol";
import type { Analysis } from "./engineFacade";
import { configReference } from "../engine/configReference";

/** One step as plain data (offsets in the scenario's text; ranges are made when a request asks). */
export interface ScenarioStepSummary {
  id: string;
  label: string;
  tool: string;
  span: Span;
  expectSpan?: Span;
  result?: ScenarioStepRun["result"];
  steps?: ScenarioStepSummary[];
}

/** A scenario file's steps, and their results once it ran (the second phase). */
export interface ScenarioSummary {
  ran: boolean;
  passed: boolean;
  agent: string;
  role: string | null;
  runtime?: string;
  /** The config's absolute path, when the scenario names one. */
  config?: string;
  steps: ScenarioStepSummary[];
  transcript: string;
}

/** Longer outputs are cut in the transcript and in Test Explorer's messages (the CLI's JSON keeps them whole). */
const MAX_OUTPUT_CHARS = 20_000;
/** A transcript stops growing here (a 100,000-step scenario's would be hundreds of megabytes): the rest is counted. */
const MAX_TRANSCRIPT_CHARS = 2_000_000;

/** The steps of a checked scenario, with the results of its run when it ran. */
export function summarizeScenario(checked: DryRunCheckResult, scenarioPath: string): ScenarioSummary | undefined {
  const scenario = checked.scenario;
  if (!scenario) return undefined;
  const byStep = new Map<StepInput, StepResult>();
  for (const r of checked.run?.steps ?? []) if (r.input) byStep.set(r.input, r);
  const summarize = (steps: readonly StepInput[], prefix: string): ScenarioStepSummary[] =>
    steps.map((step, i) => {
      const id = `${prefix}${i}`;
      const s: ScenarioStepSummary = { id, label: stepTitle(step), tool: step.tool, span: step.node ? spanOf(step.node) : { start: 0, end: 0 } };
      const expect = step.node ? property(step.node, "expect") : undefined;
      if (expect) s.expectSpan = spanOf(expect);
      const r = byStep.get(step);
      if (r) s.result = stepRunOf(r);
      if (step.steps) s.steps = summarize(step.steps, `${id}/`);
      return s;
    });
  const run = checked.run;
  const summary: ScenarioSummary = {
    ran: !!run,
    passed: !!run && run.passed,
    agent: run?.agent ?? scenario.agent,
    role: scenario.role,
    steps: summarize(scenario.steps, ""),
    transcript: "",
  };
  if (run) summary.runtime = run.runtime;
  // A source file's call (`agent.ts:12`) is the file's.
  if (scenario.config !== undefined) summary.config = resolve(dirname(scenarioPath), configReference(scenario.config).file);
  summary.transcript = run ? transcriptOf(summary, run.steps) : "";
  return summary;
}

/** A step's result as the editor shows it. */
function stepRunOf(r: StepResult): NonNullable<ScenarioStepSummary["result"]> {
  const result: NonNullable<ScenarioStepSummary["result"]> = { index: r.index, agent: r.agent, outcome: r.outcome, outcomeText: outcomeWords(r), output: cut(r.output) };
  if (r.expected !== undefined) result.expected = r.expected;
  if (r.passed !== undefined) result.passed = r.passed;
  if (r.failure !== undefined) result.failure = r.failure;
  return result;
}

/**
 * A run's results as they cross from the worker thread: the run's own data and each step's result by its id. The
 * steps themselves (labels, ranges) are the first phase's, from the same text: a 100,000-step scenario's would be
 * copied across for nothing.
 */
export interface ScenarioRunResults {
  ran: boolean;
  passed: boolean;
  agent: string;
  runtime?: string;
  transcript: string;
  results: [id: string, result: NonNullable<ScenarioStepSummary["result"]>][];
}

/**
 * Every run result `summarizeScenario(checked, …)` holds, by step id, made straight from the run: the worker's part needs no
 * step's label or range (the first phase has them), and a 100,000-step scenario's summary would be built and thrown
 * away for the 20,000 results its run reached. `undefined` when the scenario did not run.
 */
export function runResultsOfChecked(checked: DryRunCheckResult): ScenarioRunResults | undefined {
  const scenario = checked.scenario;
  const run = checked.run;
  if (!scenario || !run) return undefined;
  const byStep = new Map<StepInput, StepResult>();
  for (const r of run.steps) if (r.input) byStep.set(r.input, r);
  const results: ScenarioRunResults["results"] = [];
  // The ids and the order of summarizeScenario's walk: depth first, a step before the steps it holds.
  const walk = (steps: readonly StepInput[], prefix: string) => {
    for (const [i, step] of steps.entries()) {
      const r = byStep.get(step);
      if (r) results.push([`${prefix}${i}`, stepRunOf(r)]);
      if (step.steps) walk(step.steps, `${prefix}${i}/`);
    }
  };
  walk(scenario.steps, "");
  const header = { passed: run.passed, agent: run.agent, role: scenario.role, runtime: run.runtime };
  return { ran: true, passed: run.passed, agent: run.agent, ...(run.runtime !== undefined ? { runtime: run.runtime } : {}), transcript: transcriptOf(header, run.steps), results };
}

/**
 * The first phase's steps with the run's results (new objects: the first phase's analysis is left as it was). A step
 * the run did not reach, holding none that it reached, is the first phase's own object (nothing changes it): a run
 * stopped after 20,000 of 100,000 steps copies 20,000.
 */
export function withRunResults(summary: ScenarioSummary, run: ScenarioRunResults): ScenarioSummary {
  const byId = new Map(run.results);
  const attach = (steps: readonly ScenarioStepSummary[]): ScenarioStepSummary[] =>
    steps.map((s) => {
      const result = byId.get(s.id);
      const inner = s.steps ? attach(s.steps) : undefined;
      if (!result && !s.result && (!s.steps || inner!.every((step, i) => step === s.steps![i]))) return s;
      const step: ScenarioStepSummary = { id: s.id, label: s.label, tool: s.tool, span: s.span };
      if (s.expectSpan) step.expectSpan = s.expectSpan;
      if (inner) step.steps = inner;
      if (result) step.result = result;
      return step;
    });
  const out: ScenarioSummary = { ...summary, ran: run.ran, passed: run.passed, agent: run.agent, transcript: run.transcript, steps: attach(summary.steps) };
  if (run.runtime !== undefined) out.runtime = run.runtime;
  return out;
}

function cut(output: string): string {
  return output.length > MAX_OUTPUT_CHARS ? `${output.slice(0, MAX_OUTPUT_CHARS)}… (${output.length - MAX_OUTPUT_CHARS} more characters)` : output;
}

/** The run as `agent-sandbox dry-run` prints it, with every step's output (a person reads it in the test output). */
function transcriptOf(summary: Pick<ScenarioSummary, "passed" | "agent" | "role" | "runtime">, steps: readonly StepResult[]): string {
  const lines = [`${summary.passed ? "PASS" : "FAIL"} agent ${summary.agent}${summary.role !== null ? `, role ${summary.role}` : ""}${summary.runtime ? `, ${summary.runtime}` : ""}`];
  let size = 0;
  const add = (line: string) => {
    lines.push(line);
    size += line.length + 1;
  };
  for (const [i, s] of steps.entries()) {
    if (size > MAX_TRANSCRIPT_CHARS) {
      add(`  … and ${steps.length - i} more steps (the code lenses and agent-sandbox dry-run show every step)`);
      break;
    }
    const indent = "  ".repeat(1 + s.depth);
    const sign = s.passed === false ? "✖" : s.passed === true ? "✔" : "•";
    add(`${indent}${sign} ${s.index}. [${s.agent}] ${stepTitle(s)} → ${outcomeWords(s)}`);
    if (s.passed === false && s.failure) add(`${indent}    ${s.failure}`);
    if (s.output) for (const l of cut(s.output).split("\n")) add(`${indent}    | ${l}`);
  }
  return `${lines.join("\n")}\n`;
}

/** What a step's code lens says: `✔ ok`, `✖ permission-denied by rule 0 (deny /workspace/.env)`, and a failed expectation. */
export function outcomeLabel(result: NonNullable<ScenarioStepSummary["result"]>): string {
  const sign = result.outcome === "ok" ? "✔" : "✖";
  const firstLine = result.outcomeText.split("\n")[0]!;
  const words = firstLine.length > 160 ? `${firstLine.slice(0, 157)}...` : firstLine;
  if (result.passed !== false) return `${sign} ${words}`;
  return result.expected !== undefined && result.expected !== result.outcome ? `${sign} ${words} · expected ${result.expected}` : `${sign} ${words} · ${result.failure ?? "expectation not met"}`;
}

/** Lenses stop here: an editor slows down with tens of thousands (Test Explorer and the transcript go on). */
const MAX_LENSES = 5000;

/** A code lens on each step the run reached, with its outcome (text only: the lens runs no command). */
export function scenarioLenses(analysis: Analysis): CodeLens[] {
  const summary = analysis.scenario;
  if (analysis.kind !== "dry-run" || !summary?.ran) return [];
  const lenses: CodeLens[] = [];
  const walk = (steps: readonly ScenarioStepSummary[]) => {
    for (const s of steps) {
      if (lenses.length >= MAX_LENSES) return;
      if (s.result) {
        const line = analysis.lines.positionAt(s.span.start).line;
        lenses.push({ range: { start: { line, character: 0 }, end: { line, character: 0 } }, command: { title: outcomeLabel(s.result), command: "" } });
      }
      if (s.steps) walk(s.steps);
    }
  };
  walk(summary.steps);
  return lenses;
}

const NOT_A_SCENARIO = "This file is not a dry-run scenario (*.dryrun.jsonc).";

/** The answer to `agentSandbox/runScenario` from the scenario's complete analysis. */
export function scenarioRunResult(analysis: Analysis | undefined, uriOf: (fsPath: string) => string): ScenarioRunResult {
  const empty = { ran: false, passed: false, steps: [], transcript: "" };
  if (!analysis || analysis.kind !== "dry-run") return { available: false, reason: NOT_A_SCENARIO, ...empty };
  const summary = analysis.scenario;
  if (!summary) {
    const syntax = analysis.findings.find((f) => f.code === "json-syntax");
    return { available: false, reason: `The scenario does not parse: ${syntax?.message ?? "the file is empty."}`, ...empty };
  }
  const range = (span: Span) => analysis.lines.rangeOf(span);
  const convert = (steps: readonly ScenarioStepSummary[]): ScenarioStepRun[] =>
    steps.map((s) => ({
      id: s.id,
      label: s.label,
      tool: s.tool,
      range: range(s.span),
      ...(s.expectSpan ? { expectRange: range(s.expectSpan) } : {}),
      ...(s.result ? { result: s.result } : {}),
      ...(s.steps ? { steps: convert(s.steps) } : {}),
    }));
  const result: ScenarioRunResult = {
    available: true,
    ran: summary.ran,
    passed: summary.passed,
    agent: summary.agent,
    role: summary.role,
    steps: convert(summary.steps),
    transcript: summary.transcript,
  };
  if (summary.runtime) result.runtime = summary.runtime;
  if (summary.config) result.configUri = uriOf(summary.config);
  if (!summary.ran) {
    // Why it cannot run is what its errors say (a missing config, an unknown agent or role).
    const why = analysis.findings.find((f) => f.severity === "error");
    result.reason = why ? `The scenario cannot run: ${why.message}` : "The scenario cannot run.";
  }
  return result;
}
