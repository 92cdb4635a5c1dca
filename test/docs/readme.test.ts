/**
 * The README shows the CLI's output as transcripts (`$ agent-sandbox …` followed by what it prints). Each is run
 * here with the built CLI from the repository's root, and must print what the README says, words and line
 * breaks aside (the README wraps long lines at 120 columns). A README that drifted from the CLI was a review
 * finding (5 Dec).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");
const CLI = join(ROOT, "dist", "cli.js");

/** Every fenced block that starts with `$ agent-sandbox`: its arguments and the output shown under it. */
function transcripts(markdown: string): { args: string[]; shown: string }[] {
  const found: { args: string[]; shown: string }[] = [];
  for (const block of markdown.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
    const [first, ...rest] = block[1]!.split("\n");
    const command = /^\$ agent-sandbox (.*)$/.exec(first!);
    if (!command) continue;
    found.push({ args: command[1]!.split(/\s+/), shown: rest.join("\n") });
  }
  return found;
}

const words = (text: string) => text.split(/\s+/).filter((w) => w !== "");

test("every CLI transcript in the README prints what the README shows", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const shown = transcripts(readme);
  assert.ok(shown.length > 0, "the README has no transcript: this test would check nothing");
  for (const { args, shown: expected } of shown) {
    const run = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    assert.deepEqual(words(run.stdout), words(expected), `agent-sandbox ${args.join(" ")}`);
  }
});
