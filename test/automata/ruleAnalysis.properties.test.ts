import { test } from "node:test";
import assert from "node:assert/strict";
import { toolArgumentFor } from "../../server/src/engine/automata/confirm";
import { ModelAnalysis } from "../../server/src/engine/automata/modelAnalysis";
import { deepagentsJs, deepagentsPy, OPERATIONS, type Runtime } from "../../server/src/engine/runtime";
import { configText, decisions, inputsOf, matchMatrix, modelOf, randomRules, rng, ruleMatches, topList, universe } from "./harness";

/**
 * Every claim of the rule analysis, brute-forced against the engine's own decision function
 * (permissions/ruleList.ts) over every canonical path of up to three segments of a small alphabet (dotfiles and `.`
 * segments included), for thousands of seeded random rule lists. Both ways of computing the answers are checked:
 * the walk over all rules at once, and the rule-by-rule questions used when that walk does not fit its budget.
 */

interface Stats {
  lists: number;
  verdicts: Record<string, number>;
  moves: number;
}

function checkList(runtime: Runtime, seed: number, stats: Stats, productBudget?: { milliseconds: number; states: number }): void {
  const r = rng(seed);
  const rules = randomRules(r, runtime.modes);
  const model = modelOf(configText(runtime, rules));
  const list = topList(model);
  const inputs = inputsOf(list);
  const paths = universe(runtime);
  const analysis = new ModelAnalysis(model, [runtime], productBudget ? { productBudget } : {});
  const answers = analysis.ruleList(list);
  const before = decisions(runtime, inputs, paths);
  const matrix = matchMatrix(runtime, inputs, paths);
  const matchesHere = (i: number, op: string, p: string) => matrix[i]!.has(`${op} ${p}`);
  const context = () => `seed ${seed} ${runtime.id}: ${JSON.stringify(rules)}`;
  stats.lists++;

  for (let i = 0; i < inputs.length; i++) {
    const result = answers.rule(i);
    const v = result.verdict;
    stats.verdicts[v.kind] = (stats.verdicts[v.kind] ?? 0) + 1;
    const ops = OPERATIONS.filter((op) => runtime.operationsCover(inputs[i]!.operations, op));
    const decidesInUniverse = ops.some((op) => paths.some((p) => before.get(`${op} ${p}`)!.ruleIndex === i));
    const without = decisions(runtime, inputs.filter((_, k) => k !== i), paths);
    const removalChangesUniverse = ops.some((op) => paths.some((p) => before.get(`${op} ${p}`)!.decision !== without.get(`${op} ${p}`)!.decision));
    const decide = (op: (typeof OPERATIONS)[number], p: string) => before.get(`${op} ${p}`) ?? decisions(runtime, inputs, [p]).get(`${op} ${p}`)!;
    const canonical = (p: string) => toolArgumentFor(runtime, p) !== undefined;

    switch (v.kind) {
      case "skipped":
        assert.fail(`${context()}: rule ${i} skipped: ${v.reason}`);
        break;
      case "matches-nothing":
        for (const op of ops) for (const p of paths) assert.ok(!matchesHere(i, op, p), `${context()}: rule ${i} said to match nothing, matches ${op} ${p}`);
        break;
      case "shadowed": {
        // A shadowed rule never decides a path…
        assert.ok(!decidesInUniverse, `${context()}: rule ${i} called shadowed but decides a path`);
        // …and its witness is one of its paths, decided first the other way by the rule named.
        const w = v.witness;
        const d = decide(w.operation, w.witness);
        assert.ok(canonical(w.witness) && ruleMatches(runtime, inputs[i]!, w.operation, w.witness), `${context()}: shadowed witness ${w.witness} not one of rule ${i}'s paths`);
        assert.equal(d.ruleIndex, w.ruleIndex, `${context()}: shadowed witness ${w.witness} decided by ${d.ruleIndex}, not ${w.ruleIndex}`);
        assert.notEqual(d.decision, result.decision, `${context()}: shadowed witness decided the same way`);
        // The reorder fix, when proved: outside the moved rule's paths nothing changes; inside, it decides.
        const target = answers.firstOverlappingEarlier(i);
        if (target !== undefined && answers.proveMove(i, target)) {
          stats.moves++;
          const moved = [...inputs];
          const [rule] = moved.splice(i, 1);
          moved.splice(target, 0, rule!);
          const after = decisions(runtime, moved, paths);
          for (const op of OPERATIONS) {
            for (const p of paths) {
              const key = `${op} ${p}`;
              if (matchesHere(i, op, p)) assert.equal(after.get(key)!.decision, result.decision, `${context()}: after moving rule ${i} above ${target}, ${key} not decided by it`);
              else assert.equal(after.get(key)!.decision, before.get(key)!.decision, `${context()}: moving rule ${i} above ${target} changed ${key}`);
            }
          }
        }
        break;
      }
      case "redundant": {
        // Removing it changes no decision.
        assert.ok(!removalChangesUniverse, `${context()}: rule ${i} called redundant but removing it changes a decision`);
        const w = v.witness;
        assert.ok(canonical(w.path) && ruleMatches(runtime, inputs[i]!, w.operation, w.path), `${context()}: redundant witness ${w.path} not one of rule ${i}'s paths`);
        break;
      }
      case "partially-shadowed":
      case "decides": {
        // Not flagged: it decides some path (its witness shows one), and removing it changes some decision.
        const own = result.operations.find((o) => o.decides !== undefined);
        assert.ok(own, `${context()}: rule ${i} (${v.kind}) has no path it decides`);
        assert.equal(decide(own.operation, own.decides!).ruleIndex, i, `${context()}: rule ${i} said to decide ${own.decides}`);
        const change = result.removalChange;
        assert.ok(change, `${context()}: rule ${i} (${v.kind}) has no removal witness`);
        const inputsWithout = inputs.filter((_, k) => k !== i);
        const after = decisions(runtime, inputsWithout, [change.path]).get(`${change.operation} ${change.path}`)!;
        assert.equal(decide(change.operation, change.path).decision, change.before, `${context()}: removal witness ${change.path}`);
        assert.equal(after.decision, change.after, `${context()}: removal witness ${change.path} after`);
        if (v.kind === "partially-shadowed") {
          const w = v.witness;
          const d = decide(w.operation, w.witness);
          assert.ok(ruleMatches(runtime, inputs[i]!, w.operation, w.witness) && d.ruleIndex === w.ruleIndex && d.decision !== result.decision, `${context()}: partial witness ${w.witness}`);
        } else {
          // No earlier rule decides any of its paths the other way (on the universe).
          for (const op of ops) {
            for (const p of paths) {
              const d = before.get(`${op} ${p}`)!;
              if (matchesHere(i, op, p) && d.ruleIndex >= 0 && d.ruleIndex < i) {
                assert.equal(d.decision, result.decision, `${context()}: rule ${i} unflagged but ${op} ${p} is taken the other way by rule ${d.ruleIndex}`);
              }
            }
          }
        }
        break;
      }
    }
    // Completeness on the universe: a rule that decides nothing here must not be said to decide "for sure" only
    // from outside it; conversely a rule that decides here is never shadowed (checked above), and every earlier
    // rule taking one of its paths here is listed.
    for (const op of ops) {
      const facts = result.operations.find((o) => o.operation === op);
      if (!facts) continue;
      for (const p of paths) {
        const d = before.get(`${op} ${p}`)!;
        if (matchesHere(i, op, p) && d.ruleIndex >= 0 && d.ruleIndex < i) {
          assert.ok(facts.takenBy.some((t) => t.ruleIndex === d.ruleIndex), `${context()}: rule ${d.ruleIndex} takes ${op} ${p} from rule ${i} but is not listed`);
        }
      }
      for (const t of facts.takenBy) {
        const d = decide(op, t.witness);
        assert.ok(ruleMatches(runtime, inputs[i]!, op, t.witness) && d.ruleIndex === t.ruleIndex, `${context()}: takenBy witness ${t.witness} for rule ${t.ruleIndex}`);
      }
      // Each earlier rule once, in list order (the messages name them from this list).
      const takers = facts.takenBy.map((t) => t.ruleIndex);
      assert.deepEqual(takers, [...new Set(takers)].sort((a, b) => a - b), `${context()}: takenBy lists each earlier rule once, in order`);
    }
  }
}

