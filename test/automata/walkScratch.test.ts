import { test } from "node:test";
import assert from "node:assert/strict";
import { generateRules } from "../../bench/generate";
import { Budget, BudgetExceeded, DEFAULT_PRODUCT_BUDGET } from "../../server/src/engine/automata/budget";
import { realiseOutcomes } from "../../server/src/engine/automata/outcomes";
import type { WalkRepresentation } from "../../server/src/engine/automata/product";
import { divergenceWalkInputs } from "./harness";

/**
 * exploreProduct keeps its tuple pool from one walk to the next (walk/tupleIndex.ts `TupleIndex.take`): nothing a walk finds
 * may depend on what an earlier walk left in it, nor on an earlier walk having stopped half-way (budget).
 */
function walk(ruleCount: number, seed: number, budget = DEFAULT_PRODUCT_BUDGET): string[] {
  const { analysis, lists, required } = divergenceWalkInputs(generateRules(ruleCount, seed));
  const { outcomes } = realiseOutcomes(analysis.space, lists, required, new Budget(budget), true);
  return outcomes.map((o) => `${o.matched.join(",")} ${o.rank} ${o.path}`);
}

test("walk scratch: a walk finds the same outcomes and witnesses after bigger walks and after one stopped by its budget", () => {
  const small = walk(8, 41);
  assert.ok(small.length > 1, "the small walk found something to compare");
  const big = walk(40, 42);
  assert.ok(big.length > small.length, "the second walk is bigger (it fills the pool further)");
  assert.deepEqual(walk(8, 41), small);
  assert.throws(() => walk(40, 43, { milliseconds: 60_000, states: 500 }), BudgetExceeded);
  assert.deepEqual(walk(8, 41), small);
  assert.deepEqual(walk(40, 42), big);
});

/** Both walks of a generated rule list (one list's own, and the divergence walk of both runtimes), as text. */
function walkBoth(ruleCount: number, seed: number, representation?: WalkRepresentation): string[] {
  const { analysis, lists, required } = divergenceWalkInputs(generateRules(ruleCount, seed));
  const primary = realiseOutcomes(analysis.space, lists.slice(0, 1), required, new Budget(DEFAULT_PRODUCT_BUDGET), false, representation).outcomes;
  const divergence = realiseOutcomes(analysis.space, lists, required, new Budget(DEFAULT_PRODUCT_BUDGET), true, representation).outcomes;
  return [...primary, ...divergence].map((o) => `${o.matched.join(",")} ${o.rank} ${o.path}`);
}

/**
 * exploreProduct stores a tuple as parts (product.ts `PART_TABLES` tables each, `WalkRepresentation.partTables`, successors worked out once per part
 * and column): a representation only. Every part size, from one table per part (the state-by-state walk) to one
 * part for all, must find the same outcomes, in the same order, with the same witnesses; with one table per part the
 * walk numbers thousands of parts, so the part arrays grow several times on the way.
 */
test("walk parts: the outcomes and witnesses do not depend on how many tables a part holds", () => {
  for (const [ruleCount, seed] of [[12, 7], [120, 8]] as const) {
    const reference = walkBoth(ruleCount, seed);
    assert.ok(reference.length > 20, `the ${ruleCount}-rule walks find outcomes to compare (${reference.length})`);
    for (const size of [1, 2, 5, 64, 100_000]) {
      assert.deepEqual(walkBoth(ruleCount, seed, { partTables: size }), reference, `${ruleCount} rules, ${size} tables per part`);
    }
  }
});

/**
 * exploreProduct puts the tables in the order of the literal text they read first (walk/stateSpace.ts `literalLead`), so
 * that tables about one folder share parts, and tries a tuple's successors in the alphabet's order: so the walk,
 * its outcomes, their order and their witnesses, must not depend on the order of the tables at all. Kept in rule
 * order, or in the reverse, the same walks must come out.
 */
test("walk order: the outcomes and witnesses do not depend on the order of the tables", () => {
  for (const [ruleCount, seed] of [[12, 9], [60, 10], [150, 11]] as const) {
    const reference = walkBoth(ruleCount, seed);
    assert.ok(reference.length > 20, `the ${ruleCount}-rule walks find outcomes to compare (${reference.length})`);
    for (const order of ["rules", "reversed"] as const) {
      assert.deepEqual(walkBoth(ruleCount, seed, { tableOrder: order }), reference, `${ruleCount} rules, tables in ${order} order`);
    }
  }
});

