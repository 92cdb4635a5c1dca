/**
 * The scenario checks in the editor's phases (checkDryRunText's `phase`): `static` (every check but the run) and
 * `run` (the run and what it finds) together are exactly the whole check, whatever the scenario, and so are
 * `shape` (syntax and schema), `checks` (the static scenario checks) and `run`, the parts of a large scenario; only
 * the run part runs the scenario; a run the host stops ends the check rather than becoming a finding.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AnalysisCancelled, runCancellable } from "../../server/src/engine/cancellation";
import { mergeFindings } from "../../server/src/engine/checkConfig";
import { checkDryRunText, type DryRunCheckOptions } from "../../server/src/engine/checkDryRun";
import { SCENARIO_CHECKS } from "../../server/src/engine/checks/scenarioChecks";
import { MAX_RUN_STEPS } from "../../server/src/engine/dryrun/runner";
import { memoryWorkspace } from "../../server/src/engine/workspace/source";
import { scenarioCheckOptions } from "../../server/src/host/workspace";

const CONFIG = JSON.stringify({
  version: 1,
  permissions: [{ operations: ["read", "write"], paths: ["/workspace/.env"], mode: "deny" }],
  subagents: [{ name: "auditor", description: "d", permissions: [{ operations: ["write"], paths: ["/**"], mode: "deny" }] }],
  authorization: { enabled: true, default_role: "user", roles: { user: { tools: { allow: "*", deny: ["delete"] } } } },
  workspace: { root: "./ws", mountAt: "/workspace" },
});
const OPTIONS: DryRunCheckOptions = {
  readFile: (p) => (p === "./agent-sandbox.jsonc" ? CONFIG : undefined),
  workspace: () => memoryWorkspace({ "README.md": "hi\n", ".env": "X=1\n" }),
};

/** The codes of the checks that run the scenario: the run phase's, and only those. */
const RUN_CODES = SCENARIO_CHECKS.filter((c) => c.needsRun).map((c) => c.code);

const SCENARIOS: Record<string, unknown> = {
  "expectations that fail and hold, in a task too": {
    config: "./agent-sandbox.jsonc",
    role: "user",
    steps: [
      { tool: "read_file", args: { file_path: "/workspace/.env" }, expect: "ok" },
      { tool: "read_fil", args: { file_path: "/workspace/README.md" } },
      { tool: "write_file", args: { content: 1 }, expect: "ok" },
      { tool: "delete", args: { file_path: "/workspace/README.md" }, expect: { outcome: "authorization-denied", outputContains: "nothing like it" } },
      { tool: "task", args: { subagent_type: "auditor", description: "d", steps: [{ tool: "write_file", args: { file_path: "/workspace/a", content: "" }, expect: "ok" }] }, expect: "ok" },
    ],
  },
  "an unknown agent (cannot run)": { config: "./agent-sandbox.jsonc", agent: "nobody", steps: [{ tool: "ls", args: { path: "/" }, expect: "error" }] },
  "a missing config": { config: "./missing.jsonc", steps: [{ tool: "ls", args: { path: "/" }, expect: "error" }] },
  "a schema error": { config: "./agent-sandbox.jsonc", steps: [{ tool: "ls", expect: "maybe" }] },
  "a run stopped by its step limit": { config: "./agent-sandbox.jsonc", steps: Array.from({ length: MAX_RUN_STEPS + 2 }, (_, i) => ({ tool: i === 3 ? "read_fil" : "ls", args: { path: "/workspace" }, expect: i === 5 ? "error" : "ok" })) },
};

