import { test } from "node:test";
import assert from "node:assert/strict";
import { explainRuleOverlap, skippedAnalyses } from "../../server/src/engine/automata";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { config } from "../helpers/checkFixture";

/** The APIs `explain`, the hovers and `check --format json` use. */

test("explainRuleOverlap: which earlier rules take which of a rule's paths first, with confirmed witnesses", () => {
  const text = config(`"permissions": [
    { "operations": ["read", "write"], "paths": ["/workspace/.env"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/workspace/public/**"], "mode": "allow" },
    { "operations": ["read", "write"], "paths": ["/workspace/**"], "mode": "deny" }
  ]`);
  const model = checkConfigText(text, { analysis: true }).model!;
  const overlap = explainRuleOverlap(model, model.permissions!, 2);
  assert.equal(overlap.verdict, "partially-shadowed");
  assert.equal(overlap.decision, "deny");
  const read = overlap.operations.find((o) => o.operation === "read")!;
  assert.deepEqual(read.takenFirstBy.map((t) => [t.ruleIndex, t.decision, t.witness]), [
    [0, "deny", "/workspace/.env"],
    [1, "allow", "/workspace/public"],
  ]);
  assert.equal(read.decides, "/workspace");
  const write = overlap.operations.find((o) => o.operation === "write")!;
  assert.deepEqual(write.takenFirstBy.map((t) => t.ruleIndex), [0]);
  assert.equal(
    overlap.summary,
    "Rule 2 has part of its paths decided first, the other way, by earlier rules in deepagents-js 1.14.1. read: rule 0 takes `/workspace/.env` first (deny); rule 1 takes `/workspace/public` first (allow); it decides e.g. `/workspace`. write: rule 0 takes `/workspace/.env` first (deny); it decides e.g. `/workspace`.",
  );
  // Works without a prior check run too (the analysis is built on demand).
  const fresh = checkConfigText(text).model!;
  assert.equal(explainRuleOverlap(fresh, fresh.permissions!, 1).verdict, "decides");
  // Rule 0 denies /workspace/.env, which rule 2 would deny anyway.
  assert.equal(explainRuleOverlap(fresh, fresh.permissions!, 0).verdict, "redundant");
});

