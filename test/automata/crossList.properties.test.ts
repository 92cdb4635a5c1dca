import { test } from "node:test";
import assert from "node:assert/strict";
import { pathEscalations } from "../../server/src/engine/automata/escalation";
import { ModelAnalysis } from "../../server/src/engine/automata/modelAnalysis";
import { allRuleLists } from "../../server/src/engine/config/model";
import { deepagentsJs, deepagentsPy, OPERATIONS, type Runtime } from "../../server/src/engine/runtime";
import { decisions, inputsOf, modelOf, randomRules, rng, universe, type RandomRule } from "./harness";

/**
 * runtime-divergence and the path half of subagent-escalation, brute-forced: over every path of the universe, each
 * difference found by the engine's decision function must have been reported (blamed on the same rule, or on the
 * same agent and operation), and each reported witness must show what the report says.
 */

function typedAsIs(runtime: Runtime, path: string): boolean {
  const c = runtime.canonicalToolPath(path, true);
  return c.ok && c.path === path;
}

test("runtime-divergence: reported exactly where deepagents-js and deepagents-py part ways (450 random lists)", () => {
  let reported = 0;
  for (let seed = 1; seed <= 450; seed++) {
    const r = rng(500_000 + seed);
    const primary = seed % 2 === 0 ? deepagentsJs : deepagentsPy;
    const other = primary === deepagentsJs ? deepagentsPy : deepagentsJs;
    const rules = randomRules(r, ["allow", "deny", "interrupt"]);
    const model = modelOf(JSON.stringify({ version: 1, runtime: primary.id, compatibleWith: [other.id], permissions: rules }));
    const list = allRuleLists(model)[0]!;
    const inputs = inputsOf(list);
    const analysis = new ModelAnalysis(model, [primary, other]);
    const found = analysis.divergences(list, other);
    reported += found.length;
    const context = `seed ${seed} ${primary.id}: ${JSON.stringify(rules)}`;
    // Soundness: every witness shows both decisions as reported.
    for (const d of found) {
      assert.ok(typedAsIs(primary, d.path) && typedAsIs(other, d.path), `${context}: witness ${d.path} is not taken as it is by both`);
      const a = decisions(primary, inputs, [d.path]).get(`${d.operation} ${d.path}`)!;
      const b = decisions(other, inputs, [d.path]).get(`${d.operation} ${d.path}`)!;
      assert.deepEqual([a.decision, a.ruleIndex, b.decision, b.ruleIndex], [d.primary.decision, d.primary.ruleIndex, d.other.decision, d.other.ruleIndex], `${context}: witness ${d.path}`);
      assert.notEqual(a.decision, b.decision);
      assert.equal(d.ruleIndex, Math.min(a.ruleIndex < 0 ? Infinity : a.ruleIndex, b.ruleIndex < 0 ? Infinity : b.ruleIndex));
    }
    // Completeness on the universe: every rule where the runtimes part ways on some path here is reported.
    const paths = universe(primary).filter((p) => typedAsIs(other, p) && typedAsIs(primary, p));
    const here = decisions(primary, inputs, paths);
    const there = decisions(other, inputs, paths);
    const blamed = new Set<number>();
    for (const op of OPERATIONS) {
      for (const p of paths) {
        const a = here.get(`${op} ${p}`)!;
        const b = there.get(`${op} ${p}`)!;
        if (a.decision !== b.decision) blamed.add(Math.min(a.ruleIndex < 0 ? Infinity : a.ruleIndex, b.ruleIndex < 0 ? Infinity : b.ruleIndex));
      }
    }
    for (const c of blamed) assert.ok(found.some((d) => d.ruleIndex === c), `${context}: the runtimes part ways at rule ${c} but it is not reported`);
  }
  assert.ok(reported > 220, `too few divergences exercised (${reported})`);
});

test("subagent-escalation (path half): reported exactly when the parent denies what the subagent does not (400 random configs)", () => {
  let reported = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const r = rng(700_000 + seed);
    const runtime = seed % 3 === 0 ? deepagentsPy : deepagentsJs;
    const parent = randomRules(r, ["allow", "deny"]);
    const childKind = r();
    const child: RandomRule[] | [] | null | undefined = childKind < 0.15 ? [] : childKind < 0.25 ? null : randomRules(r, ["allow", "deny"]);
    const subagent: Record<string, unknown> = { name: "helper", description: "d", systemPrompt: "s" };
    if (child !== undefined) subagent.permissions = child;
    const model = modelOf(JSON.stringify({ version: 1, runtime: runtime.id, permissions: parent, subagents: [subagent] }));
    const analysis = new ModelAnalysis(model, [runtime]);
    const found = pathEscalations(analysis).filter((e) => e.agent.name === "helper");
    reported += found.length;
    const context = `seed ${seed} ${runtime.id}: parent ${JSON.stringify(parent)} child ${JSON.stringify(child)}`;
    // JS: `null` inherits, so there is no escalation; Python: `null` means no rules at all (§6.1).
    const childRules = child === null ? (runtime === deepagentsJs ? parent : []) : child;
    const parentInputs = inputsOf(allRuleLists(model)[0]!);
    const childInputs = childRules.map((c) => ({ operations: c.operations, paths: c.paths, mode: c.mode }));
    for (const e of found) {
      const p = decisions(runtime, parentInputs, [e.path]).get(`${e.operation} ${e.path}`)!;
      const c = decisions(runtime, childInputs, [e.path]).get(`${e.operation} ${e.path}`)!;
      assert.equal(p.decision, "deny", `${context}: parent does not deny ${e.operation} ${e.path}`);
      assert.notEqual(c.decision, "deny", `${context}: child denies ${e.operation} ${e.path}`);
      assert.equal(p.ruleIndex, e.parentRule);
    }
    const paths = universe(runtime);
    const here = decisions(runtime, parentInputs, paths);
    const there = decisions(runtime, childInputs, paths);
    for (const op of OPERATIONS) {
      const escalates = paths.some((p) => here.get(`${op} ${p}`)!.decision === "deny" && there.get(`${op} ${p}`)!.decision !== "deny");
      if (escalates) assert.ok(found.some((e) => e.operation === op), `${context}: ${op} escalation missed`);
    }
  }
  assert.ok(reported > 120, `too few escalations exercised (${reported})`);
});
