/**
 * Bad input to the dry run, in the engine and in the CLI's scenario runner (in process): a 10 MB scenario,
 * 100,000 steps, a `task` nested 10,000 deep, a step with a 1 MB argument, a workspace of 1,000,000 files, a
 * symbolic link loop. Each gets a clear answer (a finding, a scenario error, a step error or a truncated map),
 * never a crash, and nothing outside the workspace is asked for. How long each takes is section 9 of
 * `npm run bench` (bench/dryrun.ts), not an assertion here.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { runScenarioSource } from "../../server/src/cli/commands/dryRun";
import { hostWorkspace } from "../../server/src/host/workspace";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { checkDryRunText } from "../../server/src/engine/checkDryRun";
import { capabilityMap, MAX_MAP_ENTRIES } from "../../server/src/engine/dryrun/capabilityMap";
import { MAX_RUN_STEPS, MAX_WORKSPACE_ENTRIES, runScenario, type StepInput } from "../../server/src/engine/dryrun/runner";
import { memoryWorkspace } from "../../server/src/engine/workspace/source";
import { deepTaskSteps, deepTaskText, hundredThousandSteps, millionFileWorkspace, ONE_MEGABYTE, tenMegabyteScenario } from "../helpers/dryRunBadInputs";
import { realOutcome, runReal, virtualize } from "../helpers/realDeepAgent";
import { linkLoopWorkspace, scratchDir } from "../helpers/scratch";

const EXAMPLE_DIR = join(__dirname, "..", "..", "examples", "research-agent");
const CONFIG = join(EXAMPLE_DIR, "agent-sandbox.jsonc");

function model(config: Record<string, unknown>) {
  const m = checkConfigText(JSON.stringify({ version: 1, workspace: { root: "./ws", mountAt: "/workspace" }, ...config })).model;
  assert.ok(m);
  return m;
}
const FS = { type: "filesystem", rootDir: "./ws", virtualMode: true };

test("a 10 MB scenario: the run and the checks say the file is too large to analyse", () => {
  const text = tenMegabyteScenario(CONFIG);
  assert.ok(text.length > 10 * 1024 * 1024);
  const run = runScenarioSource(text, "big.dryrun.jsonc", EXAMPLE_DIR);
  assert.equal(run.passed, false);
  assert.match(run.error!, /files over 4 MB are not analysed/);
  assert.deepEqual(run.steps, []);
  const findings = checkDryRunText(text).findings;
  assert.ok(findings.some((f) => /files over 4 MB are not analysed/.test(f.message)), JSON.stringify(findings.map((f) => f.message)));
});

test("100,000 steps: the run stops after MAX_RUN_STEPS, says so, and fails the scenario", () => {
  const text = hundredThousandSteps(CONFIG);
  assert.ok(text.length < 4 * 1024 * 1024, "under the file size limit, so the runner meets every step");
  const run = runScenarioSource(text, "many.dryrun.jsonc", EXAMPLE_DIR);
  assert.equal(run.steps.length, MAX_RUN_STEPS);
  assert.equal(run.passed, false);
  assert.equal(run.error, "the scenario has more than 20,000 steps; the dry run stops after that many");
  // The checks run the same bounded run: findings, never an internal error.
  const findings = checkDryRunText(text, { readFile: () => undefined }).findings;
  assert.ok(!findings.some((f) => f.code === "internal-error"), JSON.stringify(findings.slice(0, 3)));
});

test("a task nested 10,000 deep: the parser stops at its nesting limit; built directly, the run ends without exhausting the stack", () => {
  const text = deepTaskText(CONFIG);
  const run = runScenarioSource(text, "deep.dryrun.jsonc", EXAMPLE_DIR);
  assert.equal(run.passed, false);
  assert.match(run.error!, /Nesting deeper than 128 levels/);
  assert.ok(checkDryRunText(text).findings.some((f) => /Nesting deeper than 128 levels/.test(f.message)));

  const m = model({ backend: FS, subagents: [{ name: "auditor", description: "d" }] });
  const r = runScenario(m, { agent: "main", role: null, steps: deepTaskSteps("auditor") }, memoryWorkspace({ "README.md": "hi\n" }));
  // The main agent's task runs as the subagent; a subagent has no task tool, so nothing below it runs.
  assert.deepEqual(r.steps.map((s) => [s.agent, s.tool, s.outcome, s.depth]), [["main", "task", "ok", 0], ["auditor", "task", "tool-unavailable", 1]]);
});

test("a step with a 1 MB argument: written, read back, searched for and used as a path, each with the runtime's answer", () => {
  const m = model({ backend: FS, permissions: [{ operations: ["write"], paths: ["/workspace/locked/**"], mode: "deny" }] });
  const steps: StepInput[] = [
    { tool: "write_file", args: { file_path: "/workspace/big.txt", content: ONE_MEGABYTE } },
    { tool: "read_file", args: { file_path: "/workspace/big.txt", limit: 1 } },
    { tool: "grep", args: { pattern: ONE_MEGABYTE, path: "/workspace" } },
    { tool: "read_file", args: { file_path: `/workspace/${ONE_MEGABYTE}` } },
    { tool: "edit_file", args: { file_path: "/workspace/big.txt", old_string: ONE_MEGABYTE, new_string: "small" } },
    { tool: "read_file", args: { file_path: "/workspace/big.txt" } },
    { tool: "write_file", args: { file_path: `/workspace/locked/${ONE_MEGABYTE}`, content: "x" } },
  ];
  const r = runScenario(m, { agent: "main", role: null, steps }, memoryWorkspace({ "README.md": "hi\n" }));
  assert.deepEqual(r.steps.map((s) => s.outcome), ["ok", "ok", "ok", "error", "ok", "ok", "permission-denied"]);
  assert.equal(r.steps[0]!.output, "Successfully wrote to '/workspace/big.txt'");
  // (Outputs are compared by their start: an assertion's diff of a megabyte would be the whole test log.)
  assert.ok(r.steps[2]!.output.startsWith("/workspace/big.txt:\n  1: yyy"), r.steps[2]!.output.slice(0, 80));
  assert.ok(r.steps[3]!.output.startsWith(`Error: Error reading file '/workspace/${"y".repeat(100)}`), r.steps[3]!.output.slice(0, 80));
  assert.equal(r.steps[5]!.output, "@@ lines 1-1 of 1 @@\nsmall");
});

test("a workspace of 1,000,000 files (a view that lists them on demand): the run stops with a clear error, the map is truncated, nothing outside is asked", () => {
  for (const backend of [FS, { type: "state" }]) {
    const ws = millionFileWorkspace();
    const m = model({ backend });
    const r = runScenario(m, { agent: "main", role: null, steps: [
      { tool: "ls", args: { path: "/workspace/d007" } },
      { tool: "glob", args: { pattern: "**/*.txt", path: "/workspace" } },
      { tool: "read_file", args: { file_path: "/workspace/d001/f001.txt" } },
    ] }, ws);
    assert.equal(r.passed, false);
    assert.equal(r.stopped, "the sample workspace has more than 200,000 files and folders; the dry run reads no more of it", JSON.stringify(backend));
    const last = r.steps.at(-1)!;
    assert.equal(last.outcome, "error");
    assert.equal(last.output, `Error: ${r.stopped}`);
    // The filesystem backend lists on demand (the first step sees its folder); a state backend is seeded whole first.
    assert.equal(r.steps.length, backend === FS ? 2 : 1);
    if (backend === FS) assert.equal(r.steps[0]!.output.split("\n").length, 1000);
    assert.ok(ws.listedEntries <= MAX_WORKSPACE_ENTRIES + 1000, `${ws.listedEntries} entries listed`);
    assert.deepEqual(ws.outside, []);
  }
  // The same million in one folder: the first listing is over the bound, whichever tool lists it.
  for (const tool of ["ls", "glob", "grep", "read_file", "write_file"]) {
    const flat = millionFileWorkspace(true);
    const r = runScenario(model({ backend: FS }), { agent: "main", role: null, steps: [{ tool, args: tool === "ls" ? { path: "/workspace" } : tool === "glob" || tool === "grep" ? { pattern: "*", path: "/workspace" } : { file_path: "/workspace/f0000001.txt", content: "x" } }] }, flat);
    assert.equal(r.stopped, "the sample workspace has more than 200,000 files and folders; the dry run reads no more of it", tool);
    assert.equal(r.steps[0]!.outcome, "error", tool);
  }
  const flatMap = capabilityMap(model({ backend: FS }), "main", null, millionFileWorkspace(true))!;
  assert.deepEqual([flatMap.truncated, flatMap.entries.length, flatMap.entries[0]!.path], [true, MAX_MAP_ENTRIES, "/workspace/f0000000.txt"]);
  const ws = millionFileWorkspace();
  const map = capabilityMap(model({ backend: FS, permissions: [{ operations: ["read"], paths: ["/workspace/d000/**"], mode: "deny" }] }), "main", null, ws)!;
  assert.equal(map.truncated, true);
  assert.equal(map.entries.length, MAX_MAP_ENTRIES);
  assert.deepEqual(map.entries.find((e) => e.path === "/workspace/d000/f005.txt")?.read, "deny");
  assert.ok(ws.listedEntries <= MAX_MAP_ENTRIES + 1000, `${ws.listedEntries} entries listed`);
  assert.deepEqual(ws.outside, []);
});

