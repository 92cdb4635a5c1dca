import { OPERATIONS, type Operation } from "../runtime/runtime";
import { Allowance, Budget, BudgetExceeded, DEFAULT_LIST_MILLISECONDS, DEFAULT_RULE_BUDGET, type BudgetLimits, type WorkAllowance } from "./budget";
import { blockedReason, decisionOf, type Decision, type RuleForOperation, type RuleTables } from "./ruleTables";
import { prefixesCompatible } from "./space";
import type { Condition } from "./tables";

/** An earlier rule that decides part of a rule's paths before it does. */
export interface TakenBy {
  readonly ruleIndex: number;
  readonly decision: Decision;
  /** A path the rule matches that this earlier rule decides first. */
  readonly witness: string;
}

/** One operation's facts about one rule. */
export interface OperationFacts {
  readonly operation: Operation;
  /** The rule matches at least one canonical path for this operation. */
  readonly matches: boolean;
  /** Earlier rules that decide some of its paths first, in rule order, each with a witness. */
  readonly takenBy: readonly TakenBy[];
  /** A path the rule itself decides for this operation, if any. */
  readonly decides: string | undefined;
}

/** What removing a rule would change (one example). */
export interface RemovalChange {
  readonly operation: Operation;
  readonly path: string;
  readonly before: Decision;
  readonly after: Decision | "error";
  /** The rule that would decide instead (-1: the permissive default). */
  readonly byRule: number;
}

export type RuleVerdict =
  | { readonly kind: "skipped"; readonly reason: string }
  /** Matches no canonical path for any operation it names (rule-empty, pattern-never-matches… say why). */
  | { readonly kind: "matches-nothing" }
  /** Decides nothing, and some of its paths are decided the other way: its intent is lost. */
  | { readonly kind: "shadowed"; readonly witness: TakenBy & { readonly operation: Operation } }
  /** Removing it changes no decision. `decidedBy` decides the witness path once the rule is gone (-1: default). */
  | { readonly kind: "redundant"; readonly witness: { readonly operation: Operation; readonly path: string; readonly decidedBy: number } }
  /** Decides some paths, but some others are decided first, the other way, by earlier rules. */
  | { readonly kind: "partially-shadowed"; readonly witness: TakenBy & { readonly operation: Operation } }
  | { readonly kind: "decides" };

export interface RuleAnalysis {
  readonly index: number;
  readonly decision: Decision;
  readonly operations: readonly OperationFacts[];
  readonly verdict: RuleVerdict;
  /** Set when removing the rule would change a decision (an example). */
  readonly removalChange?: RemovalChange;
}

/** Something the analysis could not decide: reported in the `skipped` list, never as a finding. */
export interface SkipNote {
  readonly ruleIndex: number;
  readonly reason: string;
  /** The checks that stay silent about it. */
  readonly checks: readonly string[];
}

const RULE_CHECKS = ["rule-shadowed", "rule-redundant", "rule-partially-shadowed"];

/**
 * The first earlier rule (operation by operation) that decides some of a rule's paths the other way: the witness of
 * "shadowed" and "partially shadowed". Shared by both ways of computing the facts (outcomes.ts reads them off one
 * walk over every rule; `RuleListAnalysis` asks rule by rule).
 */
export function takenTheOtherWay(operations: readonly OperationFacts[], decision: Decision): (TakenBy & { operation: Operation }) | undefined {
  for (const o of operations) {
    const t = o.takenBy.find((x) => x.decision !== decision);
    if (t) return { ...t, operation: o.operation };
  }
  return undefined;
}

/**
 * The exact analysis of one rule list under one runtime (first match wins, permissive default, docs/reference/decisions.md), over the
 * runtime's canonical tool paths (docs/reference/paths.md). Every claim is decided on automata; every witness comes from them.
 * Rules are analysed lazily, one at a time, each within its own budget, and all of them within the list's.
 */
export class RuleListAnalysis {
  readonly skipped: SkipNote[] = [];
  private readonly cache = new Map<number, RuleAnalysis>();
  private readonly earlierCache = new Map<string, RuleForOperation[]>();

  /** The time all of this list's rules may take together (see `Allowance`). */
  private readonly allowance: Allowance;

  /** `work`: the file's work allowance, which every rule's questions charge (absent: only the limits above). */
  constructor(readonly tables: RuleTables, private readonly limits: BudgetLimits = DEFAULT_RULE_BUDGET, listMilliseconds = DEFAULT_LIST_MILLISECONDS, private readonly work?: WorkAllowance) {
    this.allowance = new Allowance(listMilliseconds);
  }

  get size(): number {
    return this.tables.inputs.length;
  }

