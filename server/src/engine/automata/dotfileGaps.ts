import type { DFA } from "refa";
import { OPERATIONS, type Operation, type Runtime } from "../runtime/runtime";
import { Budget, BudgetExceeded, DEFAULT_PRODUCT_BUDGET, WorkAllowance, type BudgetLimits } from "./budget";
import { dotMatches, dotMatchingLanguage, mayMatchDotName, readsDotsDifferently } from "./dotMatching";
import { pyGlobError } from "../runtime/pyGlob";
import { canonicalPaths, patternLanguage, readablePaths, type PatternLanguage } from "./languages";
import { exploreProduct, type DeciderTracks, type WalkResult } from "./product";
import { regexDfa } from "./regexAutomaton";
import { decisionOf } from "./ruleTables";
import { PathSpace } from "./space";
import type { Table } from "./tables";
import { registeredMap, sharedCache, weakCache } from "../caches";
import { quotedText } from "../config/describe";
import { decideToolPath } from "../permissions/decideToolPath";
import { CompiledRuleList, type PermissionRuleInput } from "../permissions/ruleList";
import { toolArgumentFor } from "./confirm";

/**
 * Where a deepagents-py rule list lets through what its denies cover with dot matching (automata/dotMatching.ts):
 * paths a deny's pattern covers read with `DOTGLOB`, that the list read so denies, and that the list as deepagents-py
 * reads it does not deny, while that deny rule itself does not cover them there. Decided on one walk over the
 * product of every rule's automata in both readings (automata/product.ts), so at any depth of hidden folders: a
 * pattern it does not report has no such path. (A second walk, over the paths within the fix's depth, is made only
 * for a deny whose cheapest such path lies deeper.)
 *
 * Why the rule itself must miss the path: where it does cover it, an earlier allow takes the path in deepagents-py,
 * and (a pattern covers with dot matching all it covers without) takes it with dot matching too, unless an even
 * earlier deny does, whose own pattern then misses the path: that deny is the one to report, and is.
 */

export interface DotfileGap {
  readonly ruleIndex: number;
  /** The entry of the rule's `paths` that covers the witness with dot matching (where the finding points). */
  readonly pathIndex: number;
  readonly operation: Operation;
  /** A cheapest such path (shortest, plain names first); at most `depth` hidden names deep when `shallow`. */
  readonly witness: string;
  /** Some such path is at most `depth` hidden names deep; otherwise every one is deeper. */
  readonly shallow: boolean;
}

export interface DotfileGapsResult {
  readonly gaps: readonly DotfileGap[];
  /** What was not decided, with why (an operation whose rules hold a pattern that is not analysed, or the budget). */
  readonly skipped: readonly { readonly ruleIndex: number; readonly reason: string; readonly byBudget?: boolean }[];
}

/**
 * A name that starts with `.`: what wcmatch's wildcards skip without `DOTGLOB`. The name `.` (only a tool argument
 * spelled with a backslash, `/a\\.`, reaches the matcher with one) counts too: wildcards skip it with or without
 * `DOTGLOB`, and `.*` matches it, so a fix that spells out N hidden names reaches N such names in all.
 */
const HIDDEN = String.raw`\.(?:[^/.][^/]*|\.[^/]+)?`;
const NOT_HIDDEN = String.raw`(?:[^/.][^/]*)?`;

let hiddenDfa: DFA | undefined;
/** Paths with at least one hidden name: the only ones where the two readings part ways. */
function hiddenPaths(): DFA {
  return (hiddenDfa ??= regexDfa({ source: String.raw`^[^]*\/${HIDDEN}(?:\/[^]*)?$`, flags: "u" }, new Budget({ milliseconds: 10_000, states: 100_000 })));
}

const shallowDfas = registeredMap("automata/dotfileGaps.shallowDfas", "one per depth, a setting of the check", new Map<number, DFA>());
/** Paths with at most `depth` hidden names. */
function shallowPaths(depth: number): DFA {
  let dfa = shallowDfas.get(depth);
  if (!dfa) {
    const source = String.raw`^(?:\/${NOT_HIDDEN})*(?:\/${HIDDEN}(?:\/${NOT_HIDDEN})*){0,${depth}}$`;
    shallowDfas.set(depth, (dfa = regexDfa({ source, flags: "u" }, new Budget({ milliseconds: 10_000, states: 100_000 }))));
  }
  return dfa;
}

