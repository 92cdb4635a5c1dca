import type { DFA } from "refa";
import { allRuleLists, type ConfigModel, type RuleListSpec } from "../config/model";
import type { PermissionRuleInput } from "../permissions/ruleList";
import type { Operation, Runtime } from "../runtime/runtime";
import type { CheckContext } from "../checks/check";
import type { Span } from "../text";
import { Budget, BudgetExceeded, DEFAULT_PATTERN_BUDGET, DEFAULT_PRODUCT_BUDGET, DEFAULT_RULE_BUDGET, type BudgetLimits } from "./budget";
import { asTypedPaths, canonicalPaths, patternLanguage, readablePaths, sharedCharacters, type PatternLanguage } from "./languages";
import { divergencesOf, escalationsOf, ListReading, moveIsSafe, realiseOutcomes, ruleAnalyses, type Divergence, type RealisedOutcome } from "./outcomes";
import { RuleListAnalysis, type RuleAnalysis, type SkipNote } from "./ruleListAnalysis";
import { RuleTables } from "./ruleTables";
import { PathSpace } from "./space";

/** Something the exact analysis did not decide, said once (language status, `check --format json`'s `skipped`). */
export interface SkippedAnalysis {
  /** The checks that stayed silent because of it. */
  readonly checks: readonly string[];
  /** What was not analysed, in words: "rule 3 of the top-level permissions". */
  readonly what: string;
  /** Why: the budget ran out, a construct has no automaton, … */
  readonly why: string;
  readonly span: Span;
}

export interface AnalysisOptions {
  /** Sample-workspace files, as tool paths (`/workspace/README.md`), best first: tried first as witnesses. */
  readonly candidates?: readonly string[];
  readonly patternBudget?: BudgetLimits;
  /** For the walk over all rules at once (automata/product.ts). */
  readonly productBudget?: BudgetLimits;
  /** For one rule's questions when the walk over all rules did not fit its budget. */
  readonly ruleBudget?: BudgetLimits;
}

/** The answers about one rule list's rules, however they were computed. */
export interface RuleAnswers {
  rule(index: number): RuleAnalysis;
  /** The first earlier rule that shares a path with rule `index` (the reorder fix's target). */
  firstOverlappingEarlier(index: number): number | undefined;
  /** Moving rule `from` above rule `to` changes no decision outside its own paths and makes it decide them all. */
  proveMove(from: number, to: number): boolean;
  readonly skipped: readonly SkipNote[];
}

/** Rule answers read off the outcomes of one walk over every rule. */
class ProductRuleAnswers implements RuleAnswers {
  private readonly rules: RuleAnalysis[];
  readonly skipped: SkipNote[];
  constructor(private readonly reading: ListReading, private readonly outcomes: readonly RealisedOutcome[]) {
    const { rules, skipped } = ruleAnalyses(reading, outcomes);
    this.rules = rules;
    this.skipped = skipped;
  }
  rule(index: number): RuleAnalysis {
    return this.rules[index]!;
  }
  firstOverlappingEarlier(index: number): number | undefined {
    let first: number | undefined;
    for (const facts of this.rules[index]?.operations ?? []) {
      const t = facts.takenBy[0];
      if (t && (first === undefined || t.ruleIndex < first)) first = t.ruleIndex;
    }
    return first;
  }
  proveMove(from: number, to: number): boolean {
    return moveIsSafe(this.reading, this.outcomes, from, to);
  }
}

/**
 * The exact analysis of every rule list of one config, shared by the checks that use it (they run one after the
 * other on the same model) and by `explain`, hovers and the CLI's `skipped` list. One alphabet and one set of
 * automata serve every question about the config.
 */
export class ModelAnalysis {
  readonly space: PathSpace;
  private readonly languages = new Map<string, PatternLanguage>();
  private readonly tables = new Map<string, RuleTables>();
  private readonly lists = new Map<RuleListSpec, RuleAnswers>();
  private readonly divergenceResults = new Map<string, Divergence[]>();
  private primary: { readings: Map<RuleListSpec, ListReading>; outcomes: RealisedOutcome[] } | "too-big" | undefined;
  private readonly productBudget: BudgetLimits;
  private readonly skippedEntries = new Map<string, SkippedAnalysis>();
  private readonly listIds = new Map<RuleListSpec, number>();
  private readonly ruleBudget: BudgetLimits;

