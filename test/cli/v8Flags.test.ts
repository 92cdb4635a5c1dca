/**
 * The CLI's V8 settings (server/src/cli/v8Flags.ts) apply only on the V8 they were measured on, and never over the
 * user's own choice of a flag.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { cliV8Flags } from "../../server/src/cli/v8Flags";

const START = ["--ticks-before-optimization=50"];
const ANALYSIS = ["--semi-space-growth-factor=8"];

test("on V8 11, when the user chose neither: one as the CLI starts, the other once the exact analysis is to run", () => {
  assert.deepEqual(cliV8Flags("11.3.244.8-node.33", [], undefined), START);
  assert.deepEqual(cliV8Flags("11.3.244.8-node.33", [], undefined, "start"), START);
  assert.deepEqual(cliV8Flags("11.3.244.8-node.33", [], undefined, "analysis"), ANALYSIS);
  assert.deepEqual(cliV8Flags("11.3.244.8-node.33", ["--enable-source-maps"], "--max-old-space-size=4096"), START);
  assert.deepEqual(cliV8Flags("11.3.244.8-node.33", ["--enable-source-maps"], "--max-old-space-size=4096", "analysis"), ANALYSIS);
});

test("none on another V8, which may not know a flag and would print an error for it", () => {
  for (const phase of ["start", "analysis"] as const) {
    assert.deepEqual(cliV8Flags("12.4.254.21-node.33", [], undefined, phase), []);
    assert.deepEqual(cliV8Flags("13.6.233.10-node.24", [], undefined, phase), []);
    assert.deepEqual(cliV8Flags("1.2", [], undefined, phase), []);
  }
});

test("a flag the user set on the command line or in NODE_OPTIONS is left alone, in either spelling", () => {
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--ticks-before-optimization=3"], undefined), []);
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--ticks-before-optimization=3"], undefined, "analysis"), ANALYSIS);
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--ticks_before_optimization=9"], undefined), []);
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--ticks-before-optimization", "3"], undefined), []);
  assert.deepEqual(cliV8Flags("11.3.244.8", [], "--inspect --semi-space-growth-factor=2", "analysis"), []);
  assert.deepEqual(cliV8Flags("11.3.244.8", [], "--inspect --semi-space-growth-factor=2"), START);
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--semi_space_growth_factor=4"], "--ticks-before-optimization=3", "analysis"), []);
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--semi_space_growth_factor=4"], "--ticks-before-optimization=3"), []);
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