/**
 * The gaps of one rule list, kept across runs by its rules: the language server checks the file again on every
 * keystroke, and most keystrokes leave the rules as they were. `allowance`: the work the check may do on the whole
 * file (checks/check.ts `CHECK_AUTOMATA_STEPS`), charged the same whether the result is computed or kept (the steps
 * it took are kept with it), so what is reported depends on the file alone.
 */
export function dotfileGaps(runtime: Runtime, inputs: readonly PermissionRuleInput[], depth: number, limits: BudgetLimits = DEFAULT_PRODUCT_BUDGET, allowance?: WorkAllowance): DotfileGapsResult {
  const key = JSON.stringify([runtime.id, depth, limits, inputs.map((r) => [r.operations, r.paths, r.mode ?? null])]);
  const known = results.get(key);
  if (known) {
    try {
      allowance?.charge(known.steps);
    } catch (error) {
      if (!(error instanceof BudgetExceeded)) throw error;
      return outOfBudget([], error);
    }
    return known.result;
  }
  // The file's allowance is charged as the work is done; the steps it took are kept with the result.
  const counted = allowance ?? new WorkAllowance(Infinity);
  const before = counted.spent;
  const result = computeGaps(runtime, inputs, depth, limits, counted);
  const steps = counted.spent - before;
  // A walk stopped by the clock or the allowance may finish on the next run: only what the automata decided is kept.
  if (!result.skipped.some((s) => s.byBudget)) results.set(key, { result, steps });
  return result;
}
const results = sharedCache<string, { result: DotfileGapsResult; steps: number }>("automata/dotfileGaps.results", { entries: 16 });

function outOfBudget(skipped: readonly { ruleIndex: number; reason: string; byBudget?: boolean }[], error: BudgetExceeded): DotfileGapsResult {
  return { gaps: [], skipped: [...skipped, { ruleIndex: 0, reason: `the walk over its rules for dotfiles ${error.message}`, byBudget: true }] };
}

function computeGaps(runtime: Runtime, inputs: readonly PermissionRuleInput[], depth: number, limits: BudgetLimits, allowance: WorkAllowance): DotfileGapsResult {
  const skipped: { ruleIndex: number; reason: string; byBudget?: boolean }[] = [];
  // One budget for all of it: compiling the patterns (a 65,000-rule file has that many), the walk and its questions.
  const budget = new Budget(limits, undefined, allowance);
  try {
    return gapsWithin(runtime, inputs, depth, budget, skipped);
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    return outOfBudget(skipped, error);
  }
}