  constructor(readonly model: ConfigModel, readonly runtimes: readonly Runtime[], options: AnalysisOptions = {}) {
    this.ruleBudget = options.ruleBudget ?? DEFAULT_RULE_BUDGET;
    this.productBudget = options.productBudget ?? DEFAULT_PRODUCT_BUDGET;
    const patternBudget = options.patternBudget ?? DEFAULT_PATTERN_BUDGET;
    const dfas = new Set<DFA>();
    allRuleLists(model).forEach((list, i) => this.listIds.set(list, i));
    for (const runtime of runtimes) {
      dfas.add(canonicalPaths(runtime));
      dfas.add(asTypedPaths(runtime));
      dfas.add(readablePaths(runtime));
      for (const list of allRuleLists(model)) {
        for (const rule of list.rules) {
          for (const p of Array.isArray(rule.input.paths) ? rule.input.paths : []) {
            if (typeof p !== "string" || p.length === 0) continue;
            const language = this.language(runtime, p, patternBudget);
            if (language.ok) for (const dfa of language.dfas) dfas.add(dfa);
          }
        }
      }
    }
    if (runtimes.length > 1) dfas.add(sharedCharacters());
    this.space = new PathSpace(dfas, options.candidates ?? [], readablePaths(runtimes[0] ?? model.runtime));
  }

  private language(runtime: Runtime, pattern: string, limits: BudgetLimits = DEFAULT_PATTERN_BUDGET): PatternLanguage {
    const key = `${runtime.id}\u0000${pattern}`;
    let language = this.languages.get(key);
    if (!language) {
      language = patternLanguage(runtime, pattern, limits);
      this.languages.set(key, language);
    }
    return language;
  }

  /** The automata of a rule list (or of any rules, e.g. for a list edited by a fix) under a runtime of this analysis. */
  ruleTables(runtime: Runtime, inputs: readonly PermissionRuleInput[], key?: string): RuleTables {
    const cacheKey = key === undefined ? undefined : `${runtime.id}\u0000${key}`;
    const hit = cacheKey === undefined ? undefined : this.tables.get(cacheKey);
    if (hit) return hit;
    const tables = new RuleTables(runtime, inputs, this.space, (p) => this.language(runtime, p));
    if (cacheKey !== undefined) this.tables.set(cacheKey, tables);
    return tables;
  }

  tablesOf(list: RuleListSpec, runtime: Runtime = this.model.runtime): RuleTables {
    return this.ruleTables(runtime, list.rules.map((r) => r.input), `list${this.listIds.get(list) ?? -1}`);
  }

  /**
   * One walk over every rule of every list under the config's runtime (so parent and subagent lists are compared
   * on the same paths). `too-big` when it does not fit the budget: the rules are then analysed one by one.
   */
  private primaryOutcomes(): { readings: Map<RuleListSpec, ListReading>; outcomes: RealisedOutcome[] } | undefined {
    if (this.primary === undefined) {
      const lists = allRuleLists(this.model);
      const runtime = this.model.runtime;
      try {
        const { tracks, outcomes } = realiseOutcomes(
          this.space,
          lists.map((list) => ({ list, tables: this.tablesOf(list) })),
          [this.space.table(canonicalPaths(runtime))],
          new Budget(this.productBudget),
        );
        this.primary = { readings: new Map(tracks.map((t) => [t.list, new ListReading(t)])), outcomes };
      } catch (error) {
        if (!(error instanceof BudgetExceeded)) throw error;
        this.primary = "too-big";
      }
    }
    return this.primary === "too-big" ? undefined : this.primary;
  }