test("a symbolic link loop and a link up, through the CLI's view: the run and the map end and show only what is inside", () => {
  const dir = scratchDir("dryrun-loop-engine");
  linkLoopWorkspace(dir, "zq-outside\n", "a/out.txt");
  const ws = hostWorkspace(join(dir, "ws"))!;
  const m = model({ backend: FS });
  const map = capabilityMap(m, "main", null, ws)!;
  assert.deepEqual(map.entries.map((e) => e.path), ["/workspace/a", "/workspace/a/f.txt"]);
  const r = runScenario(m, { agent: "main", role: null, steps: [
    { tool: "glob", args: { pattern: "**", path: "/workspace" } },
    { tool: "grep", args: { pattern: "zq", path: "/workspace" } },
    { tool: "read_file", args: { file_path: "/workspace/loop1" } },
    { tool: "read_file", args: { file_path: "/workspace/a/up/a/f.txt" } },
    { tool: "read_file", args: { file_path: "/workspace/a/out.txt" } },
  ] }, ws);
  assert.deepEqual(r.steps.map((s) => s.outcome), ["ok", "ok", "error", "error", "error"]);
  assert.equal(r.steps[0]!.output, "/workspace/a/f.txt");
  assert.equal(r.steps[1]!.output, "No matches found for pattern 'zq'");
  assert.doesNotMatch(JSON.stringify(r.steps), /zq-outside/);
});

