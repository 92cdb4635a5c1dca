import type { DFA } from "refa";
import { allRuleLists, type ConfigModel, type RuleListSpec } from "../config/model";
import type { PermissionRuleInput } from "../permissions/ruleList";
import type { Runtime } from "../runtime/runtime";
import type { CheckContext } from "../checks/check";
import type { Span } from "../text";
import { DEFAULT_PATTERN_BUDGET, DEFAULT_RULE_BUDGET, type BudgetLimits } from "./budget";
import { divergences, type Divergence } from "./divergence";
import { canonicalPaths, patternLanguage, readablePaths, sharedCharacters, type PatternLanguage } from "./languages";
import { RuleListAnalysis, type SkipNote } from "./ruleListAnalysis";
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
  readonly ruleBudget?: BudgetLimits;
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
  private readonly lists = new Map<RuleListSpec, RuleListAnalysis>();
  private readonly divergenceResults = new Map<string, Divergence[]>();
  private readonly skippedEntries = new Map<string, SkippedAnalysis>();
  private readonly listIds = new Map<RuleListSpec, number>();
  private readonly ruleBudget: BudgetLimits;

  constructor(readonly model: ConfigModel, readonly runtimes: readonly Runtime[], options: AnalysisOptions = {}) {
    this.ruleBudget = options.ruleBudget ?? DEFAULT_RULE_BUDGET;
    const patternBudget = options.patternBudget ?? DEFAULT_PATTERN_BUDGET;
    const dfas = new Set<DFA>();
    allRuleLists(model).forEach((list, i) => this.listIds.set(list, i));
    for (const runtime of runtimes) {
      dfas.add(canonicalPaths(runtime));
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

  /** The rule-by-rule analysis of a list under the config's runtime. */
  ruleList(list: RuleListSpec): RuleListAnalysis {
    let analysis = this.lists.get(list);
    if (!analysis) {
      analysis = new RuleListAnalysis(this.tablesOf(list), this.ruleBudget);
      this.lists.set(list, analysis);
    }
    return analysis;
  }

  /** Paths that `other` decides differently from the config's runtime under the rules of `list`. */
  divergences(list: RuleListSpec, other: Runtime): Divergence[] {
    const key = `${this.listIds.get(list)}\u0000${other.id}`;
    let result = this.divergenceResults.get(key);
    if (!result) {
      const { found, skipped } = divergences(this.tablesOf(list), this.tablesOf(list, other), this.ruleBudget);
      result = found;
      this.divergenceResults.set(key, result);
      for (const note of skipped) this.noteSkip(list, { ...note, checks: ["runtime-divergence"] });
    }
    return result;
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
  return modelAnalysis(context.model, context.runtimes, { candidates: workspaceCandidates(context) });
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
