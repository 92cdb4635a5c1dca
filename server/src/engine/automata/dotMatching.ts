import { compilePyGlob, hasLiteralAlternative, pyGlobTextLiteralAlternatives, WCMATCH_PIECES, wcmatchFragments, wcmatchFragmentsSource } from "../runtime/pyGlob";
import { sharedCache } from "../caches";
import { Budget, BudgetExceeded, DEFAULT_PATTERN_BUDGET, NotAnalysable, type BudgetLimits } from "./budget";
import { cachedRegexDfa, patternLanguage, type PatternLanguage } from "./languages";
import { deepagentsPy } from "../runtime/deepagentsPy";
import type { DFA } from "refa";

/**
 * What a deepagents-py pattern would match if wcmatch were called with `DOTGLOB` too: the paths its author meant
 * when writing it with deepagents-js's `{ dot: true }` in mind, in the pattern's own dialect.
 *
 * Why this reading and not the deepagents-js automaton of the same text: the two matchers differ in more than dot
 * names (picomatch's `/dir/**` also matches `/dir` itself, `[!a]`, extglobs and escapes read differently), and
 * those differences are runtime-divergence's to report, with both runtimes named. Read in wcmatch's own dialect with
 * only the dot rule changed, a path the deny covers here and deepagents-py does not differs from what deepagents-py
 * matches in a wildcard taking a name that starts with `.`, and in nothing else: exactly what dotfiles-unprotected
 * is about, and the only reading there is for a config written for deepagents-py alone.
 *
 * wcmatch's `DOTMATCH` changes three pieces of the regular expression it writes (wcmatch `_wcparse.WcParse`, for
 * `PATHNAME | GLOBSTAR | BRACE` without `EXTMATCH`): a `*` at the start of a name, `**`, and a `?` or class at the
 * start of a name no longer refuse a leading `.`; all three still refuse the names `.` and `..`. The pieces are
 * exchanged in the port's own output (runtime/pyGlob/), so brace expansion, classes and errors stay the port's.
 */
const P = WCMATCH_PIECES;
/** A `*` at the start of a name (wcmatch `_NEED_CHAR` + `_PATH_STAR_NO_DOTMATCH`), and with `_PATH_STAR_DOTMATCH`. */
const STAR_NO_DOTMATCH = P.NEED_CHAR_PATH + P.PATH_STAR_NO_DOTMATCH;
const STAR_DOTMATCH = P.NEED_CHAR_PATH + P.NO_DIR + P.PATH_STAR;
/** wcmatch `_PATH_GSTAR_DOTMATCH`: `**` may cross any name but `.` and `..`. */
const GLOBSTAR_DOTMATCH = "(?:(?!(?:[/]|^)(?:\\.{1,2})($|[/])).)*?";
/** `_restrict_sequence` at the start of a name: `_NO_DIR` + `_PATH_NO_SLASH_DOT`, and with `DOTMATCH` without the dot. */
const SEQUENCE_NO_DOTMATCH = P.NO_DIR + P.PATH_NO_SLASH_DOT;
const SEQUENCE_DOTMATCH = P.NO_DIR + P.PATH_NO_SLASH;

/** One piece of wcmatch's output as `DOTMATCH` writes it. */
export function dotMatchingFragment(fragment: string): string {
  if (fragment === P.PATH_GSTAR_NO_DOTMATCH) return GLOBSTAR_DOTMATCH;
  if (fragment === STAR_NO_DOTMATCH) return STAR_DOTMATCH;
  if (fragment.startsWith(SEQUENCE_NO_DOTMATCH)) return SEQUENCE_DOTMATCH + fragment.slice(SEQUENCE_NO_DOTMATCH.length);
  return fragment;
}

/**
 * Whether `pattern` holds one of the pieces `DOTGLOB` changes; without one it matches the same paths either way (a
 * pattern the runtime cannot use counts as different: nothing is known of it).
 */
export function readsDotsDifferently(pattern: string): boolean {
  // Asked of every pattern of a list on every check of it (the language server's, after each edit): kept.
  const known = readsDifferently.get(pattern);
  if (known !== undefined) return known;
  const glob = compilePyGlob(pattern);
  const differs = glob.error !== undefined || glob.expansions.some((expanded) => wcmatchFragments(expanded).some((f) => dotMatchingFragment(f) !== f));
  return readsDifferently.set(pattern, differs);
}
const readsDifferently = sharedCache<string, boolean>("automata/dotMatching.readsDifferently", { entries: 4000 });

