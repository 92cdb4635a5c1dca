import { describeList, quotedText } from "../config/describe";
import type { DFA } from "refa";
import { allRuleLists, type ConfigModel, type RuleListSpec } from "../config/model";
import type { PermissionRuleInput } from "../permissions/ruleList";
import type { Operation, Runtime } from "../runtime/runtime";
import type { Skipped } from "../diagnostics";
import type { Span } from "../text";
import { Budget, BudgetExceeded, DEFAULT_PATTERN_BUDGET, DEFAULT_PRODUCT_BUDGET, DEFAULT_RULE_BUDGET, WorkAllowance, type BudgetLimits } from "./budget";
import { asTypedPaths, canonicalPaths, patternLanguage, readablePaths, sharedCharacters, type PatternLanguage } from "./languages";
import { divergencesOf, escalationsOf, ListReading, moveIsSafe, realiseOutcomes, removableTogether, ruleAnalyses, type Divergence, type RealisedOutcome } from "./outcomes";
import { RuleListAnalysis, type RuleAnalysis, type SkipNote } from "./ruleListAnalysis";
import { decisionOf, RuleTables } from "./ruleTables";
import { PathSpace } from "./space";
import { memo, registeredMap } from "../caches";
import { onCancelled } from "../cancellation";

/** Something the exact analysis did not decide, said once: the engine's `Skipped` (diagnostics.ts). */
export type SkippedAnalysis = Skipped;

export interface AnalysisOptions {
  /** Sample-workspace files, as tool paths (`/workspace/README.md`), best first: tried first as witnesses. */
  readonly candidates?: readonly string[];
  readonly patternBudget?: BudgetLimits;
  /** For the walk over all rules at once (automata/product.ts). */
  readonly productBudget?: BudgetLimits;
  /** For one rule's questions when the walk over all rules did not fit its budget. */
  readonly ruleBudget?: BudgetLimits;
  /** What the whole file's analysis may read and do (default `DEFAULT_FILE_LIMITS`; tests lower it). */
  readonly fileLimits?: FileLimits;
}

/**
 * The exact analysis of one file works within these, whatever the file holds, and lists what they leave out under
 * `skipped` (one entry per rule list it does not read). Both are counts, never times: the same file gets the same
 * findings on any machine, however busy.
 */
export interface FileLimits {
  /**
   * Rules read, each counted once per runtime it is read under (`runtime` and each `compatibleWith` entry). Rule
   * lists are read whole, in file order; a list that would take the count past this is not read at all (a list read
   * in part would leave its later rules deciding nothing, and every finding about removing a rule wrong).
   */
  readonly rules: number;
  /**
   * Steps of work (`WorkAllowance`). The patterns of the lists read may use half of it (a list whose patterns would
   * pass that half is not read, like one over `rules`); the walks over their rules use what is left.
   */
  readonly steps: number;
}

/**
 * Sized on the benchmark's generated configs (bench/README.md, section 8, "Large files"): a config of 1,000 rules
 * checked against both runtimes (2,000 rule readings) is read whole, and the largest file the CLI reads (4 MB, some
 * 65,000 rules) is checked within the bounds of time and memory.
 */
export const DEFAULT_FILE_LIMITS: FileLimits = { rules: 2_500, steps: 24_000_000 };

/**
 * What a pattern's automata count for, in steps of a walk: each (runtime, pattern) compiled costs PATTERN_STEPS
 * (parsing and checking the regular expression and setting up two subset constructions cost about the same whatever
 * the pattern) and PATTERN_STATE_STEPS per unit of `PatternLanguage.cost` (the states of the result). Calibrated on
 * the benchmark's 1,000-rule config and on a list of overlapping anywhere-patterns (bench/README.md, section 8).
 */
const PATTERN_STEPS = 4_000;
const PATTERN_STATE_STEPS = 12;

/** How many lists not read get an entry of their own in `skipped`; the rest share one. */
const UNREAD_LISTS_SAID = 3;

/** The checks that read the exact analysis's answers about a rule list. */
const LIST_CHECKS = ["rule-shadowed", "rule-redundant", "rule-partially-shadowed", "runtime-divergence", "subagent-escalation"];

