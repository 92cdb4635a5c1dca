/**
 * Stopping an analysis nobody waits for (server/src/engine/cancellation.ts): it stops at a budget check, through
 * every layer, and leaves nothing half-done behind: the next analysis of the same text is exactly a fresh one.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { AnalysisCancelled, runCancellable } from "../../server/src/engine/cancellation";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { clearCaches } from "../../server/src/engine/caches";
import { clearAnalysisResults } from "../../server/src/engine/automata/modelAnalysis";
import { generateConfigText } from "../../bench/generate";

const SCHEMA_URI = "https://agent-sandbox.dev/schemas/agent-sandbox.schema.json";

function analysed(text: string): string {
  const result = checkConfigText(text, { analysis: true });
  return JSON.stringify({ findings: result.findings, skipped: result.skipped });
}

test("an analysis stopped at its k-th budget check throws AnalysisCancelled, and the next one is a fresh one's", () => {
  const text = generateConfigText(60, 11, SCHEMA_URI);
  clearCaches();
  const fresh = analysed(text);
  let stops = 0;
  for (const k of [1, 2, 3, 5, 8, 13, 21, 34, 55, 89]) {
    // Stopped at different depths: cold (nothing compiled) and warm (patterns compiled, results forgotten).
    if (k % 2 === 1) clearCaches();
    clearAnalysisResults();
    let asked = 0;
    try {
      runCancellable(() => ++asked >= k, () => checkConfigText(text, { analysis: true }));
    } catch (error) {
      assert.ok(error instanceof AnalysisCancelled, `k = ${k}: ${(error as Error).stack}`);
      stops++;
    }
    assert.equal(analysed(text), fresh, `after a stop at check ${k}`);
  }
  assert.ok(stops >= 5, `only ${stops} of the runs were stopped`);
});

test("outside runCancellable, and when the host never says stop, nothing changes", () => {
  const text = generateConfigText(20, 12, SCHEMA_URI);
  const plain = analysed(text);
  assert.equal(runCancellable(() => false, () => analysed(text)), plain);
  // The host's predicate is not left behind for the next analysis.
  assert.throws(() => runCancellable(() => true, () => (clearCaches(), analysed(text))), AnalysisCancelled);
  assert.equal(analysed(text), plain);
});