/** The regular expressions (one per brace expansion) of `pattern` read with `DOTGLOB`, or why the runtime cannot use it. */
export function dotMatchingRegexes(pattern: string): { readonly sources: readonly string[] } | { readonly unusable: string } {
  const glob = compilePyGlob(pattern);
  if (glob.error !== undefined) return { unusable: glob.error };
  const sources: string[] = [];
  for (const expanded of glob.expansions) {
    const source = wcmatchFragmentsSource(wcmatchFragments(expanded).map(dotMatchingFragment));
    // The port compiled the same pieces with the dot rule in place; the exchanged ones are wcmatch's own constants.
    if (source === undefined) return { unusable: "Python's re rejects the pattern read with DOTGLOB" };
    sources.push(source);
  }
  return { sources };
}

/** `dotMatchingRegexes(pattern)` as a JavaScript matcher (for tests and for confirming witnesses). */
export function dotMatches(pattern: string, path: string): boolean {
  let matcher = matchers.get(pattern);
  // `DOTGLOB` changes only what wildcards take: the pattern's literal runs are read as without it, and a path
  // without them in order is matched by neither reading. dotfiles-unprotected confirms each witness against every
  // deny of a list, most of which do not name its folders: their regular expressions are not even written.
  if (!matcher) matcher = matchers.set(pattern, { literals: pyGlobTextLiteralAlternatives(pattern), regexes: undefined });
  if (matcher.literals && !hasLiteralAlternative(matcher.literals, path)) return false;
  if (!matcher.regexes) {
    const read = dotMatchingRegexes(pattern);
    matcher.regexes = "sources" in read ? read.sources.map((source) => new RegExp(source, "su")) : [];
  }
  for (const regex of matcher.regexes) if (regex.test(path)) return true;
  return false;
}
const matchers = sharedCache<string, { readonly literals: readonly (readonly string[])[] | undefined; regexes: readonly RegExp[] | undefined }>("automata/dotMatching.matchers", { entries: 4000 });

const languages = sharedCache<string, PatternLanguage>("automata/dotMatching.languages", { entries: 4000 });

/** The language of `pattern` in deepagents-py read with `DOTGLOB`, as patternLanguage (languages.ts) gives the runtime's own. */
export function dotMatchingLanguage(pattern: string, limits: BudgetLimits = DEFAULT_PATTERN_BUDGET): PatternLanguage {
  const known = languages.get(pattern);
  if (known) return known;
  // The same regular expressions as deepagents-py's own: the same automata (and the product walks them once).
  if (!readsDotsDifferently(pattern)) return patternLanguage(deepagentsPy, pattern, limits);
  const read = dotMatchingRegexes(pattern);
  // Costed as languages.ts costs the runtime's own reading (a function of the pattern alone): a little for the
  // pattern, plus the states of its automata, so a file's work allowance counts the same warm or cold.
  let cost = 1 + pattern.length;
  if ("unusable" in read) return languages.set(pattern, { ok: false, pattern, kind: "unusable", reason: read.unusable, cost });
  const budget = new Budget(limits);
  try {
    const dfas: DFA[] = [];
    for (const source of read.sources) {
      const built = cachedRegexDfa({ source, flags: "su" }, budget);
      dfas.push(built.dfa);
      cost += built.cost;
    }
    return languages.set(pattern, { ok: true, pattern, dfas, cost });
  } catch (error) {
    // A budget overrun is not kept: the next run may have more room.
    if (error instanceof BudgetExceeded) return { ok: false, pattern, kind: "budget", reason: `its automaton ${error.message}`, cost: cost + limits.states };
    if (error instanceof NotAnalysable) return languages.set(pattern, { ok: false, pattern, kind: "not-analysable", reason: error.message, cost });
    throw error;
  }
}

/**
 * Whether a pattern can match a path with a name that starts with `.` in deepagents-py (without `DOTGLOB`): there a
 * dot name is matched by a literal `.` at a segment start, or by a `?` or class right after a `*` that matched
 * nothing (`/*?env` matches `/.env`). A literal `.` lands at a segment start only when it starts the pattern,
 * follows a `/`, follows a `*` that matched nothing (`/*.txt` matches `/.txt`), or touches a brace (`/a/{b/,}.env`
 * expands to `/a/.env`); a pattern with an escape is kept whatever it escapes. `false` is a proof: the property
 * test in test/engine/checkSpeedups.test.ts asks the runtime's matcher.
 */
export function mayMatchDotName(pattern: string): boolean {
  return /[?[\\]|(?:^|[/*{},])\./.test(pattern);
}