/** The answers about one rule list's rules, however they were computed. */
export interface RuleAnswers {
  rule(index: number): RuleAnalysis;
  /** The first earlier rule that shares a path with rule `index` (the reorder fix's target). */
  firstOverlappingEarlier(index: number): number | undefined;
  /** Moving rule `from` above rule `to` changes no decision outside its own paths and makes it decide them all. */
  proveMove(from: number, to: number): boolean;
  /**
   * Of `candidates` (rules each of which, alone, can go without changing a decision), the ones that can all go
   * together: taken in the order given, each kept when removing it with those kept before changes no decision.
   * `shadowed` rules become candidates once the removals leave them unshadowed (automata/outcomes.ts).
   */
  removableTogether(candidates: readonly number[], shadowed?: readonly number[]): number[];
  readonly skipped: readonly SkipNote[];
}

/** The answers about a list the analysis did not read (`FileLimits`): every rule skipped, said once for the list. */
class UnreadRuleAnswers implements RuleAnswers {
  readonly skipped: readonly SkipNote[] = [];
  constructor(private readonly list: RuleListSpec, private readonly runtime: Runtime, private readonly reason: string) {}
  rule(index: number): RuleAnalysis {
    return { index, decision: decisionOf(this.runtime, this.list.rules[index]?.input.mode), operations: [], verdict: { kind: "skipped", reason: this.reason } };
  }
  firstOverlappingEarlier(): number | undefined {
    return undefined;
  }
  proveMove(): boolean {
    return false;
  }
  removableTogether(): number[] {
    return [];
  }
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
  private readonly moves = new Map<string, boolean>();
  proveMove(from: number, to: number): boolean {
    const key = `${from}:${to}`;
    let safe = this.moves.get(key);
    if (safe === undefined) this.moves.set(key, (safe = moveIsSafe(this.reading, this.outcomes, from, to)));
    return safe;
  }
  removableTogether(candidates: readonly number[], shadowed: readonly number[] = []): number[] {
    return removableTogether(this.reading, this.outcomes, candidates, shadowed);
  }
}

/**
 * The exact analysis of every rule list of one config, shared by the checks that use it (they run one after the
 * other on the same model) and by `explain`, hovers and the CLI's `skipped` list. One alphabet and one set of
 * automata serve every question about the config.
 */
/**
 * Everything computed about a set of rule lists (by position), shared by every model whose rules, runtimes and
 * witness candidates are the same: the language server re-checks the file on every keystroke, and most keystrokes
 * do not touch the rules.
 */
interface Core {
  readonly space: PathSpace;
  /** The file's work allowance: charged by everything computed into this core, once. */
  readonly allowance: WorkAllowance;
  /** Lists (by position) the analysis does not read, with why (`FileLimits`). */
  readonly unread: ReadonlyMap<number, string>;
  readonly languages: Map<string, PatternLanguage>;
  readonly tables: Map<string, RuleTables>;
  primary: { readings: ListReading[]; outcomes: RealisedOutcome[] } | "too-big" | undefined;
  readonly answers: Map<number, RuleAnswers>;
  readonly divergences: Map<string, { found: Divergence[]; notes: { list: number; note: SkipNote }[]; tooBig?: string }>;
  /** escalationsOf's answers by (parent list, child list, operations): they read every outcome of the walk. */
  readonly escalations: Map<string, ReturnType<typeof escalationsOf>>;
}

const cores = registeredMap("automata/modelAnalysis.cores", "8 configs, the least recently used dropped", new Map<string, Core>());
const CORE_CACHE_SIZE = 8;
// A stopped analysis may leave its config's core with tables half built: forget the cores (compiled patterns stay).
onCancelled(() => cores.clear());

/** Forget the results kept for unchanged rules (compiled patterns stay; `clearCaches` empties every cache). */
export function clearAnalysisResults(): void {
  cores.clear();
}

export class ModelAnalysis {
  private readonly core: Core;
  private readonly productBudget: BudgetLimits;
  private readonly skippedEntries = new Map<string, SkippedAnalysis>();
  private readonly listIds = new Map<RuleListSpec, number>();
  private readonly lists: RuleListSpec[];
  private readonly ruleBudget: BudgetLimits;

