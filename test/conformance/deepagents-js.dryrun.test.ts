/**
 * Conformance of the dry run with the real npm `deepagents@1.14.1`, step by step.
 *
 * For seeded, generated configs, sample workspaces and scenarios (every filesystem tool, execute, task into the
 * general-purpose and a declarative subagent, unknown tools; `.`-segments, `..`, relative and host paths, denied
 * listings, subtree deletes, composite routes), each scenario runs twice:
 * - through our runner (`runScenario`) over an in-memory copy of the workspace;
 * - through a real `createDeepAgent` whose scripted chat model emits the scenario's tool calls one turn at a time,
 *   over a `FilesystemBackend` in virtual mode on a temporary copy of the workspace (a `StateBackend` seeded with
 *   the sample files where the config says state); the generators and this harness are in
 *   test/helpers/realDeepAgent.ts.
 *
 * Required, with zero disagreements: the same outcome for every step (a step the model is not bound to is
 * `tool-unavailable`), the same output text (host paths replaced by virtual ones; `task` and `execute` outputs
 * are the dry run's own words and are compared by outcome only), and the same files afterwards.
 *
 * Deterministic (seed fixed unless CONFORMANCE_SEED is set); size via CONFORMANCE_DRYRUN_SCENARIOS (default 130
 * scenarios, over 2,000 steps). Run:
 *   node --import tsx --test test/conformance/deepagents-js.dryrun.test.ts
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { runScenario, type StepInput, type StepResult } from "../../server/src/engine/dryrun/runner";
import { memoryWorkspace } from "../../server/src/engine/workspace/source";
import { envInt, makeRng } from "../helpers/random";
import { generate, realOutcome, runReal, virtualize, type Obj } from "../helpers/realDeepAgent";

const SEED = envInt("CONFORMANCE_SEED", 0x0d47_5e1f);
const SCENARIOS = envInt("CONFORMANCE_DRYRUN_SCENARIOS", 130);
const SHOW = 12;

// ---------------------------------------------------------------------------------------------------------
// The comparison
// ---------------------------------------------------------------------------------------------------------

test(`the dry run agrees with createDeepAgent (deepagents@1.14.1) step by step (${SCENARIOS} scenarios)`, async () => {
  const rng = makeRng(SEED);
  const disagreements: string[] = [];
  const outcomes = new Map<string, number>();
  const tools = new Map<string, number>();
  let steps = 0;
  for (let i = 0; i < SCENARIOS; i++) {
    const g = generate(rng);
    const { model, findings } = checkConfigText(JSON.stringify(g.config));
    assert.ok(model, `case ${i}: ${findings.map((f) => f.message).join("; ")}`);
    const ours = runScenario(model, { agent: "main", role: null, steps: g.steps }, memoryWorkspace(g.files));
    const real = await runReal(g);
    const where = `case ${i} (${g.layout}): ${JSON.stringify(g.config.permissions ?? null)}${g.config.middleware ? ` middleware ${JSON.stringify(g.config.middleware)}` : ""} worker ${JSON.stringify((g.config.subagents as Obj[])[0]!.permissions ?? "omitted")}`;
    for (const p of real.director.problems) disagreements.push(`${where}\n  the script went wrong: ${p}`);
    const byInput = new Map<StepInput, StepResult>();
    for (const r of ours.steps) if (r.input) byInput.set(r.input, r);
    const visit = (list: readonly StepInput[], agent: string) => {
      for (const step of list) {
        const mine = byInput.get(step);
        const theirs = real.director.answers.get(step);
        if (!mine && !theirs) continue;
        steps++;
        tools.set(step.tool, (tools.get(step.tool) ?? 0) + 1);
        const call = `${agent} ${step.tool} ${JSON.stringify(step.args)}`;
        if (!mine || !theirs) {
          disagreements.push(`${where}\n  ${call}: ${mine ? `ours ${mine.outcome}` : "we did not run it"}, ${theirs ? `the runtime ${realOutcome(theirs)}` : "the runtime did not run it"}`);
          continue;
        }
        const outcome = realOutcome(theirs);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        const text = virtualize(theirs.content ?? "", real.hostPaths);
        const compareText = !theirs.unavailable && step.tool !== "task" && step.tool !== "execute";
        if (mine.outcome !== outcome || (compareText && mine.output !== text)) {
          disagreements.push(`${where}\n  ${call}\n    ours:    ${mine.outcome} ${JSON.stringify(mine.output)}\n    runtime: ${outcome} ${JSON.stringify(text)}`);
        }
        if (step.tool === "task" && step.steps) visit(step.steps, String(step.args.subagent_type));
      }
    };
    visit(g.steps, "main");
    if (process.env.CONFORMANCE_DRYRUN_DEBUG === String(i)) {
      for (const r of ours.steps) console.log(r.index, r.agent, r.tool, JSON.stringify(r.args), "->", r.outcome, JSON.stringify(r.output).slice(0, 200), "| runtime:", r.input && real.director.answers.get(r.input) ? JSON.stringify(virtualize(real.director.answers.get(r.input)!.content ?? "(unavailable)", real.hostPaths)).slice(0, 200) : "-");
    }
    const mineFiles = ours.snapshot().map(([k, v]) => `${k}=${JSON.stringify(v)}`).sort();
    const realFiles = [...real.files].sort();
    const onlyOurs = mineFiles.filter((f) => !realFiles.includes(f));
    const onlyReal = realFiles.filter((f) => !mineFiles.includes(f));
    if (onlyOurs.length || onlyReal.length || mineFiles.length !== realFiles.length) {
      disagreements.push(`${where}\n  files afterwards differ: only ours ${onlyOurs.slice(0, 4).join(", ")}; only the runtime's ${onlyReal.slice(0, 4).join(", ")}`);
    }
  }
  const summary = `${steps} steps in ${SCENARIOS} scenarios; outcomes ${JSON.stringify(Object.fromEntries(outcomes))}; tools ${JSON.stringify(Object.fromEntries(tools))}`;
  if (disagreements.length > 0) assert.fail(`${disagreements.length} disagreement(s) (${summary}); the first ${SHOW}:\n${disagreements.slice(0, SHOW).join("\n")}`);
  console.log(summary);
  if (SCENARIOS >= 130) assert.ok(steps >= 2000, summary);
  for (const o of ["ok", "error", "permission-denied", "tool-unavailable"]) assert.ok((outcomes.get(o) ?? 0) > 0, `no ${o} step (${summary})`);
});