test("skippedAnalyses: what was not analysed and why, for check --format json; nothing false is reported", () => {
  // picomatch passes a lookbehind through: that pattern has no exact automaton here.
  const text = config(`"permissions": [
    { "operations": ["read"], "paths": ["/a/(?<=a)b"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/a/**"], "mode": "allow" },
    { "operations": ["read"], "paths": ["/a/b"], "mode": "deny" }
  ]`);
  const result = checkConfigText(text, { analysis: true });
  const codes = result.findings.map((f) => f.code);
  assert.ok(!codes.includes("rule-shadowed") && !codes.includes("rule-redundant") && !codes.includes("rule-partially-shadowed"));
  const skipped = skippedAnalyses(result.model!);
  // Rules 1 and 2 are skipped for the same reason (rule 0's pattern): one entry.
  assert.deepEqual(skipped.map((s) => s.what), ["rule 0 of the top-level permissions", "rules 1 and 2 of the top-level permissions"]);
  assert.match(skipped[0]!.why, /^its pattern "\/a\/\(\?<=a\)b" was not analysed: the regular expression contains a lookbehind other than `\^`$/);
  assert.match(skipped[1]!.why, /^rule 0's pattern "\/a\/\(\?<=a\)b" was not analysed/);
  assert.deepEqual(skipped[0]!.checks, ["rule-shadowed", "rule-redundant", "rule-partially-shadowed"]);
  assert.ok(skipped[0]!.span.end > skipped[0]!.span.start);
  // A config with nothing unusual skips nothing.
  assert.deepEqual(skippedAnalyses(checkConfigText(config(`"permissions": [{ "operations": ["read"], "paths": ["/a/**"], "mode": "deny" }]`), { analysis: true }).model!), []);
});

test("a walk that only asks who decides drops rules that cannot, and finds the same deciders as the full walk", async () => {
  const { realiseOutcomes, ListReading } = await import("../../server/src/engine/automata/outcomes");
  const { ModelAnalysis } = await import("../../server/src/engine/automata/modelAnalysis");
  const { Budget, DEFAULT_PRODUCT_BUDGET } = await import("../../server/src/engine/automata/budget");
  const { asTypedPaths } = await import("../../server/src/engine/automata/languages");
  const { deepagentsJs, deepagentsPy } = await import("../../server/src/engine/runtime");
  const { OPERATIONS } = await import("../../server/src/engine/runtime/runtime");
  // Inside /w/a/ the three `**` rules accept the same continuations: only the first can decide there.
  const text = config(`"compatibleWith": ["deepagents-py"], "permissions": [
    { "operations": ["read"], "paths": ["/w/**"], "mode": "allow" },
    { "operations": ["read", "write"], "paths": ["/w/a/**", "/**/*.pem"], "mode": "deny" },
    { "operations": ["write"], "paths": ["/w/*/**"], "mode": "deny" },
    { "operations": ["read", "write"], "paths": ["/w/a/b/**", "/w/.env"], "mode": "allow" }
  ]`);
  const model = checkConfigText(text).model!;
  const analysis = new ModelAnalysis(model, [deepagentsJs, deepagentsPy]);
  const list = model.permissions!;
  const lists = [{ list, tables: analysis.tablesOf(list, deepagentsJs) }, { list, tables: analysis.tablesOf(list, deepagentsPy) }];
  const required = [analysis.space.table(asTypedPaths(deepagentsJs)), analysis.space.table(asTypedPaths(deepagentsPy))];
  const full = realiseOutcomes(analysis.space, lists, required, new Budget(DEFAULT_PRODUCT_BUDGET));
  const reduced = realiseOutcomes(analysis.space, lists, required, new Budget(DEFAULT_PRODUCT_BUDGET), true);
  const deciders = (r: typeof full) => {
    const readings = r.tracks.map((t) => new ListReading(t));
    return new Set(r.outcomes.flatMap((o) => OPERATIONS.map((op) => readings.map((reading) => reading.decider(r.outcomes, op, o.id)?.index).join("/") + ` ${op}`)));
  };
  assert.ok(reduced.outcomes.length < full.outcomes.length, `${reduced.outcomes.length} outcomes, full walk ${full.outcomes.length}`);
  assert.deepEqual([...deciders(reduced)].sort(), [...deciders(full)].sort());
});

test("witness candidates: short paths of the config's own names, none longer than a file name can be", async () => {
  const { witnessCandidates } = await import("../../server/src/engine/automata");
  const { buildModel } = await import("../../server/src/engine/config/model");
  const { parseJsonc } = await import("../../server/src/engine/config/parse");
  const long = "n".repeat(256);
  const text = JSON.stringify({
    version: 1,
    runtime: "deepagents-js",
    permissions: [
      { operations: ["read"], paths: [`/workspace/${long}/x`, "/workspace/src/**"], mode: "deny" },
      { operations: ["read"], paths: [`/workspace/${"m".repeat(255)}/y`], mode: "allow" },
    ],
  });
  const candidates = witnessCandidates({ model: buildModel(parseJsonc(text).root!) });
  assert.ok(candidates.includes("/workspace/src"), candidates.slice(0, 10).join(", "));
  // A 255-character name is a name; one of 256 is not (a folder under it neither).
  assert.ok(candidates.some((c) => c.includes("m".repeat(255))));
  assert.ok(candidates.every((c) => !c.includes(long)), "no candidate holds the 256-character segment");
});

// A 550-rule list of overlapping rules, too big for the walk over all rules at once, was
// analysed rule by rule for 217 s. Each rule's questions now read the clock often enough for its own limit to hold,
// and the list's rules share one limit; what is skipped is said once per run of rules.
test("a list analysed rule by rule stops at its list's time limit, and says so once for the rules it did not reach", async () => {
  const { ModelAnalysis, coalesceRuleRuns } = await import("../../server/src/engine/automata/modelAnalysis");
  const { RuleListAnalysis } = await import("../../server/src/engine/automata/ruleListAnalysis");
  const { DEFAULT_RULE_BUDGET } = await import("../../server/src/engine/automata/budget");
  const { deepagentsJs } = await import("../../server/src/engine/runtime");
  const text = config(`"permissions": [
    { "operations": ["read"], "paths": ["/w/**"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/w/a/**"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/w/b/**"], "mode": "allow" }
  ]`);
  const model = checkConfigText(text).model!;
  const analysis = new ModelAnalysis(model, [deepagentsJs]);
  const tables = analysis.tablesOf(model.permissions!, deepagentsJs);
  // A list with time left analyses every rule; one with none left analyses none and says why.
  assert.deepEqual(new RuleListAnalysis(tables).all().map((r) => r.verdict.kind), ["decides", "redundant", "shadowed"]);
  const spent = new RuleListAnalysis(tables, DEFAULT_RULE_BUDGET, -1);
  assert.deepEqual(spent.all().map((r) => r.verdict.kind), ["skipped", "skipped", "skipped"]);
  assert.deepEqual(spent.skipped.map((s) => s.reason), Array(3).fill("the analysis of this list had used its -1 ms before reaching it"));
  // Consecutive rules skipped for one reason by the same checks read as one entry; a different reason, list or gap
  // starts another.
  const entry = (what: string, why = "out of time", start = 0) => ({ checks: ["rule-shadowed"], what, why, span: { start, end: start + 5 } });
  const merged = coalesceRuleRuns([
    entry("rule 3 of the top-level permissions", "out of time", 10), entry("rule 4 of the top-level permissions", "out of time", 20), entry("rule 5 of the top-level permissions", "out of time", 30),
    entry("rule 6 of the top-level permissions", "too big", 40), entry("rule 8 of the top-level permissions", "too big", 50), entry("the top-level permissions", "too big", 60),
    entry("rule 1 of subagent \"a\"'s permissions", "too big", 70), entry("rule 2 of subagent \"a\"'s permissions", "too big", 80),
  ]);
  assert.deepEqual(merged.map((s) => [s.what, s.why, s.span.start, s.span.end]), [
    ["rules 3 to 5 of the top-level permissions", "out of time", 10, 35],
    ["rule 6 of the top-level permissions", "too big", 40, 45],
    ["rule 8 of the top-level permissions", "too big", 50, 55],
    ["the top-level permissions", "too big", 60, 65],
    ["rules 1 and 2 of subagent \"a\"'s permissions", "too big", 70, 85],
  ]);
});

test("a search over many tables reads the clock between budget counts: its time limit holds however wide the tuple", async () => {
  const { ModelAnalysis } = await import("../../server/src/engine/automata/modelAnalysis");
  const { Budget, BudgetExceeded } = await import("../../server/src/engine/automata/budget");
  const { deepagentsJs } = await import("../../server/src/engine/runtime");
  const rules = Array.from({ length: 60 }, (_, k) => `{ "operations": ["read"], "paths": ["/w/d${k}/**", "/w/**/*.e${k}"], "mode": "${k % 2 ? "deny" : "allow"}" }`).join(",\n    ");
  const model = checkConfigText(config(`"permissions": [\n    ${rules}\n  ]`)).model!;
  const analysis = new ModelAnalysis(model, [deepagentsJs]);
  const t = analysis.tablesOf(model.permissions!, deepagentsJs);
  const rs = t.forOperation("read");
  // No path is in every rule's language and outside none: the search explores until its budget stops it.
  const conditions = [t.canonical, ...rs.map((r) => t.group(r, true)), ...t.none(rs, "")];
  let reads = 0;
  // A clock that has passed the deadline from its second reading on: only a clock read stops the search.
  const budget = new Budget({ milliseconds: 1000, states: 1e9 }, () => (reads++ === 0 ? 0 : 10_000));
  let states = 0;
  const spend = budget.spend.bind(budget);
  budget.spend = (n = 1) => {
    states += n;
    spend(n);
  };
  assert.throws(() => t.space.find(conditions, budget), (e: unknown) => e instanceof BudgetExceeded && e.what === "time");
  // The budget alone looks at the clock every 4,096 states; here each state is a step per table per class.
  assert.ok(states < 4096, `${states} states before the clock was read`);
});