  constructor(readonly model: ConfigModel, readonly runtimes: readonly Runtime[], options: AnalysisOptions = {}) {
    this.ruleBudget = options.ruleBudget ?? DEFAULT_RULE_BUDGET;
    this.productBudget = options.productBudget ?? DEFAULT_PRODUCT_BUDGET;
    const patternBudget = options.patternBudget ?? DEFAULT_PATTERN_BUDGET;
    const limits = options.fileLimits ?? DEFAULT_FILE_LIMITS;
    this.lists = allRuleLists(model);
    this.lists.forEach((list, i) => this.listIds.set(list, i));
    const key = JSON.stringify([
      runtimes.map((r) => r.id),
      options.candidates ?? [],
      [patternBudget, this.ruleBudget, this.productBudget, limits],
      this.lists.map((list) => list.rules.map((r) => [r.input.operations, r.input.paths, r.input.mode ?? null])),
    ]);
    const known = cores.get(key);
    if (known) {
      // Most recently used last.
      cores.delete(key);
      cores.set(key, known);
      this.core = known;
    } else {
      this.core = this.buildCore(runtimes, options, patternBudget, limits);
      if (cores.size >= CORE_CACHE_SIZE) cores.delete(cores.keys().next().value!);
      cores.set(key, this.core);
    }
    // One entry per list not read; past the first few, one for the rest (a file of thousands of subagents with a
    // rule each would otherwise say the same thing hundreds of times).
    const unread = [...this.core.unread];
    // dotfiles-unprotected reads the same lists (deepagents-py's hidden names) and leaves out the ones this does not.
    const checks = runtimes.some((r) => r.wildcardsSkipDotNames) ? [...LIST_CHECKS, "dotfiles-unprotected"] : LIST_CHECKS;
    unread.forEach(([index, why], k) => {
      const list = this.lists[index]!;
      const span = { start: list.node.offset, end: list.node.offset + list.node.length };
      if (k < UNREAD_LISTS_SAID || unread.length === UNREAD_LISTS_SAID + 1) this.noteSkipAt(checks, describeList(list), why, span);
      else if (k === UNREAD_LISTS_SAID) this.noteSkipAt(checks, `${unread.length - k} more rule lists, from ${describeList(list)} on`, `each would take the exact analysis past what it reads per file: ${limits.rules.toLocaleString("en")} rules, counting each runtime a rule is read under, and ${limits.steps.toLocaleString("en")} steps of work`, span);
    });
  }

  /**
   * The alphabet and automata of the lists the file's limits let the analysis read: lists in file order, each read
   * whole or not at all, until the rules read or the patterns' work would pass `limits`.
   */
  private buildCore(runtimes: readonly Runtime[], options: AnalysisOptions, patternBudget: BudgetLimits, limits: FileLimits): Core {
    const allowance = new WorkAllowance(limits.steps);
    const patternSteps = Math.floor(limits.steps / 2);
    const languages = new Map<string, PatternLanguage>();
    const unread = new Map<number, string>();
    const dfas = new Set<DFA>();
    for (const runtime of runtimes) {
      dfas.add(canonicalPaths(runtime));
      dfas.add(asTypedPaths(runtime));
      dfas.add(readablePaths(runtime));
    }
    let rulesRead = 0;
    let patternCost = 0;
    const runtimeCount = Math.max(1, runtimes.length);
    const under = runtimes.length > 1 ? ` (each read under ${runtimes.length} runtimes)` : "";
    this.lists.forEach((list, index) => {
      const readings = list.rules.length * runtimeCount;
      if (rulesRead + readings > limits.rules) {
        unread.set(index, `the exact analysis reads at most ${limits.rules.toLocaleString("en")} rules per file, counting each runtime a rule is read under, and this list's ${list.rules.length.toLocaleString("en")} rule${list.rules.length === 1 ? "" : "s"}${under} would pass that`);
        return;
      }
      const found: PatternLanguage[] = [];
      let cost = 0;
      compiling: for (const runtime of runtimes) {
        for (const rule of list.rules) {
          for (const p of Array.isArray(rule.input.paths) ? rule.input.paths : []) {
            if (typeof p !== "string" || p.length === 0) continue;
            // A pattern the file repeats is compiled once, and counted once.
            const known = languages.has(`${runtime.id}\u0000${p}`);
            const language = languageIn(languages, runtime, p, patternBudget);
            found.push(language);
            if (!known) cost += PATTERN_STEPS + language.cost * PATTERN_STATE_STEPS;
            // A list whose patterns alone pass the limit (one rule may have thousands) stops being compiled at once.
            if (patternCost + cost > patternSteps) break compiling;
          }
        }
      }
      if (patternCost + cost > patternSteps) {
        unread.set(index, `the automata of its patterns would take the exact analysis of this file past the ${limits.steps.toLocaleString("en")} steps of work it may do`);
        return;
      }
      rulesRead += readings;
      patternCost += cost;
      for (const language of found) if (language.ok) for (const dfa of language.dfas) dfas.add(dfa);
    });
    allowance.charge(patternCost);
    if (runtimes.length > 1) dfas.add(sharedCharacters());
    const space = new PathSpace(dfas, options.candidates ?? [], readablePaths(runtimes[0] ?? this.model.runtime));
    return { space, allowance, unread, languages, tables: new Map(), primary: undefined, answers: new Map(), divergences: new Map(), escalations: new Map() };
  }

