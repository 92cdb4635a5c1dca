/**
 * A scenario's run as it crosses from the language server's worker: the run's results alone, by step id
 * (runResultsOfChecked), joined to the first phase's steps (withRunResults), give exactly the summary of the whole
 * check of the same text; the first phase's summary is left as it was.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkDryRunText, type DryRunCheckOptions } from "../../server/src/engine/checkDryRun";
import { MAX_RUN_STEPS } from "../../server/src/engine/dryrun/runner";
import { memoryWorkspace } from "../../server/src/engine/workspace/source";
import { runResultsOfChecked, summarizeScenario, withRunResults, type ScenarioRunResults, type ScenarioSummary } from "../../server/src/lsp/scenarioRun";


/** The reference: the run's results read off the whole check's summary (what the worker sent before). */
function runResultsOf(summary: ScenarioSummary): ScenarioRunResults {
  const results: ScenarioRunResults["results"] = [];
  const walk = (steps: ScenarioSummary["steps"]) => {
    for (const s of steps) {
      if (s.result) results.push([s.id, s.result]);
      if (s.steps) walk(s.steps);
    }
  };
  walk(summary.steps);
  return { ran: summary.ran, passed: summary.passed, agent: summary.agent, ...(summary.runtime !== undefined ? { runtime: summary.runtime } : {}), transcript: summary.transcript, results };
}

const CONFIG = JSON.stringify({
  version: 1,
  permissions: [{ operations: ["read", "write"], paths: ["/workspace/.env"], mode: "deny" }],
  subagents: [{ name: "auditor", description: "d", permissions: [{ operations: ["write"], paths: ["/**"], mode: "deny" }] }],
  workspace: { root: "./ws", mountAt: "/workspace" },
});
const OPTIONS: DryRunCheckOptions = {
  readFile: (p) => (p === "./agent-sandbox.jsonc" ? CONFIG : undefined),
  workspace: () => memoryWorkspace({ "README.md": "hi\n", ".env": "X=1\n" }),
};
const PATH = "/project/s.dryrun.jsonc";

const task = (steps: unknown[]) => ({ tool: "task", args: { subagent_type: "auditor", description: "d", steps } });
const SCENARIOS: Record<string, unknown> = {
  "tasks nested in tasks, expectations that fail and hold": {
    config: "./agent-sandbox.jsonc",
    steps: [
      { tool: "read_file", args: { file_path: "/workspace/.env" }, expect: "ok" },
      task([{ tool: "ls", args: { path: "/workspace" } }, task([{ tool: "write_file", args: { file_path: "/workspace/a", content: "" }, expect: "ok" }])]),
      { tool: "read_file", args: { file_path: "/workspace/README.md" }, expect: { outcome: "ok", outputContains: "hi" } },
    ],
  },
  "a run stopped by its step limit, a task among the steps it did not reach": {
    config: "./agent-sandbox.jsonc",
    steps: [...Array.from({ length: MAX_RUN_STEPS + 2 }, (_, i) => ({ tool: "ls", args: { path: "/workspace" }, expect: i === 5 ? "error" : "ok" })), task([{ tool: "ls", args: { path: "/" } }])],
  },
  "an unknown agent (cannot run)": { config: "./agent-sandbox.jsonc", agent: "nobody", steps: [{ tool: "ls", args: { path: "/" } }] },
};

for (const [name, scenario] of Object.entries(SCENARIOS)) {
  test(`the worker's run results joined to the first phase's steps are the whole check's summary: ${name}`, () => {
    const text = JSON.stringify(scenario, null, 2);
    const whole = summarizeScenario(checkDryRunText(text, OPTIONS), PATH)!;
    const first = summarizeScenario(checkDryRunText(text, { ...OPTIONS, phase: "shape" }), PATH)!;
    const firstBefore = structuredClone(first);
    for (const part of ["checks-and-run", "run"] as const) {
      const checked = checkDryRunText(text, { ...OPTIONS, phase: part });
      const run = runResultsOfChecked(checked);
      if (!whole.ran) {
        assert.equal(run, undefined);
        continue;
      }
      // The same as summarizing every step and keeping the results.
      assert.deepEqual(run, runResultsOf(summarizeScenario(checked, PATH)!));
      assert.deepEqual(withRunResults(first, run!), whole);
    }
    assert.deepEqual(first, firstBefore);
  });
}
