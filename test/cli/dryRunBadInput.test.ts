/**
 * Bad input to `agent-sandbox dry-run`, through the built CLI: a clear answer, never a stack trace, nothing read
 * outside the workspace. How long each answer takes is section 9 of `npm run bench` (bench/dryrun.ts), not an
 * assertion here; test/dryrun/badInput.test.ts has the same inputs in process, and more.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { hostWorkspace } from "../../server/src/host/workspace";
import { deepTaskText, hundredThousandSteps, tenMegabyteScenario } from "../helpers/dryRunBadInputs";
import { linkLoopWorkspace, scratchDir } from "../helpers/scratch";

const CLI = join(__dirname, "..", "..", "dist", "cli.js");
const CONFIG = join(__dirname, "..", "..", "examples", "research-agent", "agent-sandbox.jsonc");

function dryRun(scenario: string) {
  const dir = scratchDir("dryrun-bad");
  const file = join(dir, "bad.dryrun.jsonc");
  writeFileSync(file, scenario);
  const r = spawnSync(process.execPath, [CLI, "dry-run", file], { encoding: "utf8", maxBuffer: 1 << 28, env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, out: r.stdout + r.stderr };
}

const step = '{"tool":"read_file","args":{"file_path":"/workspace/README.md"}}';

test("a 10 MB scenario, 100,000 steps (long and short), a task nested 10,000 deep: the scenario fails with a reason", () => {
  const big = dryRun(tenMegabyteScenario(CONFIG));
  const many = dryRun(`{"config":${JSON.stringify(CONFIG)},"steps":[${Array(100_000).fill(step).join(",")}]}`);
  const manyShort = dryRun(hundredThousandSteps(CONFIG));
  const deep = dryRun(deepTaskText(CONFIG));
  for (const [r, reason] of [[big, /files over 4 MB are not analysed/], [many, /files over 4 MB are not analysed/], [manyShort, /error: the scenario has more than 20,000 steps; the dry run stops after that many/], [deep, /Nesting deeper than 128 levels/]] as const) {
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, reason);
    assert.doesNotMatch(r.out, /\n\s+at /);
  }
});

test("check on a scenario whose run stops at its step limit: a scenario-run-stopped finding on the step where it stopped", () => {
  const dir = scratchDir("dryrun-stopped");
  const file = join(dir, "many.dryrun.jsonc");
  const text = hundredThousandSteps(CONFIG);
  writeFileSync(file, text);
  const r = spawnSync(process.execPath, [CLI, "check", file, "--format", "json"], { encoding: "utf8", maxBuffer: 1 << 28 });
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  const found = JSON.parse(r.stdout).files[0].diagnostics.filter((d: { code: string }) => d.code === "scenario-run-stopped");
  assert.equal(found.length, 1, r.stdout.slice(0, 500));
  assert.equal(found[0].message, "The dry run stopped at this step: the scenario has more than 20,000 steps.");
  // The 20,001st step's tool (every step is 23 characters and a comma; its tool's value 8 characters in).
  const step = '{"tool":"ls","args":{}},';
  const at = text.indexOf("[") + 1 + step.length * 20_000 + step.indexOf('"ls"');
  assert.deepEqual(found[0].range.start, { line: 0, character: at });
});

test("a 1 MB argument runs, and the text output shortens it", () => {
  const r = dryRun(JSON.stringify({ config: CONFIG, role: "admin", steps: [{ tool: "write_file", args: { file_path: "/workspace/notes/a.md", content: "y".repeat(1024 * 1024) }, expect: "ok" }, { tool: "grep", args: { pattern: "y".repeat(1024 * 1024), path: "/workspace/notes" }, expect: "ok" }] }));
  assert.equal(r.code, 0, r.out.slice(0, 500));
  assert.ok(r.out.length < 10_000, `${r.out.length} characters of output`);
});

test("a symbolic link loop, a link up and a link out of the workspace are left out of listings; reads outside are refused", () => {
  const dir = scratchDir("dryrun-loop");
  linkLoopWorkspace(dir, "out\n");
  const ws = hostWorkspace(join(dir, "ws"))!;
  assert.deepEqual(ws.list("")!.map((e) => e.name).sort(), ["a"]);
  // A link to a folder is left out even inside the workspace: this one points up, and a walk through it never ends.
  assert.deepEqual(ws.list("a")!.map((e) => `${e.name}:${e.kind}`).sort(), ["f.txt:file"]);
  for (const bad of ["out.txt", "../outside.txt", join(dir, "outside.txt"), "a/../../outside.txt", "loop1", "./a/f.txt"]) assert.equal(ws.read(bad), undefined, bad);
  assert.equal(ws.read("a/f.txt"), "in\n");
  // The whole run over that workspace ends, and shows nothing from outside.
  writeFileSync(join(dir, "agent-sandbox.jsonc"), JSON.stringify({ version: 1, backend: { type: "filesystem", rootDir: "./ws", virtualMode: true }, workspace: { root: "./ws", mountAt: "/workspace" } }));
  writeFileSync(join(dir, "s.dryrun.jsonc"), JSON.stringify({ config: "./agent-sandbox.jsonc", steps: [{ tool: "grep", args: { pattern: "" } }, { tool: "glob", args: { pattern: "**" } }] }));
  const r = spawnSync(process.execPath, [CLI, "dry-run", join(dir, "s.dryrun.jsonc"), "--format", "json"], { encoding: "utf8", timeout: 10_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).scenarios[0].steps.map((s: { output: string }) => s.output), ["/workspace/a/f.txt:\n  1: in\n  2: ", "/workspace/a/f.txt"]);
});