  /** Whether the file's work allowance ran out: then what was left undecided depends on which check asked first. */
  get workExhausted(): boolean {
    return this.core.allowance.exhausted;
  }

  /** Steps of work the file's analysis has done so far (its `WorkAllowance`): for tests that bound it. */
  get workDone(): number {
    return this.core.allowance.spent;
  }

  /** Whether the analysis reads this list (`FileLimits`); a list it does not read is listed under `skipped`. */
  reads(list: RuleListSpec): boolean {
    return !this.core.unread.has(this.indexOf(list));
  }

  /** A budget for one piece of this file's analysis: its own limits, and a share of the file's work allowance. */
  budget(limits: BudgetLimits): Budget {
    return new Budget(limits, undefined, this.core.allowance);
  }

  get space(): PathSpace {
    return this.core.space;
  }

  /** The automata of a rule list (or of any rules, e.g. for a list edited by a fix) under a runtime of this analysis. */
  ruleTables(runtime: Runtime, inputs: readonly PermissionRuleInput[], key?: string): RuleTables {
    const cacheKey = key === undefined ? undefined : `${runtime.id}\u0000${key}`;
    const hit = cacheKey === undefined ? undefined : this.core.tables.get(cacheKey);
    if (hit) return hit;
    const tables = new RuleTables(runtime, inputs, this.space, (p) => languageIn(this.core.languages, runtime, p));
    if (cacheKey !== undefined) this.core.tables.set(cacheKey, tables);
    return tables;
  }

  tablesOf(list: RuleListSpec, runtime: Runtime = this.model.runtime): RuleTables {
    return this.ruleTables(runtime, list.rules.map((r) => r.input), `list${this.listIds.get(list) ?? -1}`);
  }

  private indexOf(list: RuleListSpec): number {
    const index = this.listIds.get(list);
    if (index === undefined) throw new Error("ModelAnalysis: this rule list is not part of the model");
    return index;
  }

  /**
   * One walk over every rule of every list under the config's runtime (so parent and subagent lists are compared
   * on the same paths). `too-big` when it does not fit the budget: the rules are then analysed one by one.
   */
  private primaryOutcomes(): { readings: ListReading[]; outcomes: RealisedOutcome[] } | undefined {
    if (this.core.primary === undefined) {
      const runtime = this.model.runtime;
      try {
        // The lists the analysis reads; `readings` is indexed by list position (sparse where a list is not read).
        const read = this.lists.flatMap((list, index) => (this.core.unread.has(index) ? [] : [{ list, index }]));
        const { tracks, outcomes } = realiseOutcomes(
          this.space,
          read.map(({ list }) => ({ list, tables: this.tablesOf(list) })),
          [this.space.table(canonicalPaths(runtime))],
          this.budget(this.productBudget),
        );
        const readings: ListReading[] = [];
        read.forEach(({ index }, k) => (readings[index] = new ListReading(tracks[k]!)));
        this.core.primary = { readings, outcomes };
      } catch (error) {
        if (!(error instanceof BudgetExceeded)) throw error;
        this.core.primary = "too-big";
      }
    }
    return this.core.primary === "too-big" ? undefined : this.core.primary;
  }

