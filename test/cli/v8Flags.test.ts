/**
 * The CLI's V8 settings (server/src/cli/v8Flags.ts) apply only on the V8 they were measured on, and never over the
 * user's own choice of a flag.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "../helpers/scratch";
import { test } from "node:test";
import { cliV8Flags, LONG_RUN_CHARACTERS } from "../../server/src/cli/v8Flags";

const START = ["--ticks-before-optimization=50", "--no-turbofan"];
const LONG = ["--turbofan"];
const ANALYSIS = ["--semi-space-growth-factor=8"];

test("on V8 11, when the user chose none: two as the CLI starts, the optimiser back for a long run, one more for the analysis", () => {
  assert.deepEqual(cliV8Flags("11.3.244.8-node.33", [], undefined), START);
  assert.deepEqual(cliV8Flags("11.3.244.8-node.33", [], undefined, "start"), START);
  assert.deepEqual(cliV8Flags("11.3.244.8-node.33", [], undefined, "long"), LONG);
  assert.deepEqual(cliV8Flags("11.3.244.8-node.33", [], undefined, "analysis"), ANALYSIS);
  assert.deepEqual(cliV8Flags("11.3.244.8-node.33", ["--enable-source-maps"], "--max-old-space-size=4096"), START);
  assert.deepEqual(cliV8Flags("11.3.244.8-node.33", ["--enable-source-maps"], "--max-old-space-size=4096", "analysis"), ANALYSIS);
});

test("none on another V8, which may not know a flag and would print an error for it", () => {
  for (const phase of ["start", "long", "analysis"] as const) {
    assert.deepEqual(cliV8Flags("12.4.254.21-node.33", [], undefined, phase), []);
    assert.deepEqual(cliV8Flags("13.6.233.10-node.24", [], undefined, phase), []);
    assert.deepEqual(cliV8Flags("1.2", [], undefined, phase), []);
  }
});

test("a flag the user set on the command line or in NODE_OPTIONS is left alone, in either spelling", () => {
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--ticks-before-optimization=3"], undefined), ["--no-turbofan"]);
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--ticks-before-optimization=3"], undefined, "analysis"), ANALYSIS);
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--ticks_before_optimization=9"], undefined), ["--no-turbofan"]);
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--ticks-before-optimization", "3"], undefined), ["--no-turbofan"]);
  assert.deepEqual(cliV8Flags("11.3.244.8", [], "--inspect --semi-space-growth-factor=2", "analysis"), []);
  assert.deepEqual(cliV8Flags("11.3.244.8", [], "--inspect --semi-space-growth-factor=2"), START);
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--semi_space_growth_factor=4"], "--ticks-before-optimization=3", "analysis"), []);
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--semi_space_growth_factor=4"], "--ticks-before-optimization=3"), ["--no-turbofan"]);
});

test("the optimiser is left alone in every phase when the user set it under any of its names", () => {
  for (const given of ["--turbofan", "--no-turbofan", "--noturbofan", "--opt", "--no-opt", "--max-opt=1", "--max_opt=3"]) {
    assert.deepEqual(cliV8Flags("11.3.244.8", [given], undefined), ["--ticks-before-optimization=50"], given);
    assert.deepEqual(cliV8Flags("11.3.244.8", [], given, "long"), [], given);
  }
});

test("the built CLI optimises nothing in a short run and does once the inputs pass LONG_RUN_CHARACTERS", () => {
  const cli = join(__dirname, "..", "..", "dist", "cli.js");
  // `--trace-opt` (not one of the CLI's flags) prints a line per function TurboFan finishes, on stdout.
  const optimised = (config: string) => {
    const run = spawnSync(process.execPath, ["--trace-opt", cli, "check", config, "--no-analysis"], { encoding: "utf8", maxBuffer: 64 << 20 });
    assert.ok(run.status === 0 || run.status === 1, `exit ${run.status}: ${run.stderr}`);
    return run.stdout.split("\n").filter((line) => line.startsWith("[completed optimizing")).length;
  };
  const dir = scratchDir("v8flags");
  const write = (name: string, rules: number) => {
    const file = join(dir, name);
    const list = Array.from({ length: rules }, (_, i) => `{ "operations": ["read", "write"], "paths": ["/workspace/folder-${i}/**", "/workspace/**/*.key${i}"], "mode": "deny" }`);
    const text = `{ "version": 1, "runtime": "deepagents-js", "compatibleWith": ["deepagents-py"], "permissions": [\n${list.join(",\n")}\n] }\n`;
    writeFileSync(file, text);
    return { file, length: text.length };
  };
  const short = write("short.agent-sandbox.jsonc", 300);
  const long = write("long.agent-sandbox.jsonc", 2000);
  assert.ok(short.length < LONG_RUN_CHARACTERS && long.length > LONG_RUN_CHARACTERS, `${short.length} and ${long.length} characters`);
  assert.equal(optimised(short.file), 0);
  assert.ok(optimised(long.file) > 0, "nothing optimised in a long run");
});

test("the built CLI runs with them and prints nothing extra", () => {
  const cli = join(__dirname, "..", "..", "dist", "cli.js");
  const run = spawnSync(process.execPath, [cli, "--version"], { encoding: "utf8" });
  assert.equal(run.status, 0);
  assert.equal(run.stderr, "");
  assert.match(run.stdout, /^\d+\.\d+\.\d+\n$/);
  // `check` with the exact analysis sets the second one on the way.
  const config = join(__dirname, "..", "..", "examples", "research-agent", "agent-sandbox.jsonc");
  const checked = spawnSync(process.execPath, [cli, "check", config, "--format", "json"], { encoding: "utf8" });
  assert.equal(checked.stderr, "");
  assert.ok(checked.status === 0 || checked.status === 1, `exit ${checked.status}`);
  assert.ok(JSON.parse(checked.stdout).files[0].diagnostics.some((d: { code: string }) => d.code === "rule-partially-shadowed"));
});
