import { quotedText } from "../config/describe";
import type { PermissionRuleInput } from "../permissions/ruleList";
import { OPERATIONS, type Operation, type Runtime } from "../runtime/runtime";
import type { Budget } from "./budget";
import { alphabetOf, canonicalPaths, type PatternLanguage } from "./languages";
import { prefixesCompatible, type PathSpace } from "./space";
import type { Condition, Table } from "./tables";

/** What a rule does to a path that it decides (docs/reference/decisions.md: only the exact string "deny" blocks; unknown modes allow). */
export type Decision = "allow" | "deny" | "interrupt";

/** `CompiledRuleList`'s reading of a mode (permissions/ruleList.ts). */
export function decisionOf(runtime: Runtime, mode: unknown): Decision {
  if (mode === "deny") return "deny";
  if (mode === "interrupt" && runtime.modes.includes("interrupt")) return "interrupt";
  return "allow";
}

/** One rule as the analysis sees it for one operation. */
export interface RuleForOperation {
  readonly index: number;
  readonly decision: Decision;
  /** The automata of its patterns; a path is the rule's when any of them accepts it. */
  readonly tables: readonly Table[];
  /** Literal text every path of the rule starts with (to skip questions about rules that cannot overlap). */
  readonly prefix: string;
  /** Set when some pattern cannot be analysed: which, why, and whether the runtime itself fails on it. */
  readonly unknown?: { readonly pattern: string; readonly reason: string; readonly unusable: boolean };
}

/**
 * Why rule `index` is not analysed for `op`, when rule `blocking` (itself, or the first earlier rule for `op` with an
 * unknown pattern) and its `unknown` are the reason: the `skipped` list's words, for the per-rule and the whole-list analyses alike.
 */
export function blockedReason(runtime: Runtime, blocking: number, unknown: NonNullable<RuleForOperation["unknown"]>, op: Operation, index: number): string {
  const { pattern, reason, unusable } = unknown;
  if (blocking === index) {
    return unusable ? `${runtime.label} cannot evaluate its pattern ${quotedText(pattern)} (${reason})` : `its pattern ${quotedText(pattern)} was not analysed: ${reason}`;
  }
  return unusable
    ? `${runtime.label} cannot evaluate rule ${blocking}'s pattern ${quotedText(pattern)} (${reason}), so every ${op} that reaches it fails`
    : `rule ${blocking}'s pattern ${quotedText(pattern)} was not analysed (${reason})`;
}

/**
 * A rule list under one runtime, as automata tables per operation, with the conditions questions are made of.
 * Rules keep their index in the list; a rule appears under an operation only when its `operations` cover it.
 */
export class RuleTables {
  readonly alphabet: "utf16" | "codepoints";
  /** "The path is a canonical tool path of this runtime." */
  readonly canonical: Condition;
  private readonly byOperation = new Map<Operation, RuleForOperation[]>();
  /** Per operation, per rule index: the rule, when it covers the operation (`rule` is asked for every outcome). */
  private readonly byIndex = new Map<Operation, (RuleForOperation | undefined)[]>();

  constructor(
    readonly runtime: Runtime,
    readonly inputs: readonly PermissionRuleInput[],
    readonly space: PathSpace,
    languageOf: (pattern: string) => PatternLanguage,
  ) {
    this.alphabet = alphabetOf(runtime);
    this.canonical = { any: [space.table(canonicalPaths(runtime))], want: true };
    for (const op of OPERATIONS) {
      const list: RuleForOperation[] = [];
      inputs.forEach((rule, index) => {
        if (runtime.operationsCover(rule.operations, op)) list.push(this.ruleForOperation(rule, index, languageOf));
      });
      this.byOperation.set(op, list);
      const byIndex: (RuleForOperation | undefined)[] = new Array(inputs.length).fill(undefined);
      for (const r of list) byIndex[r.index] = r;
      this.byIndex.set(op, byIndex);
    }
  }

  private ruleForOperation(rule: PermissionRuleInput, index: number, languageOf: (pattern: string) => PatternLanguage): RuleForOperation {
    const decision = decisionOf(this.runtime, rule.mode);
    const tables: Table[] = [];
    const paths = Array.isArray(rule.paths) ? rule.paths : [];
    for (const p of paths) {
      // The rule list skips entries that are not non-empty strings (permissions/ruleList.ts).
      if (typeof p !== "string" || p.length === 0) continue;
      const language = languageOf(p);
      if (!language.ok) return { index, decision, tables: [], prefix: "", unknown: { pattern: p, reason: language.reason, unusable: language.kind === "unusable" } };
      for (const dfa of language.dfas) tables.push(this.space.table(dfa));
    }
    const prefixes = tables.map((t) => this.space.prefixOf(t));
    const prefix = prefixes.length === 0 ? "" : prefixes.reduce(commonPrefix);
    return { index, decision, tables, prefix };
  }

  /** The rules that cover `op`, in list order. */
  forOperation(op: Operation): readonly RuleForOperation[] {
    return this.byOperation.get(op)!;
  }

  rule(op: Operation, index: number): RuleForOperation | undefined {
    return this.byIndex.get(op)![index];
  }

  /** "The path is one of this rule's" (`want`), or "is not". */
  group(r: RuleForOperation, want: boolean): Condition {
    return { any: r.tables, want };
  }

  /** "None of these rules matches the path", keeping only rules that could overlap a path starting with `prefix`. */
  none(rules: readonly RuleForOperation[], prefix: string): Condition[] {
    return rules.filter((r) => prefixesCompatible(r.prefix, prefix)).map((r) => this.group(r, false));
  }

  /** Rules of `candidates` that share a canonical path with every condition of `within`, in order. */
  overlapping(candidates: readonly RuleForOperation[], within: readonly Condition[], prefix: string, budget: Budget): RuleForOperation[] {
    return candidates.filter((r) => prefixesCompatible(r.prefix, prefix) && this.space.exists([...within, this.group(r, true)], budget));
  }

  witness(conditions: readonly Condition[], budget: Budget): string | undefined {
    return this.space.witness(conditions, budget, this.alphabet);
  }

  /** The first rule (other than `except`) whose patterns accept `path` for `op`, or -1. */
  firstMatch(op: Operation, path: string, except = -1): number {
    const classes = this.space.classesOf(path, this.alphabet);
    for (const r of this.byOperation.get(op)!) {
      if (r.index !== except && r.tables.some((t) => t.accepts(classes))) return r.index;
    }
    return -1;
  }
}

export function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}