  rule(index: number): RuleAnalysis {
    let analysis = this.cache.get(index);
    if (!analysis) {
      analysis = this.allowance.exhausted
        ? this.skip(index, decisionOf(this.tables.runtime, this.tables.inputs[index]!.mode), `the analysis of this list had used its ${this.allowance.milliseconds.toLocaleString("en")} ms before reaching it`)
        : this.allowance.run(() => this.analyseRule(index));
      this.cache.set(index, analysis);
    }
    return analysis;
  }

  all(): RuleAnalysis[] {
    return this.tables.inputs.map((_, i) => this.rule(i));
  }

  private analyseRule(index: number): RuleAnalysis {
    const { runtime, inputs } = this.tables;
    const input = inputs[index]!;
    const decision = decisionOf(runtime, input.mode);
    const ops = OPERATIONS.filter((op) => runtime.operationsCover(input.operations, op));
    const budget = new Budget(this.limits, undefined, this.work);
    try {
      const operations: OperationFacts[] = [];
      for (const op of ops) {
        const blocked = this.blockedBy(op, index);
        if (blocked) return this.skip(index, decision, blocked);
        operations.push(this.operationFacts(op, index, budget));
      }
      if (!operations.some((o) => o.matches)) return { index, decision, operations, verdict: { kind: "matches-nothing" } };
      const otherWay = () => takenTheOtherWay(operations, decision);
      if (!operations.some((o) => o.decides !== undefined)) {
        const other = otherWay();
        if (other) return { index, decision, operations, verdict: { kind: "shadowed", witness: other } };
        const o = operations.find((x) => x.takenBy.length > 0)!;
        const t = o.takenBy[0]!;
        return { index, decision, operations, verdict: { kind: "redundant", witness: { operation: o.operation, path: t.witness, decidedBy: t.ruleIndex } } };
      }
      const change = this.removalChange(index, decision, operations, budget);
      const other = otherWay();
      if (change === "unknown") {
        this.skipped.push({ ruleIndex: index, reason: "whether removing it changes a decision was not decided: a later rule's pattern was not analysed", checks: ["rule-redundant"] });
        return { index, decision, operations, verdict: other ? { kind: "partially-shadowed", witness: other } : { kind: "decides" } };
      }
      if (!change) {
        const o = operations.find((x) => x.decides !== undefined)!;
        const decidedBy = this.tables.firstMatch(o.operation, o.decides!, index);
        return { index, decision, operations, verdict: { kind: "redundant", witness: { operation: o.operation, path: o.decides!, decidedBy } } };
      }
      return { index, decision, operations, removalChange: change, verdict: other ? { kind: "partially-shadowed", witness: other } : { kind: "decides" } };
    } catch (error) {
      if (error instanceof BudgetExceeded) return this.skip(index, decision, `its analysis ${error.message}`);
      throw error;
    }
  }

  private skip(index: number, decision: Decision, reason: string): RuleAnalysis {
    this.skipped.push({ ruleIndex: index, reason, checks: RULE_CHECKS });
    return { index, decision, operations: [], verdict: { kind: "skipped", reason } };
  }

  /** Why rule `index` cannot be analysed for `op`: its own pattern, or an earlier rule's, is unknown. */
  private blockedBy(op: Operation, index: number): string | undefined {
    for (const r of this.tables.forOperation(op)) {
      if (r.index > index) break;
      if (r.unknown) return blockedReason(this.tables.runtime, r.index, r.unknown, op, index);
    }
    return undefined;
  }

  /** Earlier rules (for `op`) that share a canonical path with rule `index`, in order. */
  private earlier(op: Operation, index: number, budget: Budget): RuleForOperation[] {
    const key = `${op}:${index}`;
    let list = this.earlierCache.get(key);
    if (!list) {
      const t = this.tables;
      const self = t.rule(op, index)!;
      const before = t.forOperation(op).filter((r) => r.index < index);
      list = t.overlapping(before, [t.canonical, t.group(self, true)], self.prefix, budget);
      this.earlierCache.set(key, list);
    }
    return list;
  }

  private operationFacts(op: Operation, index: number, budget: Budget): OperationFacts {
    const t = this.tables;
    const self = t.rule(op, index)!;
    const mine: Condition[] = [t.canonical, t.group(self, true)];
    if (!t.space.exists(mine, budget)) return { operation: op, matches: false, takenBy: [], decides: undefined };
    const earlier = this.earlier(op, index, budget);
    const takenBy: TakenBy[] = [];
    earlier.forEach((r, k) => {
      const witness = t.witness([...mine, t.group(r, true), ...t.none(earlier.slice(0, k), r.prefix)], budget);
      if (witness !== undefined) takenBy.push({ ruleIndex: r.index, decision: r.decision, witness });
    });
    const decides = t.witness([...mine, ...t.none(earlier, self.prefix)], budget);
    return { operation: op, matches: true, takenBy, decides };
  }

