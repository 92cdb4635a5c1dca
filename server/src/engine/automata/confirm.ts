import type { RuleListSpec } from "../config/model";
import { CompiledRuleList } from "../permissions/ruleList";
import type { CompiledPattern, Operation, Runtime } from "../runtime/runtime";
import { decisionOf, type Decision } from "./ruleTables";
import { cachesPerOwner, registeredMap, weakCache } from "../caches";

/**
 * The last line of defence: every witness the analysis reports is first confirmed with the engine's own decision
 * function (permissions/ruleList.ts) and the runtime's canonicalisation. A witness that does not confirm is never
 * shown; the disagreement goes to the `skipped` list instead.
 */
/** Decisions of a list as the runtime computes them (permissions/ruleList.ts), for confirming witnesses. */
export class Confirm {
  private decisions: CompiledRuleList | undefined;
  /** Per operation, the patterns `firstMatch` tries (`patternsFor`). */
  private readonly byOperation = new Map<Operation, ListedPatterns>();
  constructor(readonly runtime: Runtime, readonly list: RuleListSpec) {}

  // Compiled on the first witness: a list with nothing to confirm (one too large for the analysis to read) never
  // pays for compiling all its rules, once per check.
  private get compiled(): CompiledRuleList {
    return (this.decisions ??= compiledList(this.runtime, this.list.rules.map((r) => r.input)));
  }

  /** The runtime takes this tool argument exactly as it is. */
  typedAsIs(path: string): boolean {
    const c = this.runtime.canonicalToolPath(path, true);
    return c.ok && c.path === path;
  }

  /** Some tool argument reaches the matcher as exactly this path (see `toolArgumentFor`). */
  canonical(path: string): boolean {
    return toolArgumentFor(this.runtime, path) !== undefined;
  }

  decide(op: Operation, path: string): { decision: Decision | "error"; ruleIndex: number } {
    const d = this.compiled.decide(op, path);
    return { decision: d.failure ? "error" : d.decision, ruleIndex: d.ruleIndex };
  }

  /** Does rule `index` match `path` for `op` (its operations cover `op` and one of its patterns matches)? */
  ruleMatches(index: number, op: Operation, path: string): boolean {
    const rule = this.list.rules[index]?.input;
    if (!rule || !this.runtime.operationsCover(rule.operations, op) || !Array.isArray(rule.paths)) return false;
    return rule.paths.some((p) => typeof p === "string" && p.length > 0 && matchesPath(this.pattern(p), path));
  }

  /**
   * The decision with rule `index` removed from the list (rule numbers as in the full list): the same first-match
   * scan as permissions/ruleList.ts, over the other rules.
   */
  decideWithout(index: number, op: Operation, path: string): { decision: Decision | "error"; ruleIndex: number } {
    const full = this.compiled.decide(op, path);
    if (full.ruleIndex !== index) return { decision: full.failure ? "error" : full.decision, ruleIndex: full.ruleIndex };
    return this.firstMatch((rule) => rule <= index, op, path);
  }

  /** The decision with every rule of `gone` removed from the list (rule numbers as in the full list). */
  decideWithoutAll(gone: ReadonlySet<number>, op: Operation, path: string): { decision: Decision | "error"; ruleIndex: number } {
    return this.firstMatch((rule) => gone.has(rule), op, path);
  }

  /** First match wins over the rules `leftOut` keeps (it says which to leave out); a refused pattern decides "error". */
  private firstMatch(leftOut: (ruleIndex: number) => boolean, op: Operation, path: string): { decision: Decision | "error"; ruleIndex: number } {
    const { rules, patterns, decisions } = this.patternsFor(op);
    for (let e = 0; e < rules.length; e++) {
      const rule = rules[e]!;
      if (leftOut(rule)) continue;
      const compiled = patterns[e]!;
      if (compiled.unusable) return { decision: "error", ruleIndex: rule };
      if (matchesPath(compiled, path)) return { decision: decisions[e]!, ruleIndex: rule };
    }
    return { decision: "allow", ruleIndex: -1 };
  }

