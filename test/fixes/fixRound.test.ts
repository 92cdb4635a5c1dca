/**
 * Fix-all's rounds (`checkConfigText`'s `fixRound`) run only the checks that can offer a safe fix: every safe fix a
 * round offers is the full check's, edit for edit and group for group, so `check --fix` applies exactly what it
 * applied when every round was a full check; and the text it reports is checked as on its own (`checkAfterFixRounds`).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateConfigText } from "../../bench/generate";
import { checkAfterFixRounds, checkConfigText, type CheckOptions } from "../../server/src/engine/checkConfig";
import type { Finding } from "../../server/src/engine/diagnostics";
import { exactAnalysis } from "../../server/src/engine/analysisLoader";
import { applyAllSafeFixes } from "../../server/src/engine/fixes";
import { checkTestFixtures } from "../helpers/fixtureTexts";

/** Every safe fix, with what it edits and the group it goes in with. */
function safeFixes(findings: readonly Finding[]): string[] {
  return findings.flatMap((f) => (f.fixes ?? []).filter((x) => x.safe).map((x) => JSON.stringify([f.code, f.span, x.title, x.edits, x.provenOn ?? null, x.together ?? null])));
}

function configs(): { name: string; text: string }[] {
  const generated = generateConfigText(120, 7, "https://example.invalid/s.json");
  return [
    ...checkTestFixtures().map(({ file, text }, i) => ({ name: `${file} fixture ${i}`, text })),
    { name: "generated, with compatibleWith", text: generated },
    { name: "generated, one runtime", text: generated.replace(/^\s*"compatibleWith".*\n/m, "") },
  ];
}

test("a fix round offers exactly the full check's safe fixes", () => {
  let compared = 0;
  for (const { name, text } of configs()) {
    const full = safeFixes(checkConfigText(text, { analysis: true }).findings);
    const round = safeFixes(checkConfigText(text, { analysis: true, fixRound: true }).findings);
    assert.deepEqual(round, full, name);
    compared += full.length;
  }
  // The corpus has safe fixes to compare, rule removals among them.
  assert.ok(compared > 50, `${compared} safe fixes`);
});

test("fix-all with fix rounds reaches the same text, and the text is reported as a check of it alone", () => {
  const text = generateConfigText(120, 7, "https://example.invalid/s.json").replace(/^\s*"compatibleWith".*\n/m, "");
  const options: CheckOptions = { analysis: true };
  const full = applyAllSafeFixes(text, checkConfigText(text, options), (t) => checkConfigText(t, options));
  exactAnalysis().clearAnalysisResults();
  const roundOptions: CheckOptions = { ...options, fixRound: true };
  const lean = applyAllSafeFixes(text, checkConfigText(text, roundOptions), (t) => checkConfigText(t, roundOptions));
  assert.ok(full.applied.length > 5, `${full.applied.length} fixes applied`);
  assert.equal(lean.text, full.text);
  assert.deepEqual(lean.applied, full.applied);
  const reported = checkAfterFixRounds(lean.text, options);
  exactAnalysis().clearAnalysisResults();
  const alone = checkConfigText(lean.text, options);
  assert.deepEqual(reported.findings, alone.findings);
  assert.deepEqual(reported.skipped, alone.skipped);
});