function gapsWithin(runtime: Runtime, inputs: readonly PermissionRuleInput[], depth: number, budget: Budget, skipped: { ruleIndex: number; reason: string; byBudget?: boolean }[]): DotfileGapsResult {
  const patternsOf = (rule: PermissionRuleInput): string[] => (Array.isArray(rule.paths) ? rule.paths.filter((p): p is string => typeof p === "string" && p.length > 0) : []);

  // Both readings of every pattern; an operation with a rule whose pattern is not analysed is not decided at all.
  // The two readings differ only on paths with a hidden name, so only those are walked, and a pattern that matches
  // none of them in a reading is not compiled for it (`undefined`): most `**` and `*` of deepagents-py, whose
  // automata were most of the check's cold time. The test is read off the text (`mayMatchDotName`).
  const unusable = (p: string): PatternLanguage | undefined => {
    budget.checkTime();
    const error = pyGlobError(p);
    return error === undefined ? undefined : { ok: false, pattern: p, kind: "unusable", reason: error, cost: 1 + p.length };
  };
  const pyLanguages = inputs.map((rule) => patternsOf(rule).map((p) => unusable(p) ?? (mayMatchDotName(p) ? patternLanguage(runtime, p) : undefined)));
  const dotLanguages = inputs.map((rule) => patternsOf(rule).map((p) => unusable(p) ?? (mayMatchDotName(p) || readsDotsDifferently(p) ? dotMatchingLanguage(p) : undefined)));
  // Each reading compiled counts its cost (a function of the pattern alone, as the exact analysis counts it), once.
  const charged = new Set<PatternLanguage>();
  for (const languages of [pyLanguages, dotLanguages]) for (const rule of languages) for (const l of rule) {
    if (!l || charged.has(l)) continue;
    charged.add(l);
    budget.work(l.cost);
  }
  const blocked = new Set<Operation>();
  for (const op of OPERATIONS) {
    for (let i = 0; i < inputs.length && !blocked.has(op); i++) {
      if (!runtime.operationsCover(inputs[i]!.operations, op)) continue;
      const unknown = [...pyLanguages[i]!, ...dotLanguages[i]!].find((l) => l !== undefined && !l.ok);
      if (unknown && !unknown.ok) {
        blocked.add(op);
        skipped.push({ ruleIndex: i, reason: `no ${op} under this list was checked for dotfiles: this rule's pattern ${quotedText(unknown.pattern)} ${unknown.kind === "unusable" ? `cannot be used by ${runtime.label} (${unknown.reason})` : `was not analysed (${unknown.reason})`}` });
      }
    }
  }
  const ops = OPERATIONS.filter((op) => !blocked.has(op));
  if (ops.length === 0) return { gaps: [], skipped };

  const dfas = new Set<DFA>([canonicalPaths(runtime), readablePaths(runtime), shallowPaths(depth), hiddenPaths()]);
  for (const languages of [pyLanguages, dotLanguages]) for (const rule of languages) for (const l of rule) if (l?.ok) for (const d of l.dfas) dfas.add(d);
  const space = new PathSpace(dfas, [], readablePaths(runtime));
  const tablesOf = (l: PatternLanguage | undefined): Table[] => (l?.ok ? l.dfas.map((d) => space.table(d)) : []);

  // Tracks: the rules as deepagents-py reads them (list 0) and with dot matching (list 1). Only who decides is read,
  // so the walk may leave out tables that cannot decide.
  const tracks: Table[][] = [];
  const deciders = { list: [] as number[], rule: [] as number[], ops: [] as number[] };
  const opsMask = (rule: PermissionRuleInput): number => OPERATIONS.reduce((mask, op, bit) => (ops.includes(op) && runtime.operationsCover(rule.operations, op) ? mask | (1 << bit) : mask), 0);
  const add = (tables: Table[], list: number, rule: number, mask: number): void => {
    tracks.push(tables);
    deciders.list.push(list);
    deciders.rule.push(rule);
    deciders.ops.push(mask);
  };
  // Only paths with a hidden name are walked (`hidden`, required), and a rule that matches none of them in a reading
  // is left out of that reading's list: there it never decides.
  const hidden = space.table(hiddenPaths());
  const reachesHidden = (languages: readonly (PatternLanguage | undefined)[]): Table[] => {
    const tables = languages.flatMap(tablesOf);
    return languages.some((l) => l?.ok && l.dfas.some((d) => matchesHiddenPath(space, d, hidden, budget))) ? tables : [];
  };
  inputs.forEach((rule, i) => {
    const mask = opsMask(rule);
    if (mask === 0) return;
    add(reachesHidden(pyLanguages[i]!), 0, i, mask);
    add(reachesHidden(dotLanguages[i]!), 1, i, mask);
  });
  const decision = inputs.map((rule) => decisionOf(runtime, rule.mode));
  const canonical = space.table(canonicalPaths(runtime));
  const shallow = space.table(shallowPaths(depth));

  // First every gap at any depth, cheapest first. Whether one lies within `depth` hidden names is then read off its
  // witness, and only for a deny whose cheapest gap lies deeper is a second walk made, over the shallow paths alone:
  // the depth as a track of the first walk doubled its states (each kind of path at each depth of hidden names).
  const any = cheapestGaps(exploreProduct(tracks, [canonical, hidden], space.alphabet, budget, deciders), deciders, decision, ops);
  const deeper = [...any.values()].filter((gap) => !shallow.accepts(gap.word));
  const within = deeper.length > 0 ? cheapestGaps(exploreProduct(tracks, [canonical, hidden, shallow], space.alphabet, budget, deciders), deciders, decision, ops) : new Map<string, CheapestGap>();
  const gaps: DotfileGap[] = [];
  let compiled: CompiledRuleList | undefined;
  for (const [key, found] of any) {
    const isShallow = shallow.accepts(found.word);
    const chosen = isShallow ? found : (within.get(key) ?? found);
    const witness = space.text(chosen.word);
    compiled ??= new CompiledRuleList(runtime, inputs, { noAutomaton: true });
    const pathIndex = confirmedPattern(runtime, inputs, compiled, found.rule, found.op, witness);
    if (pathIndex === undefined) {
      skipped.push({ ruleIndex: found.rule, reason: `the dotfile witness ${quotedText(witness)} could not be confirmed; nothing reported` });
      continue;
    }
    gaps.push({ ruleIndex: found.rule, pathIndex, operation: found.op, witness, shallow: chosen !== found || isShallow });
  }
  gaps.sort((a, b) => a.ruleIndex - b.ruleIndex || OPERATIONS.indexOf(a.operation) - OPERATIONS.indexOf(b.operation));
  return { gaps, skipped };
}