  /** The rule-by-rule analysis of a list under the config's runtime. */
  ruleList(list: RuleListSpec): RuleAnswers {
    const index = this.indexOf(list);
    let answers = this.core.answers.get(index);
    if (!answers) {
      const unread = this.core.unread.get(index);
      const primary = unread === undefined ? this.primaryOutcomes() : undefined;
      answers =
        unread !== undefined
          ? new UnreadRuleAnswers(list, this.model.runtime, unread)
          : primary
            ? new ProductRuleAnswers(primary.readings[index]!, primary.outcomes)
            : new RuleListAnalysis(this.tablesOf(list), this.ruleBudget, undefined, this.core.allowance);
      this.core.answers.set(index, answers);
    }
    return answers;
  }

  /** Paths that `other` decides differently from the config's runtime under the rules of `list`. */
  divergences(list: RuleListSpec, other: Runtime): Divergence[] {
    const index = this.indexOf(list);
    const key = `${index}\u0000${other.id}`;
    // A list not read is listed under `skipped` as a whole.
    if (this.core.unread.has(index)) return [];
    let result = this.core.divergences.get(key);
    if (!result) {
      const primary = this.model.runtime;
      result = { found: [], notes: [] };
      try {
        const { tracks, outcomes } = realiseOutcomes(
          this.space,
          [{ list, tables: this.tablesOf(list) }, { list, tables: this.tablesOf(list, other) }],
          // The same tool argument, taken as it is by both runtimes (docs/reference/paths.md), in characters both read alike.
          [this.space.table(asTypedPaths(primary)), this.space.table(asTypedPaths(other)), this.space.table(sharedCharacters())],
          this.budget(this.productBudget),
          // divergencesOf reads only who decides, in each runtime.
          true,
        );
        result.found = divergencesOf(new ListReading(tracks[0]!), new ListReading(tracks[1]!), outcomes);
        for (const op of ["read", "write"] as const) {
          const unknown = [...this.tablesOf(list).forOperation(op), ...this.tablesOf(list, other).forOperation(op)].find((r) => r.unknown);
          if (unknown) result.notes.push({ list: index, note: { ruleIndex: unknown.index, reason: `paths decided from this rule on were not compared across runtimes for ${op}: its pattern ${quotedText(unknown.unknown!.pattern)} was not analysed (${unknown.unknown!.reason})`, checks: ["runtime-divergence"] } });
        }
      } catch (error) {
        if (!(error instanceof BudgetExceeded)) throw error;
        result.tooBig = `comparing ${primary.label} with ${other.label} ${error.message}`;
      }
      this.core.divergences.set(key, result);
    }
    for (const { note } of result.notes) this.noteSkip(list, note);
    if (result.tooBig) this.noteSkipAt(["runtime-divergence"], describeList(list), result.tooBig, { start: list.node.offset, end: list.node.offset + list.node.length });
    return result.found;
  }

  /**
   * (operation, path) pairs that `parent` denies and `child` does not (`child` undefined: the agent has no rules),
   * for the given operations; `undefined` when that could not be decided within the budget.
   */
  escalations(parent: RuleListSpec, child: RuleListSpec | undefined, operations: readonly Operation[]): ReturnType<typeof escalationsOf> | undefined {
    if (!this.reads(parent) || (child && !this.reads(child))) return undefined;
    const primary = this.primaryOutcomes();
    if (!primary) return undefined;
    const key = `${this.indexOf(parent)}:${child ? this.indexOf(child) : -1}:${operations.join(",")}`;
    let found = this.core.escalations.get(key);
    if (!found) {
      const childReading = child ? primary.readings[this.indexOf(child)] : undefined;
      found = escalationsOf(primary.readings[this.indexOf(parent)]!, childReading, primary.outcomes, operations);
      this.core.escalations.set(key, found);
    }
    return found;
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
    for (const [index, analysis] of this.core.answers) for (const note of analysis.skipped) this.noteSkip(this.lists[index]!, note);
    return coalesceRuleRuns([...this.skippedEntries.values()].sort((a, b) => a.span.start - b.span.start || a.what.localeCompare(b.what)));
  }
}

/**
 * Consecutive rules of one list skipped for the same reason by the same checks, as one entry ("rules 29 to 549 of
 * the top-level permissions"): a list that ran out of time skips every rule after that point, and one line each
 * was hundreds of lines saying the same thing.
 */
