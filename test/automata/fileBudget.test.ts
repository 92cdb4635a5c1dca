import { test } from "node:test";
import assert from "node:assert/strict";
import { generateConfigText, generateLargeConfigText } from "../../bench/generate";
import { clearAnalysisResults, DEFAULT_FILE_LIMITS, ModelAnalysis, modelAnalysis } from "../../server/src/engine/automata/modelAnalysis";
import { clearCaches } from "../../server/src/engine/caches";
import { allRuleLists } from "../../server/src/engine/config/model";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import type { Finding } from "../../server/src/engine/diagnostics";

/**
 * The exact analysis of one file works within counted limits (DEFAULT_FILE_LIMITS: rules read, steps of work),
 * whatever the file holds, and says once per rule list what it left out. Counted, never timed: the same file gets
 * the same findings from a cold start and from warm caches.
 */

const ANALYSIS_CODES = new Set(["rule-shadowed", "rule-redundant", "rule-partially-shadowed", "runtime-divergence", "subagent-escalation"]);

function summary(findings: readonly Finding[]) {
  return findings.map((f) => [f.code, f.span.start, f.span.end, f.message, f.witness ?? null]);
}

test("a list too large to read whole is one skipped entry; the other lists are analysed within the file's work allowance", () => {
  // 3,000 rules checked against both runtimes (6,000 readings, over 2,500): the top-level list is not read, the two
  // subagents' lists (150 rules each) are.
  const text = generateConfigText(3000, 7, "https://example.invalid/schema.json");
  clearCaches();
  const first = checkConfigText(text, { analysis: true });
  const model = first.model!;
  const [top, ...subagents] = allRuleLists(model);
  const analysis = modelAnalysis(model);
  assert.equal(analysis.reads(top!), false);
  assert.ok(subagents.length >= 2 && subagents.every((l) => analysis.reads(l)));
  const aboutTop = first.skipped.filter((s) => s.span.start === top!.node.offset);
  assert.equal(aboutTop.length, 1, JSON.stringify(first.skipped.map((s) => s.what)));
  assert.equal(aboutTop[0]!.what, "the top-level permissions");
  assert.match(aboutTop[0]!.why, /reads at most 2,500 rules per file.*2,700 rules \(each read under 2 runtimes\)/);
  // The file is checked against deepagents-py too, so dotfiles-unprotected leaves the list out as well, said here.
  assert.deepEqual([...aboutTop[0]!.checks].sort(), [...ANALYSIS_CODES, "dotfiles-unprotected"].sort());
  // Nothing is said about the top-level list's rules, and the subagents' lists still get their findings.
  const inTop = (f: Finding) => f.span.start >= top!.node.offset && f.span.end <= top!.node.offset + top!.node.length;
  const analysed = first.findings.filter((f) => ANALYSIS_CODES.has(f.code) && f.code !== "subagent-escalation");
  assert.ok(analysed.length > 0);
  assert.equal(analysed.filter(inTop).length, 0);
  assert.ok(analysis.workDone > 0 && analysis.workDone <= DEFAULT_FILE_LIMITS.steps, `${analysis.workDone}`);

  // The same file again, from warm caches, and then from a cold start: the same findings and the same skipped list.
  const warm = checkConfigText(text, { analysis: true });
  clearCaches();
  const cold = checkConfigText(text, { analysis: true });
  for (const again of [warm, cold]) {
    assert.deepEqual(summary(again.findings), summary(first.findings));
    assert.deepEqual(again.skipped, first.skipped);
  }
});

test("the 3.9 MB file of 65,089 rules: its list is said once under skipped, and the analysis does no work on it", () => {
  const text = generateLargeConfigText(65_089, 65_089, "deepagents-js");
  const result = checkConfigText(text, { analysis: true });
  assert.ok(!result.findings.some((f) => f.code === "internal-error"), JSON.stringify(result.findings.find((f) => f.code === "internal-error")));
  // (The fast checks' own notes, e.g. dotfiles-unprotected's witness search stopping part way, are theirs.)
  const analysisNotes = result.skipped.filter((s) => s.checks.some((c) => ANALYSIS_CODES.has(c)));
  assert.deepEqual(analysisNotes.map((s) => s.what), ["the top-level permissions"]);
  assert.match(analysisNotes[0]!.why, /65,089 rules \(each read under 2 runtimes\)/);
  assert.equal(modelAnalysis(result.model!).workDone, 0);
});