  /** The rule-by-rule analysis of a list under the config's runtime. */
  ruleList(list: RuleListSpec): RuleAnswers {
    let answers = this.lists.get(list);
    if (!answers) {
      const primary = this.primaryOutcomes();
      answers = primary ? new ProductRuleAnswers(primary.readings.get(list)!, primary.outcomes) : new RuleListAnalysis(this.tablesOf(list), this.ruleBudget);
      this.lists.set(list, answers);
    }
    return answers;
  }

  /** Paths that `other` decides differently from the config's runtime under the rules of `list`. */
  divergences(list: RuleListSpec, other: Runtime): Divergence[] {
    const key = `${this.listIds.get(list)}\u0000${other.id}`;
    let result = this.divergenceResults.get(key);
    if (!result) {
      const primary = this.model.runtime;
      try {
        const { tracks, outcomes } = realiseOutcomes(
          this.space,
          [{ list, tables: this.tablesOf(list) }, { list, tables: this.tablesOf(list, other) }],
          // The same tool argument, taken as it is by both runtimes (§1.3), in characters both read alike.
          [this.space.table(asTypedPaths(primary)), this.space.table(asTypedPaths(other)), this.space.table(sharedCharacters())],
          new Budget(this.productBudget),
        );
        result = divergencesOf(new ListReading(tracks[0]!), new ListReading(tracks[1]!), outcomes);
        for (const op of ["read", "write"] as const) {
          const unknown = [...this.tablesOf(list).forOperation(op), ...this.tablesOf(list, other).forOperation(op)].find((r) => r.unknown);
          if (unknown) this.noteSkip(list, { ruleIndex: unknown.index, reason: `paths decided from this rule on were not compared across runtimes for ${op}: its pattern ${JSON.stringify(unknown.unknown!.pattern)} was not analysed (${unknown.unknown!.reason})`, checks: ["runtime-divergence"] });
        }
      } catch (error) {
        if (!(error instanceof BudgetExceeded)) throw error;
        result = [];
        this.noteSkipAt(["runtime-divergence"], describeList(list), `comparing ${primary.label} with ${other.label} ${error.message}`, { start: list.node.offset, end: list.node.offset + list.node.length });
      }
      this.divergenceResults.set(key, result);
    }
    return result;
  }

  /**
   * (operation, path) pairs that `parent` denies and `child` does not (`child` undefined: the agent has no rules),
   * for the given operations; `undefined` when that could not be decided within the budget.
   */
  escalations(parent: RuleListSpec, child: RuleListSpec | undefined, operations: readonly Operation[]): ReturnType<typeof escalationsOf> | undefined {
    const primary = this.primaryOutcomes();
    if (!primary) return undefined;
    const childReading = child ? primary.readings.get(child) : undefined;
    return escalationsOf(primary.readings.get(parent)!, childReading, primary.outcomes, operations);
  }

  /** Record what a check could not decide, once per (place, reason). */
  noteSkip(list: RuleListSpec, note: SkipNote): void {
    const rule = list.rules[note.ruleIndex];
    const node = rule?.node ?? list.node;
    this.noteSkipAt(note.checks, `rule ${note.ruleIndex} of ${describeList(list)}`, note.reason, { start: node.offset, end: node.offset + node.length });
  }

  /** Record a skip that is not about one rule (e.g. a pair of agents). */
  noteSkipAt(checks: readonly string[], what: string, why: string, span: Span): void {
    const key = `${what}\u0000${why}`;
    const known = this.skippedEntries.get(key);
    if (known) this.skippedEntries.set(key, { ...known, checks: [...new Set([...known.checks, ...checks])] });
    else this.skippedEntries.set(key, { checks, what, why, span });
  }

  /** Everything not decided so far, in file order. */
  get skipped(): SkippedAnalysis[] {
    for (const [list, analysis] of this.lists) for (const note of analysis.skipped) this.noteSkip(list, note);
    return [...this.skippedEntries.values()].sort((a, b) => a.span.start - b.span.start || a.what.localeCompare(b.what));
  }
}