  /**
   * The patterns `firstMatch` tries for `op`, in order, each with its rule's index: the rules covering `op` with a
   * `paths` array, their non-empty strings. Listed once per list: a group of removals confirms a few hundred paths
   * against a thousand rules, and looking each pattern up again for each was most of that.
   */
  private patternsFor(op: Operation): ListedPatterns {
    let listed = this.byOperation.get(op);
    if (!listed) {
      listed = { rules: [], patterns: [], decisions: [] };
      for (const rule of this.list.rules) {
        if (!this.runtime.operationsCover(rule.input.operations, op) || !Array.isArray(rule.input.paths)) continue;
        for (const p of rule.input.paths) {
          if (typeof p !== "string" || p.length === 0) continue;
          listed.rules.push(rule.index);
          listed.patterns.push(this.pattern(p));
          listed.decisions.push(decisionOf(this.runtime, rule.input.mode));
        }
      }
      this.byOperation.set(op, listed);
    }
    return listed;
  }

  /** The runtime's compiled pattern (cached across checks). */
  pattern(p: string): CompiledPattern {
    return cachedPattern(this.runtime, p);
  }
}

/** `Confirm.patternsFor`: per pattern tried, its rule's index, the runtime's compiled pattern and the rule's decision. */
interface ListedPatterns {
  readonly rules: number[];
  readonly patterns: CompiledPattern[];
  readonly decisions: Decision[];
}

/** The runtime's compiled pattern, shared by every confirmation (and kept across checks: most patterns survive an edit). */
function cachedPattern(runtime: Runtime, p: string): CompiledPattern {
  const byPattern = compiledPatterns.of(runtime);
  return byPattern.get(p) ?? byPattern.set(p, runtime.compilePattern(p));
}

/**
 * The runtime, but compiling each pattern once for all the rule lists built to confirm witnesses: an edit rebuilds
 * the edited list, and its unchanged patterns keep their matchers (deepagents-py's build a faster automaton of their
 * own after their first runs). Everything else is the runtime's own.
 */
const sharingRuntimes = weakCache<Runtime, Runtime>("automata/confirm.sharingRuntimes");
function sharingPatterns(runtime: Runtime): Runtime {
  let sharing = sharingRuntimes.get(runtime);
  if (!sharing) {
    sharing = Object.create(runtime, { compilePattern: { value: (p: string) => cachedPattern(runtime, p) } }) as Runtime;
    sharingRuntimes.set(runtime, sharing);
  }
  return sharing;
}

/**
 * A tool argument the runtime turns into exactly `path` before matching: the path itself when the runtime leaves it
 * unchanged (always in deepagents-js, and for ordinary paths in deepagents-py). deepagents-py's `validate_path` turns
 * `\` into `/` *after* normalising, so a path such as `/a/` or `/a/./b` only arises from an argument like `/a\` or
 * `/a\.\b` (and `/.` from `""`); those are found here and checked. `undefined` when no argument gives the path.
 */
export function toolArgumentFor(runtime: Runtime, path: string): string | undefined {
  const tries = [path, path.length > 1 ? `/${path.slice(1).replace(/\//g, "\\")}` : path, ""];
  for (const argument of tries) {
    const c = runtime.canonicalToolPath(argument, true);
    if (c.ok && c.path === path) return argument;
  }
  return undefined;
}

/** Per runtime (the object: a test may build another with the same id), by pattern. */
const compiledPatterns = cachesPerOwner<Runtime, string, CompiledPattern>("automata/confirm.compiledPatterns", { entries: 5000 });

/** Compiled rule lists of recent checks, by content: re-checks of unchanged rules do not recompile every pattern. */
const compiledLists = registeredMap("automata/confirm.compiledLists", "16 rule lists, the least recently used dropped", new Map<string, CompiledRuleList>());

/** The runtime's matcher, asked only of paths that start with the pattern's literal prefix (every path it matches does). */
function matchesPath(compiled: CompiledPattern, path: string): boolean {
  return path.startsWith(compiled.literalPrefix) && compiled.matches(path);
}

function compiledList(runtime: Runtime, inputs: CompiledRuleList["rules"]): CompiledRuleList {
  const key = `${runtime.id}\u0000${JSON.stringify(inputs)}`;
  let compiled = compiledLists.get(key);
  if (!compiled) {
    // A few hundred confirmations per list: the folder index and the (shared, warm) matchers answer them
    // sooner than the list's own automata are built. The same decisions either way (permissions/ruleList.ts).
    compiled = new CompiledRuleList(sharingPatterns(runtime), inputs, { noAutomaton: true });
    if (compiledLists.size >= 16) compiledLists.delete(compiledLists.keys().next().value!);
  } else {
    compiledLists.delete(key);
  }
  compiledLists.set(key, compiled);
  return compiled;
}