  /**
   * What removing rule `index` changes, or `undefined` when it changes nothing: each path it decides falls to the
   * next rule that matches it (or the permissive default), which must decide it the same way.
   */
  private removalChange(index: number, decision: Decision, operations: readonly OperationFacts[], budget: Budget): RemovalChange | undefined | "unknown" {
    const t = this.tables;
    for (const facts of operations) {
      if (facts.decides === undefined) continue;
      const op = facts.operation;
      const self = t.rule(op, index)!;
      const decided = [t.canonical, t.group(self, true), ...t.none(this.earlier(op, index, budget), self.prefix)];
      const later: RuleForOperation[] = [];
      for (const r of t.forOperation(op)) {
        if (r.index <= index) continue;
        const rest = [...decided, ...t.none(later, self.prefix)];
        if (r.unknown) {
          // Paths falling through to a rule we cannot read: it either fails every call (a change) or is unknown.
          if (!t.space.exists(rest, budget)) break;
          if (!r.unknown.unusable) return "unknown";
          return { operation: op, path: t.witness(rest, budget)!, before: decision, after: "error", byRule: r.index };
        }
        if (!prefixesCompatible(r.prefix, self.prefix)) continue;
        if (!t.space.exists([...decided, t.group(r, true)], budget)) continue;
        if (r.decision !== decision) {
          const path = t.witness([...rest, t.group(r, true)], budget);
          if (path !== undefined) return { operation: op, path, before: decision, after: r.decision, byRule: r.index };
        }
        later.push(r);
      }
      if (decision !== "allow") {
        const path = t.witness([...decided, ...t.none(later, self.prefix)], budget);
        if (path !== undefined) return { operation: op, path, before: decision, after: "allow", byRule: -1 };
      }
    }
    return undefined;
  }

  /**
   * Rule by rule there is no walk to read a group's proof off: the first candidate alone (each is proved alone),
   * the others wait for the re-check.
   */
  removableTogether(candidates: readonly number[]): number[] {
    return candidates.slice(0, 1);
  }

  /** The first earlier rule that overlaps rule `index` for any operation it names (the reorder fix's target). */
  firstOverlappingEarlier(index: number): number | undefined {
    let first: number | undefined;
    for (const facts of this.rule(index).operations) {
      const taken = facts.takenBy[0];
      if (taken && (first === undefined || taken.ruleIndex < first)) first = taken.ruleIndex;
    }
    return first;
  }

  /**
   * Proves, on the automata, that moving rule `from` to just before rule `to` changes no decision outside the
   * moved rule's own paths (for the operations it names), and that afterwards the moved rule decides every one of
   * its paths. False when that cannot be shown within the budget: then no fix is offered.
   */
  proveMove(from: number, to: number): boolean {
    if (!(to < from)) return false;
    const t = this.tables;
    const order = t.inputs.map((_, i) => i);
    order.splice(from, 1);
    order.splice(to, 0, from);
    const position = new Map(order.map((ruleIndex, at) => [ruleIndex, at]));
    const budget = new Budget(this.limits, undefined, this.work);
    try {
      for (const op of OPERATIONS) {
        const before = t.forOperation(op);
        const after = [...before].sort((a, b) => position.get(a.index)! - position.get(b.index)!);
        // The same rules in the same order decide every path the same way.
        if (before.every((r, k) => after[k] === r)) continue;
        if (before.some((r) => r.unknown)) return false;
        const moved = before.find((r) => r.index === from)!;
        const outside: Condition[] = [t.canonical, t.group(moved, false)];
        // For two rules, one deciding a path in each order, with different decisions: that path must be the
        // moved rule's.
        const decidedBy = (list: readonly RuleForOperation[], k: number): Condition[] => [t.group(list[k]!, true), ...t.none(list.slice(0, k), list[k]!.prefix)];
        // (Both orders hold the same rules, so a path no rule matches is left to the default in both.)
        for (let a = 0; a < before.length; a++) {
          for (let b = 0; b < after.length; b++) {
            if (before[a]!.decision === after[b]!.decision || !prefixesCompatible(before[a]!.prefix, after[b]!.prefix)) continue;
            if (t.space.exists([...outside, ...decidedBy(before, a), ...decidedBy(after, b)], budget)) return false;
          }
        }
        // The intent: after the move no rule ahead of it shares a path with it.
        for (const r of after) {
          if (r.index === from) break;
          if (t.space.exists([t.canonical, t.group(moved, true), t.group(r, true)], budget)) return false;
        }
      }
      return true;
    } catch (error) {
      if (error instanceof BudgetExceeded) return false;
      throw error;
    }
  }
}
