import { test } from "node:test";
import assert from "node:assert/strict";
import { generateRules } from "../../bench/generate";
import { Budget, DEFAULT_PRODUCT_BUDGET } from "../../server/src/engine/automata/budget";
import { ListReading, realiseOutcomes } from "../../server/src/engine/automata/outcomes";
import type { WalkRepresentation } from "../../server/src/engine/automata/product";
import { OPERATIONS } from "../../server/src/engine/runtime/runtime";
import { divergenceWalkInputs, randomRules, rng } from "./harness";

/**
 * The walk that only asks who decides (runtime-divergence) drops tables whose rules cannot decide, grouping states
 * by residual language (automata/walk/deciderReduction.ts: sketches checked to be a bisimulation, exact ids otherwise, and states whose
 * sketch no other state of the same list and operation shares left out of the grouping). Whatever it drops, every
 * combination of deciders the full walk finds must be found, and no other.
 */
function decidersOf(rulesJson: string, representation?: WalkRepresentation): { full: string[]; reduced: string[]; outcomes: [number, number] } {
  const { analysis, lists, required } = divergenceWalkInputs(JSON.parse(rulesJson));
  const full = realiseOutcomes(analysis.space, lists, required, new Budget(DEFAULT_PRODUCT_BUDGET), false, representation);
  const reduced = realiseOutcomes(analysis.space, lists, required, new Budget(DEFAULT_PRODUCT_BUDGET), true, representation);
  const deciders = (r: typeof full) => {
    const readings = r.tracks.map((t) => new ListReading(t));
    const found = new Set(r.outcomes.flatMap((o) => OPERATIONS.map((op) => `${op} ${readings.map((reading) => reading.decider(r.outcomes, op, o.id)?.index).join("/")}`)));
    return [...found].sort();
  };
  return { full: deciders(full), reduced: deciders(reduced), outcomes: [full.outcomes.length, reduced.outcomes.length] };
}

test("decider walk: the same combinations of deciders as the full walk (300 random lists)", () => {
  for (let seed = 1; seed <= 300; seed++) {
    const rules = JSON.stringify(randomRules(rng(700_000 + seed), ["allow", "deny", "interrupt"]));
    const { full, reduced } = decidersOf(rules);
    assert.deepEqual(reduced, full, `seed ${seed}: ${rules}`);
  }
});

test("decider walk: the same combinations of deciders as the full walk (benchmark-like lists of 12 to 40 rules, where many rules share futures)", () => {
  let dropped = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const rules = JSON.stringify(generateRules(12 + ((seed * 7) % 29), seed));
    const { full, reduced, outcomes } = decidersOf(rules);
    assert.deepEqual(reduced, full, `seed ${seed}: ${rules}`);
    if (outcomes[1] < outcomes[0]) dropped++;
  }
  // The reduction did something on these lists (else the test would not exercise it).
  assert.ok(dropped > 0, "no list had a table dropped");
});

test("decider walk: exact residual ids (the fallback when sketches fail their check) drop exactly what checked sketches do", () => {
  for (let seed = 1; seed <= 12; seed++) {
    const rules = JSON.stringify(generateRules(12 + ((seed * 5) % 29), 100 + seed));
    const sketched = decidersOf(rules);
    const exact = decidersOf(rules, { exactResidualIds: true });
    assert.deepEqual(exact.reduced, sketched.reduced, `seed ${seed}: ${rules}`);
    assert.deepEqual(exact.outcomes, sketched.outcomes, `seed ${seed}: outcome counts`);
  }
});