/** "the top-level permissions", "the permissions of subagent \"auditor\"", "the permissions of middleware #0". */
export function describeList(list: RuleListSpec): string {
  switch (list.owner.kind) {
    case "top-level":
      return "the top-level permissions";
    case "subagent":
      return `the permissions of subagent ${JSON.stringify(list.owner.subagent)}`;
    case "middleware":
      return list.owner.agent === "main"
        ? `the permissions of middleware #${list.owner.middlewareIndex}`
        : `the permissions of middleware #${list.owner.middlewareIndex} of subagent ${JSON.stringify(list.owner.agent)}`;
  }
}

const analyses = new WeakMap<ConfigModel, ModelAnalysis>();

/**
 * The analysis of a config, built once per model. The first caller's options (witness candidates) win; the checks
 * call it with the sample workspace's files.
 */
export function modelAnalysis(model: ConfigModel, runtimes?: readonly Runtime[], options?: AnalysisOptions): ModelAnalysis {
  let analysis = analyses.get(model);
  if (!analysis) {
    const all = runtimes ?? [model.runtime, ...model.compatibleWith.map((c) => c.value)];
    analysis = new ModelAnalysis(model, [...new Set(all)], options);
    analyses.set(model, analysis);
  }
  return analysis;
}

/** What the exact analysis of this config did not decide so far (for the CLI's `skipped` and the language status). */
export function skippedAnalyses(model: ConfigModel): SkippedAnalysis[] {
  return analyses.get(model)?.skipped ?? [];
}

/** The analysis a check uses: the config's runtimes, and the sample workspace's files as preferred witnesses. */
export function analysisForCheck(context: CheckContext): ModelAnalysis {
  return modelAnalysis(context.model, context.runtimes, { candidates: witnessCandidates(context) });
}

/** Sample-workspace paths first, then short paths made of the names the config's own patterns use. */
export function witnessCandidates(context: Pick<CheckContext, "model" | "listDirectory">): string[] {
  const workspace = workspaceCandidates(context);
  const names = new Set<string>();
  const dirs = new Set<string>([""]);
  for (const list of allRuleLists(context.model)) {
    for (const rule of list.rules) {
      for (const p of Array.isArray(rule.input.paths) ? rule.input.paths : []) {
        if (typeof p !== "string" || !p.startsWith("/")) continue;
        const segments = p.split("/").slice(1);
        let dir = "";
        let literal = true;
        segments.forEach((segment, i) => {
          const plain = segment.length > 0 && segment !== "." && segment !== ".." && !/[*?[\]{}()!+@\\|]/.test(segment);
          if (plain && names.size < 40) names.add(segment);
          if (literal && plain && i < segments.length - 1) dirs.add((dir += `/${segment}`));
          else literal = false;
        });
      }
    }
  }
  const synthesized: string[] = [];
  for (const dir of [...dirs].slice(0, 20)) {
    if (dir) synthesized.push(dir);
    for (const name of names) synthesized.push(`${dir}/${name}`);
  }
  synthesized.sort((a, b) => a.length - b.length || a.localeCompare(b));
  return [...new Set([...workspace, ...synthesized])].slice(0, 300);
}

/** The sample workspace's entries as tool paths, shallow first (`/workspace/README.md`, `/workspace/notes/a.md`). */
export function workspaceCandidates(context: Pick<CheckContext, "model" | "listDirectory">): string[] {
  const workspace = context.model.workspace;
  const list = context.listDirectory;
  if (!workspace?.root || !list) return [];
  const mount = workspace.mountAt.replace(/\/+$/, "");
  const found: string[] = [];
  const queue: { dir: string; virtual: string; depth: number }[] = [{ dir: workspace.root.value, virtual: mount, depth: 0 }];
  while (queue.length > 0 && found.length < 200) {
    const { dir, virtual, depth } = queue.shift()!;
    const entries = list(dir);
    if (!entries) continue;
    for (const name of [...entries].sort()) {
      const path = `${virtual}/${name}`;
      found.push(path);
      if (depth < 2) queue.push({ dir: `${dir.replace(/\/+$/, "")}/${name}`, virtual: path, depth: depth + 1 });
    }
  }
  return [...found.slice(0, 200), ...(mount ? [mount] : [])];
}