function run(runtime: Runtime, lists: number, seedBase: number, productBudget?: { milliseconds: number; states: number }): Stats {
  const stats: Stats = { lists: 0, verdicts: {}, moves: 0 };
  for (let k = 0; k < lists; k++) checkList(runtime, seedBase + k, stats, productBudget);
  return stats;
}

test("deepagents-js: every claim holds on every path of the universe (800 random lists)", () => {
  const stats = run(deepagentsJs, Number(process.env.JS_LISTS ?? 800), 1);
  // The generator must exercise every verdict, and the reorder fix.
  for (const kind of ["shadowed", "redundant", "partially-shadowed", "decides", "matches-nothing"]) assert.ok((stats.verdicts[kind] ?? 0) > 20, `too few ${kind}: ${JSON.stringify(stats)}`);
  assert.ok(stats.moves > 30, `too few reorder fixes: ${JSON.stringify(stats)}`);
});

test("deepagents-py: every claim holds on every path of the universe (400 random lists)", () => {
  const stats = run(deepagentsPy, Number(process.env.PY_LISTS ?? 400), 100_000);
  for (const kind of ["shadowed", "redundant", "partially-shadowed", "decides"]) assert.ok((stats.verdicts[kind] ?? 0) > 10, `too few ${kind}: ${JSON.stringify(stats)}`);
});

test("the rule-by-rule fallback gives claims that hold too (80 lists per runtime)", () => {
  const tiny = { milliseconds: 10_000, states: 1 };
  run(deepagentsJs, 80, 200_000, tiny);
  run(deepagentsPy, 80, 300_000, tiny);
});
