import { OPERATIONS, type Operation, type Runtime } from "../runtime/runtime";
import { Budget, BudgetExceeded, DEFAULT_RULE_BUDGET, type BudgetLimits } from "./budget";
import { sharedCharacters } from "./languages";
import type { Decision, RuleForOperation, RuleTables } from "./ruleTables";
import type { SkipNote } from "./ruleListAnalysis";
import { prefixesCompatible } from "./space";
import type { Condition } from "./tables";

const CHECKS = ["runtime-divergence"];

/** A path two runtimes decide differently under the same rules, blamed on the first rule where they part ways. */
export interface Divergence {
  /** The first rule (in list order) that one runtime applies to the path and the other does not, or applies differently. */
  readonly ruleIndex: number;
  readonly operation: Operation;
  readonly path: string;
  readonly primary: { readonly runtime: Runtime; readonly decision: Decision; readonly ruleIndex: number };
  readonly other: { readonly runtime: Runtime; readonly decision: Decision; readonly ruleIndex: number };
}

/**
 * Every rule at which `primary` and `other` first part ways on some path whose decision then differs, with one
 * witness each, over the paths both runtimes take as they are (canonical in both, no surrogates: the runtimes read
 * characters differently, UTF-16 units vs code points, and the two readings agree exactly there).
 */
export function divergences(primary: RuleTables, other: RuleTables, limits: BudgetLimits = DEFAULT_RULE_BUDGET): { found: Divergence[]; skipped: SkipNote[] } {
  const found: Divergence[] = [];
  const skipped: SkipNote[] = [];
  const space = primary.space;
  const universe: Condition[] = [primary.canonical, other.canonical, { any: [space.table(sharedCharacters())], want: true }];
  const blamed = new Set<number>();
  for (const op of OPERATIONS) {
    const one = primary.forOperation(op);
    const two = other.forOperation(op);
    const indices = [...new Set([...one.map((r) => r.index), ...two.map((r) => r.index)])].sort((a, b) => a - b);
    for (const c of indices) {
      if (blamed.has(c)) continue;
      const a = one.find((r) => r.index === c);
      const b = two.find((r) => r.index === c);
      const unknown = [...one, ...two].find((r) => r.index <= c && r.unknown);
      if (unknown) {
        skipped.push({ ruleIndex: c, reason: `rules from ${unknown.index} on were not compared across runtimes for ${op}: pattern ${JSON.stringify(unknown.unknown!.pattern)} was not analysed (${unknown.unknown!.reason})`, checks: CHECKS });
        break;
      }
      const budget = new Budget(limits);
      try {
        const found1 = divergenceAt(op, c, a, b, one, two, primary, other, universe, budget);
        if (found1) {
          found.push(found1);
          blamed.add(c);
        }
      } catch (error) {
        if (!(error instanceof BudgetExceeded)) throw error;
        skipped.push({ ruleIndex: c, reason: `comparing ${primary.runtime.label} with ${other.runtime.label} for ${op} ${error.message}`, checks: CHECKS });
      }
    }
  }
  return { found: found.sort((x, y) => x.ruleIndex - y.ruleIndex), skipped };
}

function divergenceAt(
  op: Operation,
  c: number,
  a: RuleForOperation | undefined,
  b: RuleForOperation | undefined,
  one: readonly RuleForOperation[],
  two: readonly RuleForOperation[],
  primary: RuleTables,
  other: RuleTables,
  universe: readonly Condition[],
  budget: Budget,
): Divergence | undefined {
  const space = primary.space;
  // Paths no earlier rule matches in either runtime (an earlier match in both decides alike, in one is blamed there).
  // Only rules that can share a path with one starting with `prefix` need saying so.
  const fresh = (prefix: string): Condition[] => [
    ...universe,
    ...primary.none(one.filter((r) => r.index < c), prefix),
    ...other.none(two.filter((r) => r.index < c), prefix),
  ];
  const make = (path: string, d1: Decision, r1: number, d2: Decision, r2: number): Divergence => ({
    ruleIndex: c,
    operation: op,
    path,
    primary: { runtime: primary.runtime, decision: d1, ruleIndex: r1 },
    other: { runtime: other.runtime, decision: d2, ruleIndex: r2 },
  });
  // Both apply rule c, but read its mode differently (`interrupt` exists only in deepagents-py).
  if (a && b && a.decision !== b.decision) {
    const path = space.witness([...fresh(a.prefix), primary.group(a, true), other.group(b, true)], budget, primary.alphabet);
    if (path !== undefined) return make(path, a.decision, c, b.decision, c);
  }
  // One runtime applies rule c, the other goes on to a later rule (or the default) that decides otherwise.
  const oneSided = (
    here: RuleForOperation,
    hereTables: RuleTables,
    there: RuleForOperation | undefined,
    thereTables: RuleTables,
    thereRules: readonly RuleForOperation[],
  ): { path: string; thereDecision: Decision; thereRule: number } | undefined => {
    const base = [...fresh(here.prefix), hereTables.group(here, true), ...(there ? [thereTables.group(there, false)] : [])];
    if (!space.exists(base, budget)) return undefined;
    const later = thereRules.filter((r) => r.index > c && (r.unknown || prefixesCompatible(r.prefix, here.prefix)));
    for (let k = 0; k < later.length; k++) {
      const r = later[k]!;
      if (r.unknown) return undefined;
      if (r.decision === here.decision) continue;
      const path = space.witness([...base, thereTables.group(r, true), ...later.slice(0, k).map((l) => thereTables.group(l, false))], budget, primary.alphabet);
      if (path !== undefined) return { path, thereDecision: r.decision, thereRule: r.index };
    }
    if (here.decision !== "allow") {
      const path = space.witness([...base, ...later.map((l) => thereTables.group(l, false))], budget, primary.alphabet);
      if (path !== undefined) return { path, thereDecision: "allow", thereRule: -1 };
    }
    return undefined;
  };
  if (a) {
    const hit = oneSided(a, primary, b, other, two);
    if (hit) return make(hit.path, a.decision, c, hit.thereDecision, hit.thereRule);
  }
  if (b) {
    const hit = oneSided(b, other, a, primary, one);
    if (hit) return make(hit.path, hit.thereDecision, hit.thereRule, b.decision, c);
  }
  return undefined;
}
