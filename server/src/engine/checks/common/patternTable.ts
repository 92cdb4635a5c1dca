import type { ConfigModel } from "../../config/model";
import { isPlainPath, type CompiledPattern, type PathProblem, type Runtime } from "../../runtime/runtime";
import type { CheckContext } from "../check";
import { cachesPerOwner, memo } from "../../caches";

/**
 * The patterns of one check run, each compiled at most once per runtime and only when a check first asks, and the
 * construction-time verdict on each path entry. A config repeats the same few patterns across hundreds of rules,
 * and several checks ask about each of them: compiling (a Python pattern above all) was most of `check`'s time.
 */
export class PatternTable {
  private readonly compiled = new Map<Runtime, Map<string, CompiledPattern>>();
  private readonly matchers = new Map<Runtime, Map<string, (path: string) => boolean>>();
  private readonly runtimes = new Map<Runtime, Runtime>();

  compile(runtime: Runtime, pattern: string): CompiledPattern {
    let table = this.compiled.get(runtime);
    if (!table) this.compiled.set(runtime, (table = new Map()));
    let c = table.get(pattern);
    if (!c) table.set(pattern, (c = compileShared(runtime, pattern)));
    return c;
  }

  /**
   * `compile(runtime, pattern).matches`, read off the pattern text for plain paths when the pattern is simple
   * enough (`runtime.simplePatternMatcher`), so that the pattern is compiled only if a path of another kind is asked:
   * building picomatch's regular expression, or wcmatch's translation, and V8 compiling it on its first run is most
   * of what a pattern's first question costs, and the checks ask most of theirs about plain example paths.
   */
  plainMatcher(runtime: Runtime, pattern: string): (path: string) => boolean {
    let table = this.matchers.get(runtime);
    if (!table) this.matchers.set(runtime, (table = new Map()));
    let matcher = table.get(pattern);
    if (!matcher) {
      const simple = runtime.simplePatternMatcher(pattern);
      const slow = (path: string) => this.compile(runtime, pattern).matches(path);
      table.set(pattern, (matcher = simple ? (path) => (isPlainPath(path) ? simple(path) : slow(path)) : slow));
    }
    return matcher;
  }

  /**
   * `runtime.permissionPathProblem(value)`, once per string for the process (a verdict is plain data, so unlike a
   * compiled pattern it needs no table of its own for the run).
   */
  pathProblem(runtime: Runtime, value: unknown): PathProblem | undefined {
    if (typeof value !== "string") return runtime.permissionPathProblem(value);
    return pathProblemShared(runtime, value) ?? undefined;
  }

  /** The runtime with `compilePattern` served from this table (for a `CompiledRuleList`, which compiles its own). */
  through(runtime: Runtime): Runtime {
    let r = this.runtimes.get(runtime);
    if (!r) this.runtimes.set(runtime, (r = { ...runtime, compilePattern: (pattern: string) => this.compile(runtime, pattern) }));
    return r;
  }
}

/**
 * Compiled patterns outlive the run that compiled them. A compiled pattern is a pure function of the runtime and
 * the pattern text, and the language server checks the same file again on every edit, where nearly every pattern
 * is unchanged: recompiling them all (tens of microseconds each, hundreds per file) was most of a re-check. The
 * cache is bounded in entries and in pattern text (a compiled pattern's size follows its text), and simply
 * emptied when full; patterns longer than any real rule are compiled for their run only.
 */
const SHARED_ENTRIES = 8192;
const SHARED_CHARS = 1 << 20;
const SHARED_PATTERN_MAX = 2048;
const SHARED_LIMITS = { entries: SHARED_ENTRIES, weight: SHARED_CHARS, weigh: (text: string) => text.length };
const shared = cachesPerOwner<Runtime, string, CompiledPattern>("checks/patternTable.shared", SHARED_LIMITS);

function compileShared(runtime: Runtime, pattern: string): CompiledPattern {
  if (pattern.length > SHARED_PATTERN_MAX) return runtime.compilePattern(pattern);
  const cache = shared.of(runtime);
  return cache.get(pattern) ?? cache.set(pattern, runtime.compilePattern(pattern));
}

/** Construction-time verdicts outlive their run too, for the same reason and with the same bounds. */
const sharedProblems = cachesPerOwner<Runtime, string, PathProblem | null>("checks/patternTable.sharedProblems", SHARED_LIMITS);

function pathProblemShared(runtime: Runtime, value: string): PathProblem | null {
  if (value.length > SHARED_PATTERN_MAX) return runtime.permissionPathProblem(value) ?? null;
  const cache = sharedProblems.of(runtime);
  const known = cache.get(value);
  return known !== undefined ? known : cache.set(value, runtime.permissionPathProblem(value) ?? null);
}

/** Hosts that build their own context (tests, benches) get one table per model. */
const fallback = memo<ConfigModel, PatternTable>("checks/patternTable.patternTable");

export function patternTable(context: Pick<CheckContext, "model" | "patterns">): PatternTable {
  if (context.patterns) return context.patterns;
  let table = fallback.get(context.model);
  if (!table) fallback.set(context.model, (table = new PatternTable()));
  return table;
}

const probes = cachesPerOwner<Runtime, string, boolean>("checks/patternTable.probes", { entries: 256 });

/**
 * Does `runtime`'s matcher match `path` with `pattern`? For the fixed probes checks use to learn a runtime's
 * behaviour (`/*` against `/.env`, …) rather than naming the runtime: the answer is a fact about the runtime, so
 * it is asked once per process, not compiled again on every run.
 */
export function probeMatcher(runtime: Runtime, pattern: string, path: string): boolean {
  const answers = probes.of(runtime);
  const key = `${pattern}\u0000${path}`;
  let answer = answers.get(key);
  if (answer === undefined) answers.set(key, (answer = runtime.compilePattern(pattern).matches(path)));
  return answer;
}