test("names too long for the host (300 bytes, 200 two-byte letters, 5,000 bytes): the same answers as the real deepagents on a FilesystemBackend", async () => {
  // Not the 1 MB name: a megabyte in the real agent's messages sets off its summarisation, a model call the script
  // does not expect; 5,000 bytes is already past the host's limit on a whole path.
  const long = "y".repeat(300);
  const wide = "é".repeat(200);
  const steps: StepInput[] = [];
  for (const name of [long, wide, "y".repeat(5000), "ok.txt"]) {
    for (const path of [`/workspace/${name}`, `/workspace/${name}/a.txt`, `/workspace/missing/${name}`]) {
      steps.push(
        { tool: "read_file", args: { file_path: path } }, { tool: "write_file", args: { file_path: path, content: "x" } },
        { tool: "ls", args: { path } }, { tool: "edit_file", args: { file_path: path, old_string: "x", new_string: "z" } },
        { tool: "read_file", args: { file_path: path } }, { tool: "glob", args: { pattern: "*", path } }, { tool: "grep", args: { pattern: "z", path } },
        { tool: "delete", args: { file_path: path } },
      );
    }
  }
  const config = { version: 1, runtime: "deepagents-js", systemPrompt: "MAIN", workspace: { root: "./ws", mountAt: "/workspace" }, backend: FS, subagents: [] };
  const files = { "README.md": "hi\n" };
  const ours = runScenario(model(config), { agent: "main", role: null, steps }, memoryWorkspace(files));
  const real = await runReal({ layout: "fs", config, files, steps } as never);
  const short = (s: string) => s.replace(/y{300,}/g, (m) => `y×${m.length}`).replace(/(é){200}/g, "é×200");
  const differ: string[] = [];
  steps.forEach((step, i) => {
    const theirs = real.director.answers.get(step)!;
    const text = virtualize(theirs.content ?? "", real.hostPaths);
    const mine = ours.steps[i]!;
    if (mine.outcome !== realOutcome(theirs) || mine.output !== text) differ.push(`${step.tool} ${short(JSON.stringify(step.args))}\n  ours: ${mine.outcome} ${short(mine.output)}\n  real: ${realOutcome(theirs)} ${short(text)}`);
  });
  assert.deepEqual(real.director.problems, []);
  assert.ok(differ.length === 0, `${differ.length} of ${steps.length} steps differ:\n${differ.slice(0, 6).join("\n")}`);
  assert.ok(ours.steps.some((s) => s.output.includes("ENAMETOOLONG")));
});
