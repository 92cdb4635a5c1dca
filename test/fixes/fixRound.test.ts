/**
 * Fix-all's rounds (`checkConfigText`'s `fixRound`) run only the checks that can offer a safe fix, and prove nothing
 * on a rule list another safe fix of the round changes: every safe fix a round offers is the full check's, edit for
 * edit and group for group, less those the round would hold back, so `check --fix` applies exactly what it applied
 * when every round was a full check; and the text it reports is checked as on its own (`checkAfterFixRounds`).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateConfigText } from "../../bench/generate";
import { checkAfterFixRounds, checkConfigText, type CheckOptions } from "../../server/src/engine/checkConfig";
import type { Finding } from "../../server/src/engine/diagnostics";
import { exactAnalysis } from "../../server/src/engine/analysisLoader";
import { applyAllSafeFixes, applySafeFixes, listsHeldBack } from "../../server/src/engine/fixes";
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

test("a fix round offers exactly the full check's safe fixes, but, when another fix changes a list, none proved on a list", () => {
  let compared = 0;
  let heldBack = 0;
  for (const { name, text } of configs()) {
    const fullFindings = checkConfigText(text, { analysis: true }).findings;
    const roundFindings = checkConfigText(text, { analysis: true, fixRound: true }).findings;
    // The lists fix-all leaves for the next round: a safe fix not proved on a list edits them.
    const proofLists = fullFindings.flatMap((f) => f.fixes?.find((x) => x.safe)?.provenOn ?? []);
    const held = listsHeldBack(fullFindings, proofLists).map((s) => `${s.start}:${s.end}`);
    // With a list held back the next round reads every list (one walk over all of them): this one proves none.
    const kept = fullFindings.filter((f) => held.length === 0 || !f.fixes?.find((x) => x.safe)?.provenOn);
    assert.deepEqual(safeFixes(roundFindings), safeFixes(kept), name);
    // And fix-all's round applies the very same edits, in the same order, either way.
    const applied = (findings: readonly Finding[]) => {
      const { text: fixed, applied } = applySafeFixes(text, findings);
      return { fixed, applied };
    };
    assert.deepEqual(applied(roundFindings), applied(kept), name);
    compared += safeFixes(kept).length;
    heldBack += safeFixes(fullFindings).length - safeFixes(kept).length;
  }
  // The corpus has safe fixes to compare, rule removals among them, and proofs a round holds back.
  assert.ok(compared > 50, `${compared} safe fixes`);
  assert.ok(heldBack > 0, `${heldBack} held back`);
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

test("fix-all whose last round's check is the full one (finalCheck): the same text and fixes, the same report", (t) => {
  const options: CheckOptions = { analysis: true };
  const roundOptions: CheckOptions = { ...options, fixRound: true };
  let finalChecked = 0;
  let wentOn = 0;
  for (const { name, text } of configs()) {
    exactAnalysis().clearAnalysisResults();
    const rounds = applyAllSafeFixes(text, checkConfigText(text, roundOptions), (t) => checkConfigText(t, roundOptions));
    exactAnalysis().clearAnalysisResults();
    let fullChecks = 0;
    const merged = applyAllSafeFixes(text, checkConfigText(text, roundOptions), (t) => checkConfigText(t, roundOptions), undefined, undefined, (t) => {
      fullChecks++;
      return checkAfterFixRounds(t, options);
    });
    assert.equal(merged.text, rounds.text, name);
    assert.deepEqual(merged.applied, rounds.applied, name);
    assert.equal(merged.complete, rounds.complete, name);
    if (!merged.finalChecked) continue;
    finalChecked++;
    // A full check that still offered safe fixes: the rounds went on from it.
    if (fullChecks > 1) wentOn++;
    exactAnalysis().clearAnalysisResults();
    const alone = checkConfigText(merged.text, options);
    assert.deepEqual(merged.result.findings, alone.findings, name);
    assert.deepEqual(merged.result.skipped, alone.skipped, name);
  }
  t.diagnostic(`${finalChecked} fixed points reached with the full check (${wentOn} after a full check that offered more)`);
  assert.ok(finalChecked > 20, `${finalChecked} fixed points reached with the full check`);
});

test("fix-all's full check that still offers safe fixes goes on from them; a round that held lists back is not the last", () => {
  type Result = { findings: Finding[]; heldBack?: number; by: string };
  const upper = (text: string, at: number): Finding => ({
    code: "schema", severity: "error", message: "Lower case.", span: { start: at, end: at + 1 },
    fixes: [{ title: "Upper case", safe: true, edits: [{ span: { start: at, end: at + 1 }, newText: text[at]!.toUpperCase() }] }],
  });
  // Each check offers to upper-case the first lower-case letter: one fix a round, each round's fix making the next.
  const check = (by: string) => (text: string): Result => {
    const at = text.search(/[a-z]/);
    return { findings: at < 0 ? [] : [upper(text, at)], by };
  };
  const calls: string[] = [];
  const logged = (f: (t: string) => Result) => (t: string) => {
    const r = f(t);
    calls.push(r.by);
    return r;
  };
  const all = applyAllSafeFixes("abc", check("round")("abc"), logged(check("round")), undefined, undefined, logged(check("full")));
  assert.equal(all.text, "ABC");
  assert.deepEqual(all.applied.map((a) => a.did), ["Upper case", "Upper case", "Upper case"]);
  assert.equal(all.complete, true);
  assert.equal(all.finalChecked, true);
  // No fix left behind: each round's text is checked in full, which offers the next fix.
  assert.deepEqual(calls, ["full", "full", "full"]);
  // A round whose check held a list back: the next check is a round's.
  calls.length = 0;
  const held = applyAllSafeFixes("ab", { ...check("round")("ab"), heldBack: 1 }, logged(check("round")), undefined, undefined, logged(check("full")));
  assert.equal(held.text, "AB");
  assert.deepEqual(calls, ["round", "full"]);
});