/**
 * Whether the automaton accepts a path with a hidden name: a property of its language, kept by automaton (patterns'
 * automata are kept across runs, and an edit leaves most of them as they were), with the states and steps the
 * question took, which a reused answer counts again (so the file's work allowance is charged the same warm or cold).
 */
function matchesHiddenPath(space: PathSpace, dfa: DFA, hidden: Table, budget: Budget): boolean {
  const known = hiddenAnswers.get(dfa);
  if (known) {
    budget.spend(known.states);
    budget.work(Math.max(0, known.steps - known.states));
    return known.reaches;
  }
  const states = budget.statesSpent;
  const steps = budget.allowance?.spent ?? 0;
  const reaches = space.exists([{ any: [space.table(dfa)], want: true }, { any: [hidden], want: true }], budget);
  hiddenAnswers.set(dfa, { reaches, states: budget.statesSpent - states, steps: (budget.allowance?.spent ?? 0) - steps });
  return reaches;
}
const hiddenAnswers = weakCache<DFA, { reaches: boolean; states: number; steps: number }>("automata/dotfileGaps.hiddenAnswers");

interface CheapestGap {
  readonly rule: number;
  readonly op: Operation;
  readonly word: number[];
}

/**
 * Per (deny, operation), keyed `rule:op`: a cheapest path of the walk where that deny decides the list read with dot
 * matching (list 1) and the list as deepagents-py reads it (list 0) does not deny. Ties go to the outcome found first.
 */
function cheapestGaps(walk: WalkResult, deciders: DeciderTracks, decision: readonly string[], ops: readonly Operation[]): Map<string, CheapestGap> {
  const best = new Map<string, { rule: number; op: Operation; cost: number; o: number }>();
  walk.outcomes.forEach((outcome, o) => {
    const matched = outcome.matched;
    OPERATIONS.forEach((op, bit) => {
      if (!ops.includes(op)) return;
      let dotFirst = -1;
      let pyFirst = -1;
      for (const t of matched) {
        if (!(deciders.ops[t]! & (1 << bit))) continue;
        const r = deciders.rule[t]!;
        if (deciders.list[t] === 0 && (pyFirst < 0 || r < pyFirst)) pyFirst = r;
        if (deciders.list[t] === 1 && (dotFirst < 0 || r < dotFirst)) dotFirst = r;
      }
      if (dotFirst < 0 || decision[dotFirst] !== "deny") return;
      if (pyFirst >= 0 && decision[pyFirst] === "deny") return;
      const key = `${dotFirst}:${op}`;
      const entry = best.get(key);
      if (!entry || outcome.cost < entry.cost) best.set(key, { rule: dotFirst, op, cost: outcome.cost, o });
    });
  });
  const found = new Map<string, CheapestGap>();
  for (const [key, { rule, op, o }] of best) found.set(key, { rule, op, word: walk.outcomes[o]!.word });
  return found;
}

/**
 * The last line of defence: the witness checked with the engine's decision functions, not the automata. The tool
 * argument that reaches deepagents-py's matcher as the witness is not denied there (decideToolPath), the list read
 * with dot matching is decided by this deny (first match wins), and the deny itself misses it in deepagents-py.
 * Returns the entry of `paths` that covers it with dot matching, or `undefined` when any of this does not hold.
 */
function confirmedPattern(runtime: Runtime, inputs: readonly PermissionRuleInput[], compiled: CompiledRuleList, ruleIndex: number, op: Operation, witness: string): number | undefined {
  const argument = toolArgumentFor(runtime, witness);
  if (argument === undefined) return undefined;
  const outcome = decideToolPath(runtime, compiled, op, argument);
  if (outcome.canonicalPath !== witness || outcome.outcome === "deny" || outcome.outcome === "error") return undefined;
  const patterns = (rule: PermissionRuleInput): string[] => (Array.isArray(rule.paths) ? rule.paths.filter((p): p is string => typeof p === "string" && p.length > 0) : []);
  const decider = inputs.findIndex((r) => runtime.operationsCover(r.operations, op) && patterns(r).some((p) => dotMatches(p, witness)));
  const rule = inputs[decider];
  if (decider !== ruleIndex || !rule || decisionOf(runtime, rule.mode) !== "deny") return undefined;
  if (patterns(rule).some((p) => runtime.compilePattern(p).matches(witness))) return undefined;
  const paths = rule.paths as readonly unknown[];
  const at = paths.findIndex((p) => typeof p === "string" && p.length > 0 && dotMatches(p, witness));
  return at < 0 ? undefined : at;
}