test("when the work allowance runs out mid-list, the rules not reached are one skipped entry, and the count stops there", () => {
  // Rules whose patterns all overlap anywhere in the tree: the walk over all of them does not fit, and the rules are
  // asked about one by one until the allowance is spent.
  const rules = Array.from({ length: 160 }, (_, i) => {
    const path = [`/**/d${i}/**`, `/**/*.e${i}`, `/w/**/f${i}*`, `/**/x${i}?/*.{a,b}`][i % 4];
    return `{ "operations": ["read", "write"], "paths": [${JSON.stringify(path)}], "mode": "${i % 2 ? "deny" : "allow"}" }`;
  });
  const text = `{ "version": 1, "runtime": "deepagents-js", "permissions": [\n${rules.join(",\n")}\n] }`;
  const limits = { rules: 2_500, steps: 4_000_000 };
  const run = () => {
    const model = checkConfigText(text).model!;
    const analysis = new ModelAnalysis(model, [model.runtime], { fileLimits: limits, productBudget: { milliseconds: 60_000, states: 5_000 } });
    const list = model.permissions!;
    const answers = analysis.ruleList(list);
    const verdicts = list.rules.map((r) => answers.rule(r.index).verdict.kind);
    return { verdicts, skipped: analysis.skipped, work: analysis.workDone };
  };
  clearAnalysisResults();
  const first = run();
  assert.ok(first.verdicts.includes("skipped") && first.verdicts.some((v) => v !== "skipped"), first.verdicts.join());
  // Once the allowance is spent, every later rule is skipped: one entry for the run, saying why.
  const firstSkipped = first.verdicts.indexOf("skipped");
  assert.ok(first.verdicts.slice(firstSkipped).every((v) => v === "skipped"));
  assert.equal(first.skipped.length, 1, JSON.stringify(first.skipped));
  assert.equal(first.skipped[0]!.what, `rules ${firstSkipped} to 159 of the top-level permissions`);
  assert.match(first.skipped[0]!.why, /4,000,000 steps of work/);
  // The count stops at the allowance (give or take the one charge that crossed it: a state and the tables it steps).
  assert.ok(first.work > limits.steps && first.work < limits.steps * 1.01, `${first.work}`);
  clearCaches();
  assert.deepEqual(run(), first);
});

test("thousands of literal patterns do not evict the runtime's own automata (every rule check failed on such a file)", () => {
  // Brace patterns are matched by their literal text too in deepagents-js: each has a literal automaton besides its
  // regular expression's, and 4,100 of them filled the cache the canonical paths' automaton lived in.
  const paths = Array.from({ length: 4_100 }, (_, i) => JSON.stringify(`/p${i}/{a,b}`));
  const text = `{ "version": 1, "runtime": "deepagents-js", "permissions": [
    { "operations": ["read"], "paths": [${paths.join(", ")}], "mode": "deny" },
    { "operations": ["read"], "paths": ["/p7/a"], "mode": "allow" }
  ] }`;
  clearCaches();
  const model = checkConfigText(text).model!;
  // More pattern work than a file may do by default: the point is the cache, not the limits.
  const analysis = new ModelAnalysis(model, [model.runtime], { fileLimits: { rules: 2_500, steps: 200_000_000 } });
  const list = model.permissions!;
  assert.equal(analysis.reads(list), true);
  // Before, this threw "PathSpace: this automaton was not part of the alphabet" (an internal-error finding per check).
  const verdict = analysis.ruleList(list).rule(1).verdict;
  assert.equal(verdict.kind, "shadowed");
  assert.equal(verdict.kind === "shadowed" ? verdict.witness.witness : undefined, "/p7/a");
});

test("lists not read are said one by one, then as one entry for the rest", () => {
  const rule = (p: string) => `{ "operations": ["read"], "paths": ["${p}/**"], "mode": "deny" }, { "operations": ["read"], "paths": ["${p}/a"] }`;
  const subagents = Array.from({ length: 6 }, (_, i) => `{ "name": "s${i}", "description": "d", "permissions": [${rule(`/s${i}`)}] }`);
  const text = `{ "version": 1, "runtime": "deepagents-js", "permissions": [${rule("/top")}], "subagents": [${subagents.join(", ")}] }`;
  const model = checkConfigText(text).model!;
  clearAnalysisResults();
  // Room for four rules: the top-level list and the first subagent's.
  const analysis = new ModelAnalysis(model, [model.runtime], { fileLimits: { rules: 4, steps: DEFAULT_FILE_LIMITS.steps } });
  const lists = allRuleLists(model);
  assert.deepEqual(lists.map((l) => analysis.reads(l)), [true, true, false, false, false, false, false]);
  assert.deepEqual(analysis.skipped.map((s) => s.what), [
    'the permissions of subagent "s1"',
    'the permissions of subagent "s2"',
    'the permissions of subagent "s3"',
    '2 more rule lists, from the permissions of subagent "s4" on',
  ]);
  assert.match(analysis.skipped[0]!.why, /reads at most 4 rules per file.*this list's 2 rules would pass that/);
  // The lists read are analysed: rule 1 of the top-level list allows what rule 0 denies first.
  assert.equal(analysis.ruleList(lists[0]!).rule(1).verdict.kind, "shadowed");
  assert.equal(analysis.ruleList(lists[2]!).rule(1).verdict.kind, "skipped");
});
