/**
 * scenario-run-stopped: a run that stopped at one of its limits (MAX_RUN_STEPS steps, MAX_WORKSPACE_ENTRIES listed
 * entries) is reported on the step where it stopped, by `check` and the editor alike; a run within them is not.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkDryRunText } from "../../server/src/engine/checkDryRun";
import { MAX_RUN_STEPS } from "../../server/src/engine/dryrun/runner";
import { memoryWorkspace, type WorkspaceSource } from "../../server/src/engine/workspace/source";
import { millionFileWorkspace } from "../helpers/dryRunBadInputs";
import { styleProblems } from "../helpers/messageStyle";

const CONFIG = JSON.stringify({
  version: 1,
  backend: { type: "filesystem", rootDir: "./ws", virtualMode: true },
  subagents: [{ name: "auditor", description: "d" }],
  workspace: { root: "./ws", mountAt: "/workspace" },
});

function check(text: string, workspace: () => WorkspaceSource = () => memoryWorkspace({ "README.md": "hi\n" })) {
  const checked = checkDryRunText(text, { readFile: (p) => (p === "./agent-sandbox.jsonc" ? CONFIG : undefined), workspace });
  assert.deepEqual(checked.findings.flatMap(styleProblems), []);
  return { checked, found: checked.findings.filter((f) => f.code === "scenario-run-stopped").map((f) => ({ ...f, at: text.slice(f.span.start, f.span.end), line: checked.lines.positionAt(f.span.start).line })) };
}

/** `count` read_file steps, one a line (step i on line i + 2), the last `last` when given. */
function manySteps(count: number, last?: string): string {
  const step = '    { "tool": "read_file", "args": { "file_path": "/workspace/README.md" }, "expect": "ok" }';
  const steps = Array.from({ length: count }, (_, i) => (i === count - 1 && last ? `    ${last}` : step));
  return `{\n  "config": "./agent-sandbox.jsonc",\n  "steps": [\n${steps.join(",\n")}\n  ]\n}\n`;
}

test("more steps than a run takes: one finding, on the tool of the first step that did not run, with the limit and what to do", () => {
  const text = manySteps(MAX_RUN_STEPS + 5);
  const { checked, found } = check(text);
  assert.deepEqual(found.map((f) => [f.code, f.severity, f.message, f.at, f.line]), [
    ["scenario-run-stopped", "warning", "The dry run stopped at this step: the scenario has more than 20,000 steps.", '"read_file"', 3 + MAX_RUN_STEPS],
  ]);
  assert.match(found[0]!.detail!, /at most 20,000 steps/);
  assert.match(found[0]!.detail!, /Split the scenario/);
  // The run itself says the same, and the steps before the limit ran and held.
  assert.equal(checked.run?.steps.length, MAX_RUN_STEPS);
  assert.equal(checked.run?.stoppedBy, "steps");
  assert.deepEqual(checked.findings.map((f) => f.code), ["scenario-run-stopped"]);
});

test("exactly as many steps as a run takes: no finding", () => {
  const { checked, found } = check(manySteps(MAX_RUN_STEPS));
  assert.deepEqual(found, []);
  assert.equal(checked.run?.passed, true);
});

test("the limit met inside a task: on the nested step where it stopped", () => {
  const nested = Array.from({ length: 3 }, (_, i) => `{ "tool": "ls", "args": { "path": "/workspace/n${i}" } }`).join(", ");
  const text = manySteps(MAX_RUN_STEPS, `{ "tool": "task", "args": { "subagent_type": "auditor", "description": "x", "steps": [${nested}] } }`);
  const { found } = check(text);
  assert.equal(found.length, 1);
  assert.equal(found[0]!.at, '"ls"');
  // The task is step 20,000; its first nested step would be the 20,001st.
  assert.equal(text.slice(found[0]!.span.start).startsWith('"ls", "args": { "path": "/workspace/n0" }'), true);
});

test("a sample workspace too large to list: on the step that met it, and the steps after it are not run", () => {
  const text = `{
  "config": "./agent-sandbox.jsonc",
  "steps": [
    { "tool": "ls", "args": { "path": "/workspace/d001" } },
    { "tool": "glob", "args": { "pattern": "**/*.txt", "path": "/workspace" } },
    { "tool": "read_file", "args": { "file_path": "/workspace/d001/f001.txt" }, "expect": "ok" }
  ]
}
`;
  const ws = millionFileWorkspace();
  const { checked, found } = check(text, () => ws);
  assert.deepEqual(found.map((f) => [f.message, f.at, f.line]), [["The dry run stopped at this step: the sample workspace has more than 200,000 files and folders.", '"glob"', 4]]);
  assert.match(found[0]!.detail!, /Point workspace\.root at a smaller sample folder/);
  assert.equal(checked.run?.steps.length, 2);
  assert.equal(checked.run?.stoppedBy, "workspace");
  assert.deepEqual(ws.outside, []);
});

test("severity settings apply to it like any code", () => {
  const text = manySteps(MAX_RUN_STEPS + 1);
  const off = checkDryRunText(text, { readFile: () => CONFIG, workspace: () => memoryWorkspace({ "README.md": "hi\n" }), severities: { "scenario-run-stopped": "off" } });
  assert.deepEqual(off.findings, []);
});
