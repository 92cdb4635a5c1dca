/**
 * The CLI delays V8's optimising compiler (server/src/cli/tiering.ts) only on the V8 it was measured on, and never
 * over the user's own choice of the flag.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { tieringApplies } from "../../server/src/cli/tiering";

test("applies on V8 11 when the user chose nothing", () => {
  assert.equal(tieringApplies("11.3.244.8-node.33", [], undefined), true);
  assert.equal(tieringApplies("11.3.244.8-node.33", ["--enable-source-maps"], "--max-old-space-size=4096"), true);
});

test("not on another V8, which may not know the flag and would print an error for it", () => {
  assert.equal(tieringApplies("12.4.254.21-node.33", [], undefined), false);
  assert.equal(tieringApplies("13.6.233.10-node.24", [], undefined), false);
  assert.equal(tieringApplies("1.2", [], undefined), false);
});

test("not when the user set the flag on the command line or in NODE_OPTIONS", () => {
  assert.equal(tieringApplies("11.3.244.8", ["--ticks-before-optimization=3"], undefined), false);
  assert.equal(tieringApplies("11.3.244.8", ["--ticks-before-optimization", "3"], undefined), false);
  assert.equal(tieringApplies("11.3.244.8", ["--ticks_before_optimization=9"], undefined), false);
  assert.equal(tieringApplies("11.3.244.8", [], "--inspect --ticks-before-optimization=3"), false);
});

test("the built CLI runs with it and prints nothing extra", () => {
  const cli = join(__dirname, "..", "..", "dist", "cli.js");
  const run = spawnSync(process.execPath, [cli, "--version"], { encoding: "utf8" });
  assert.equal(run.status, 0);
  assert.equal(run.stderr, "");
  assert.match(run.stdout, /^\d+\.\d+\.\d+\n$/);
});
