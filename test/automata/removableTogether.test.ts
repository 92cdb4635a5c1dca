import { test } from "node:test";
import assert from "node:assert/strict";
import { generateRules } from "../../bench/generate";
import { Budget, DEFAULT_PRODUCT_BUDGET } from "../../server/src/engine/automata/budget";
import { canonicalPaths } from "../../server/src/engine/automata/languages";
import { ModelAnalysis } from "../../server/src/engine/automata/modelAnalysis";
import { ListReading, realiseOutcomes, removableTogether, type RealisedOutcome } from "../../server/src/engine/automata/outcomes";
import { allRuleLists } from "../../server/src/engine/config/model";
import { deepagentsJs, deepagentsPy } from "../../server/src/engine/runtime";
import { OPERATIONS, type Runtime } from "../../server/src/engine/runtime/runtime";
import { modelOf, randomRules, rng } from "./harness";

/**
 * `removableTogether` (the group of removals `check --fix` applies at once) reads, for each rule, only the
 * combinations it heads (the first rule still there), handed on to the next rule as rules are removed. That must keep
 * exactly the rules, in exactly the order, that asking every rule on every pass, about every combination it matches,
 * keeps: the reference below is that, written out plainly.
 */
function everyPass(reading: ListReading, outcomes: readonly RealisedOutcome[], candidates: readonly number[], shadowed: readonly number[]): number[] {
  if (candidates.length + shadowed.length <= 1) return [...candidates];
  if (OPERATIONS.some((op) => reading.unknownAfter(op) !== Infinity)) return candidates.slice(0, 1);
  const removed = new Set<number>();
  const kept: number[] = [];
  // The rule that decides combination k for op, the removed rules left out (-1: none, the default).
  const decider = (op: (typeof OPERATIONS)[number], k: number, without?: number): number => {
    const { start, rules } = reading.flatMatching(outcomes, op);
    for (let m = start[k]!; m < start[k + 1]!; m++) if (!removed.has(rules[m]!) && rules[m] !== without) return rules[m]!;
    return -1;
  };
  const removable = (c: number) =>
    OPERATIONS.every((op) => [...reading.outcomesMatching(outcomes, op, c)].every((k) => decider(op, k) !== c || reading.decisionOf(op, decider(op, k, c)) === reading.decisionOf(op, c)));
  const stillShadowed = (rule: number) => {
    const matched = OPERATIONS.flatMap((op) => [...reading.outcomesMatching(outcomes, op, rule)].map((k) => ({ op, k })));
    if (matched.some(({ op, k }) => decider(op, k) === rule)) return false;
    return matched.length === 0 || matched.some(({ op, k }) => reading.decisionOf(op, decider(op, k)) !== reading.decisionOf(op, rule));
  };
  let waiting = [...candidates];
  let asleep = [...shadowed];
  for (;;) {
    const turnedDown: number[] = [];
    for (const c of waiting) {
      if (removable(c)) {
        removed.add(c);
        kept.push(c);
      } else turnedDown.push(c);
    }
    const woken = asleep.filter((rule) => !stillShadowed(rule));
    if (turnedDown.length === waiting.length && woken.length === 0) break;
    asleep = asleep.filter((rule) => !woken.includes(rule));
    waiting = [...turnedDown, ...woken];
  }
  return kept;
}

/** Asserts the two agree on one list; returns how many rules they removed. */
function compare(runtime: Runtime, permissions: unknown, seed: number): number {
  const model = modelOf(JSON.stringify({ version: 1, runtime: runtime.id, permissions }));
  const list = allRuleLists(model)[0]!;
  const analysis = new ModelAnalysis(model, [runtime]);
  const { tracks, outcomes } = realiseOutcomes(analysis.space, [{ list, tables: analysis.tablesOf(list) }], [analysis.space.table(canonicalPaths(runtime))], new Budget(DEFAULT_PRODUCT_BUDGET));
  const reading = new ListReading(tracks[0]!);
  const r = rng(seed);
  // Candidates in a shuffled order, some rules held aside as "shadowed" (woken once the removals free them).
  const rules = list.rules.map((rule) => rule.index).sort(() => r() - 0.5);
  const aside = rules.filter(() => r() < 0.25);
  const candidates = rules.filter((i) => !aside.includes(i));
  const expected = everyPass(reading, outcomes, candidates, aside);
  assert.deepEqual(removableTogether(reading, outcomes, candidates, aside), expected, `${runtime.id}, seed ${seed}: ${JSON.stringify(permissions)}`);
  return expected.length;
}

test("removableTogether: the rules and order of asking every rule on every pass (200 random lists, both runtimes)", () => {
  let kept = 0;
  for (let seed = 1; seed <= 100; seed++) {
    for (const runtime of [deepagentsJs, deepagentsPy]) kept += compare(runtime, randomRules(rng(900_000 + seed), ["allow", "deny"]), seed);
  }
  assert.ok(kept > 50, `only ${kept} rules removed in all: the lists exercise too little`);
});

test("removableTogether: the same on benchmark-like lists of 20 to 120 rules, where removals free other rules", () => {
  let kept = 0;
  for (let seed = 1; seed <= 8; seed++) kept += compare(deepagentsJs, generateRules(20 + seed * 12, 300 + seed), seed);
  assert.ok(kept > 20, `only ${kept} rules removed in all`);
});
