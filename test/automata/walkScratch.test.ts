import { test } from "node:test";
import assert from "node:assert/strict";
import { generateRules } from "../../bench/generate";
import { Budget, BudgetExceeded, DEFAULT_PRODUCT_BUDGET } from "../../server/src/engine/automata/budget";
import { realiseOutcomes } from "../../server/src/engine/automata/outcomes";
import { divergenceWalkInputs } from "./harness";

/**
 * exploreProduct keeps its tuple pool from one walk to the next (product.ts `spareTuplePool`): nothing a walk finds
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