for (const [name, scenario] of Object.entries(SCENARIOS)) {
  test(`the static and the run phase together are the whole check: ${name}`, () => {
    const text = JSON.stringify(scenario, null, 2);
    const whole = checkDryRunText(text, OPTIONS);
    const first = checkDryRunText(text, { ...OPTIONS, phase: "static" });
    const second = checkDryRunText(text, { ...OPTIONS, phase: "run" });
    assert.deepEqual(mergeFindings(first.findings, second.findings), whole.findings);
    // A large scenario's parts: its shape at once, then its checks and its run.
    const shape = checkDryRunText(text, { ...OPTIONS, phase: "shape", readFile: () => assert.fail("the shape part reads no config") });
    const checks = checkDryRunText(text, { ...OPTIONS, phase: "checks" });
    assert.deepEqual(mergeFindings(mergeFindings(shape.findings, checks.findings), second.findings), whole.findings);
    assert.deepEqual(mergeFindings(shape.findings, checks.findings), first.findings);
    // The worker's part of a large scenario: the static checks and the run together, the static findings handed on
    // first, exactly the checks part's.
    const handed: [unknown, boolean][] = [];
    const together = checkDryRunText(text, { ...OPTIONS, phase: "checks-and-run", onStaticChecked: (found, runnable) => handed.push([found, runnable]) });
    assert.deepEqual(mergeFindings(shape.findings, together.findings), whole.findings);
    assert.deepEqual(handed, [[checks.findings, whole.runnable]]);
    assert.equal(together.run?.steps.length, whole.run?.steps.length);
    assert.ok(shape.findings.every((f) => f.code === "json-syntax" || f.code === "schema"), shape.findings.map((f) => f.code).join(", "));
    assert.equal(checks.runnable, whole.runnable);
    assert.equal(shape.scenario?.steps.length, whole.scenario?.steps.length, "the shape part reads the steps");
    for (const part of [first, shape, checks]) assert.equal(part.run, undefined, "only the run part runs the scenario");
    assert.equal(first.runnable, whole.runnable);
    assert.equal(second.run?.steps.length, whole.run?.steps.length);
    assert.ok(second.findings.every((f) => RUN_CODES.includes(f.code)), second.findings.map((f) => f.code).join(", "));
  });
}

test("the first scenario fails where expected, so the comparison above compares findings of both phases", () => {
  const text = JSON.stringify(SCENARIOS["expectations that fail and hold, in a task too"], null, 2);
  const codes = checkDryRunText(text, OPTIONS).findings.map((f) => f.code);
  assert.deepEqual(codes.filter((c) => c === "scenario-expectation-failed").length, 4, codes.join(", "));
  assert.ok(codes.includes("scenario-tool-unknown") && codes.includes("scenario-args-invalid"), codes.join(", "));
});

test("the stopped scenario is reported as stopped, with its static findings, so its comparison above covers that code", () => {
  const text = JSON.stringify(SCENARIOS["a run stopped by its step limit"], null, 2);
  const codes = checkDryRunText(text, OPTIONS).findings.map((f) => f.code);
  assert.deepEqual([...new Set(codes)].sort(), ["scenario-expectation-failed", "scenario-run-stopped", "scenario-tool-unknown"]);
});

test("the example and e2e scenarios split the same way against their configs on disk", () => {
  for (const path of [join(__dirname, "../../examples/research-agent/research.dryrun.jsonc"), join(__dirname, "../../e2e/fixtures/ws/a/research.dryrun.jsonc")]) {
    const text = readFileSync(path, "utf8");
    const options = scenarioCheckOptions(path);
    const whole = checkDryRunText(text, options);
    const split = mergeFindings(checkDryRunText(text, { ...options, phase: "static" }).findings, checkDryRunText(text, { ...options, phase: "run" }).findings);
    assert.deepEqual(split, whole.findings, path);
    const parts = (["shape", "checks", "run"] as const).map((phase) => checkDryRunText(text, { ...options, phase }).findings);
    assert.deepEqual(parts.reduce((a, b) => mergeFindings(a, b)), whole.findings, path);
    assert.ok(whole.run, `${path} runs`);
  }
});

test("a run the host stops ends the check with AnalysisCancelled, not with an internal-error finding", () => {
  const text = JSON.stringify({ config: "./agent-sandbox.jsonc", steps: Array.from({ length: 50 }, () => ({ tool: "ls", args: { path: "/workspace" }, expect: "ok" })) });
  let asked = 0;
  assert.throws(() => runCancellable(() => ++asked > 10, () => checkDryRunText(text, { ...OPTIONS, phase: "run" })), AnalysisCancelled);
  assert.ok(asked > 10 && asked < 50, `asked ${asked} times: the run stops at the step after it was told`);
  // Not stopped, the same run completes.
  assert.equal(checkDryRunText(text, { ...OPTIONS, phase: "run" }).run?.steps.length, 50);
});

test("the static checks a host stops end with AnalysisCancelled too (between checks)", () => {
  const text = JSON.stringify(SCENARIOS["expectations that fail and hold, in a task too"]);
  let asked = 0;
  assert.throws(() => runCancellable(() => ++asked > 2, () => checkDryRunText(text, { ...OPTIONS, phase: "checks" })), AnalysisCancelled);
  assert.equal(asked, 3, "stopped at the third check");
});
