/**
 * The scenario checks in the editor's two phases (checkDryRunText's `phase`): `static` (every check but the run) and
 * `run` (the run and what it finds) together are exactly the whole check, whatever the scenario; the static phase
 * never runs the scenario; a run the host stops ends the check rather than becoming a finding.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AnalysisCancelled, runCancellable } from "../../server/src/engine/cancellation";
import { mergeFindings } from "../../server/src/engine/checkConfig";
import { checkDryRunText, type DryRunCheckOptions } from "../../server/src/engine/checkDryRun";
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
};

for (const [name, scenario] of Object.entries(SCENARIOS)) {
  test(`the static and the run phase together are the whole check: ${name}`, () => {
    const text = JSON.stringify(scenario, null, 2);
    const whole = checkDryRunText(text, OPTIONS);
    const first = checkDryRunText(text, { ...OPTIONS, phase: "static" });
    const second = checkDryRunText(text, { ...OPTIONS, phase: "run" });
    assert.deepEqual(mergeFindings(first.findings, second.findings), whole.findings);
    assert.equal(first.run, undefined, "the static phase never runs the scenario");
    assert.equal(first.runnable, whole.runnable);
    assert.equal(second.run?.steps.length, whole.run?.steps.length);
    assert.ok(second.findings.every((f) => f.code === "scenario-expectation-failed"), second.findings.map((f) => f.code).join(", "));
  });
}

test("the first scenario fails where expected, so the comparison above compares findings of both phases", () => {
  const text = JSON.stringify(SCENARIOS["expectations that fail and hold, in a task too"], null, 2);
  const codes = checkDryRunText(text, OPTIONS).findings.map((f) => f.code);
  assert.deepEqual(codes.filter((c) => c === "scenario-expectation-failed").length, 4, codes.join(", "));
  assert.ok(codes.includes("scenario-tool-unknown") && codes.includes("scenario-args-invalid"), codes.join(", "));
});

test("the example and e2e scenarios split the same way against their configs on disk", () => {
  for (const path of [join(__dirname, "../../examples/research-agent/research.dryrun.jsonc"), join(__dirname, "../../e2e/fixtures/ws/a/research.dryrun.jsonc")]) {
    const text = readFileSync(path, "utf8");
    const options = scenarioCheckOptions(path);
    const whole = checkDryRunText(text, options);
    const split = mergeFindings(checkDryRunText(text, { ...options, phase: "static" }).findings, checkDryRunText(text, { ...options, phase: "run" }).findings);
    assert.deepEqual(split, whole.findings, path);
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