export function coalesceRuleRuns(entries: readonly SkippedAnalysis[]): SkippedAnalysis[] {
  const out: SkippedAnalysis[] = [];
  let run: { first: number; last: number; list: string; entry: SkippedAnalysis } | undefined;
  const flush = () => {
    if (!run) return;
    const rules = run.last === run.first + 1 ? `rules ${run.first} and ${run.last}` : `rules ${run.first} to ${run.last}`;
    out.push(run.first === run.last ? run.entry : { ...run.entry, what: `${rules} of ${run.list}` });
    run = undefined;
  };
  for (const entry of entries) {
    const rule = /^rule (\d+) of (.+)$/.exec(entry.what);
    const index = rule ? Number(rule[1]) : -1;
    if (rule && run && run.list === rule[2] && index === run.last + 1 && entry.why === run.entry.why && entry.checks.join() === run.entry.checks.join()) {
      run.last = index;
      run.entry = { ...run.entry, span: { start: run.entry.span.start, end: entry.span.end } };
      continue;
    }
    flush();
    if (rule) run = { first: index, last: index, list: rule[2]!, entry };
    else out.push(entry);
  }
  flush();
  return out;
}

function languageIn(languages: Map<string, PatternLanguage>, runtime: Runtime, pattern: string, limits: BudgetLimits = DEFAULT_PATTERN_BUDGET): PatternLanguage {
  const key = `${runtime.id}\u0000${pattern}`;
  let language = languages.get(key);
  if (!language) {
    language = patternLanguage(runtime, pattern, limits);
    languages.set(key, language);
  }
  return language;
}

// "the top-level permissions", "the permissions of subagent \"auditor\"", …: the engine's words for a rule list
// (config/describe.ts), shared with the fast checks; re-exported for the analysis's callers.
export { describeList } from "../config/describe";

const analyses = memo<ConfigModel, ModelAnalysis>("automata/modelAnalysis.modelAnalysis");

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

/**
 * Whether the analysis of this config (if any) ran out of its file's work allowance: the results it keeps for the
 * same rules are then those of the checks that asked first, and a check that asks in another order (fix-all's
 * rounds run only some checks, `checkConfigText`'s `fixRound`) must start afresh (`clearAnalysisResults`).
 */
export function analysisWorkExhausted(model: ConfigModel): boolean {
  return analyses.get(model)?.workExhausted ?? false;
}

/** What the exact analysis of this config did not decide so far (for the CLI's `skipped` and the language status). */
export function skippedAnalyses(model: ConfigModel): SkippedAnalysis[] {
  return analyses.get(model)?.skipped ?? [];
}

/** What a check's analysis is asked for: a check's context has these (checks/check.ts `CheckContext`). */
export interface AnalysisRequest {
  readonly model: ConfigModel;
  /** The config's runtimes, its own first. */
  readonly runtimes: readonly Runtime[];
  /** Names of a folder's entries, for the sample workspace's witnesses (absent: none). */
  readonly listDirectory?: (relativePath: string) => string[] | undefined;
}

/** The analysis a check uses: the config's runtimes, and the sample workspace's files as preferred witnesses. */
export function analysisForCheck(context: AnalysisRequest): ModelAnalysis {
  // Every analysis check asks, and only the first one's candidates are used: list the workspace once per model.
  const known = analyses.get(context.model);
  if (known) return known;
  return modelAnalysis(context.model, context.runtimes, { candidates: witnessCandidates(context) });
}

/** The longest name of a pattern that witness candidates are made of (file systems allow 255 bytes). */
const CANDIDATE_NAME_MAX = 255;

/** Sample-workspace paths first, then short paths made of the names the config's own patterns use. */
export function witnessCandidates(context: Pick<AnalysisRequest, "model" | "listDirectory">): string[] {
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
          // Witnesses are meant to be read: a name longer than any real file name is no candidate (nor a folder
          // under it), and a candidate of 100,000 characters made every walk's candidate pass slow.
          const plain = segment.length > 0 && segment.length <= CANDIDATE_NAME_MAX && segment !== "." && segment !== ".." && !/[*?[\]{}()!+@\\|]/.test(segment);
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
  return [...new Set([...workspace, ...synthesized])].slice(0, 160);
}

/** The sample workspace's entries as tool paths, shallow first (`/workspace/README.md`, `/workspace/notes/a.md`). */
export function workspaceCandidates(context: Pick<AnalysisRequest, "model" | "listDirectory">): string[] {
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
