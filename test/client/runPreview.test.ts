/** The Run Dry-Run Scenario preview (client/src/runPreview.ts: plain data, no VS Code). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { runMarkdown } from "../../client/src/runPreview";
import type { ScenarioRunResult } from "../../server/src/protocol";

const ran = (transcript: string, passed: boolean): ScenarioRunResult => ({ available: true, ran: true, passed, steps: [], transcript });

test("a run that passed: its verdict in the heading, the transcript in a text fence", () => {
  const markdown = runMarkdown(ran("PASS agent main\n  ✔ 1. [main] read_file /workspace/a → ok\n", true), "file:///w/env%20check.dryrun.jsonc");
  assert.equal(markdown, "# Dry run of env check.dryrun.jsonc: passed\n\n```text\nPASS agent main\n  ✔ 1. [main] read_file /workspace/a → ok\n```\n");
});

test("a transcript holding backticks gets a longer fence, so no line of it ends the block", () => {
  const markdown = runMarkdown(ran("FAIL agent main\n    | ````\n", false), "file:///w/a.dryrun.jsonc");
  assert.match(markdown, /^# Dry run of a\.dryrun\.jsonc: failed\n\n`{5}text\n/);
  assert.ok(markdown.endsWith("\n`````\n"));
});

test("a scenario that could not run says why", () => {
  const markdown = runMarkdown({ available: true, ran: false, passed: false, reason: "Its config ./agent.ts has 2 calls.", steps: [], transcript: "" }, "file:///w/a.dryrun.jsonc");
  assert.equal(markdown, "# Dry run of a.dryrun.jsonc\n\n_Its config ./agent.ts has 2 calls._\n");
});
