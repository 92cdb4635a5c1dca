/**
 * The CLI's V8 settings (server/src/cli/v8Flags.ts) apply only on the V8 they were measured on, and never over the
 * user's own choice of a flag.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { cliV8Flags } from "../../server/src/cli/v8Flags";

const BOTH = ["--ticks-before-optimization=50", "--semi-space-growth-factor=8"];

test("both apply on V8 11 when the user chose neither", () => {
  assert.deepEqual(cliV8Flags("11.3.244.8-node.33", [], undefined), BOTH);
  assert.deepEqual(cliV8Flags("11.3.244.8-node.33", ["--enable-source-maps"], "--max-old-space-size=4096"), BOTH);
});

test("none on another V8, which may not know a flag and would print an error for it", () => {
  assert.deepEqual(cliV8Flags("12.4.254.21-node.33", [], undefined), []);
  assert.deepEqual(cliV8Flags("13.6.233.10-node.24", [], undefined), []);
  assert.deepEqual(cliV8Flags("1.2", [], undefined), []);
});

test("a flag the user set on the command line or in NODE_OPTIONS is left alone, in either spelling", () => {
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--ticks-before-optimization=3"], undefined), [BOTH[1]]);
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--ticks_before_optimization=9"], undefined), [BOTH[1]]);
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--ticks-before-optimization", "3"], undefined), [BOTH[1]]);
  assert.deepEqual(cliV8Flags("11.3.244.8", [], "--inspect --semi-space-growth-factor=2"), [BOTH[0]]);
  assert.deepEqual(cliV8Flags("11.3.244.8", ["--semi_space_growth_factor=4"], "--ticks-before-optimization=3"), []);
});

test("the built CLI runs with them and prints nothing extra", () => {
  const cli = join(__dirname, "..", "..", "dist", "cli.js");
  const run = spawnSync(process.execPath, [cli, "--version"], { encoding: "utf8" });
  assert.equal(run.status, 0);
  assert.equal(run.stderr, "");
  assert.match(run.stdout, /^\d+\.\d+\.\d+\n$/);
});
