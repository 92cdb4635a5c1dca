import { DFA } from "refa";
import { compileJsGlob } from "../runtime/jsGlob";
import { compilePyGlob } from "../runtime/pyGlob";
import type { Runtime, RuntimeId } from "../runtime/runtime";
import { Budget, BudgetExceeded, DEFAULT_PATTERN_BUDGET, NotAnalysable, type BudgetLimits } from "./budget";
import { regexDfa, type RegexSource } from "./regexAutomaton";
import { registeredMap, sharedCache } from "../caches";

/**
 * The path languages the analysis works with, per runtime, as minimal refa DFAs:
 * - what one permission pattern matches under the runtime's matcher (docs/reference/globs.md);
 * - the canonical tool paths of the runtime: what a path can look like when it reaches the matcher (docs/reference/paths.md).
 *
 * Runtime differences live in the `MATCHERS` table below, in this one place.
 */

/** How a runtime's matcher reads a pattern: regular expressions (any one matching is a match), plus literal strings. */
interface MatcherStrategy {
  readonly alphabet: "utf16" | "codepoints";
  /** The canonical tool paths (docs/reference/paths.md): every path the matcher can be handed, as a whole-string regular expression. */
  readonly canonical: RegexSource;
  /** The canonical paths the runtime leaves exactly as typed (a tool argument that is its own canonical path). */
  readonly asTyped: RegexSource;
  /** Canonical paths a person reads easily (plain names, no `.` segments or doubled slashes): preferred witnesses. */
  readonly readable: RegexSource;
  compile(pattern: string): { regexes: readonly RegexSource[]; literals: readonly string[] } | { unusable: string };
}

// A JS segment: non-empty, no `/`, not `..` or `~` (validatePath rejects them), `.` kept (docs/reference/paths.md C5–C6).
const JS_SEGMENT = String.raw`(?:[^/.~][^/]*|\.(?:[^/.][^/]*)?|\.\.[^/]+|~[^/]+)`;
// A Python segment: anything but `..` and `\`, possibly empty or `.`: `validate_path` turns every `\` into `/`
// *after* normpath, so `/a\.\b` becomes `/a/./b` and `/a\` becomes `/a/` (py:backends/utils.py validate_path).
const PY_SEGMENT = String.raw`(?:[^/\\.][^/\\]*|\.(?:[^/\\.][^/\\]*)?|\.\.[^/\\]+)?`;
const PY_TYPED = String.raw`(?:[^/\\.][^/\\]*|\.[^/\\.][^/\\]*|\.\.[^/\\]+)`;
const READABLE_NAME = String.raw`(?:[A-Za-z0-9_\-][A-Za-z0-9_.\-]*|\.[A-Za-z0-9_\-][A-Za-z0-9_.\-]*)`;
const READABLE = String.raw`^(?:\/|(?:\/${READABLE_NAME})+)$`;

const MATCHERS: Record<RuntimeId, MatcherStrategy> = {
  // micromatch.isMatch → picomatch 2.3.2: string equality first, then the regular expression (docs/reference/globs.md, G48).
  "deepagents-js": {
    alphabet: "utf16",
    canonical: { source: String.raw`^(?:\/|(?:\/${JS_SEGMENT})+)$`, flags: "" },
    // validatePath is idempotent: every canonical path is typed as it is.
    asTyped: { source: String.raw`^(?:\/|(?:\/${JS_SEGMENT})+)$`, flags: "" },
    readable: { source: READABLE, flags: "" },
    compile(pattern) {
      const glob = compileJsGlob(pattern);
      if (!glob.regex) return { unusable: glob.error ?? "picomatch cannot compile the pattern" };
      return { regexes: [{ source: glob.regex.source, flags: glob.regex.flags }], literals: [pattern] };
    },
  },
  // The wcmatch port matches code points (`u` flag). A UTF-16 string never shows a high surrogate followed by a
  // low one as two code points, so such pairs are excluded from the canonical language.
  "deepagents-py": {
    alphabet: "codepoints",
    canonical: {
      source: String.raw`^(?![^]*[\uD800-\uDBFF][\uDC00-\uDFFF])\/${PY_SEGMENT}(?:\/${PY_SEGMENT})*$`,
      flags: "u",
    },
    // normpath leaves these alone: one or two leading slashes, no empty, `.` or `..` segment, no trailing slash, no
    // backslash.
    asTyped: {
      source: String.raw`^(?![^]*[\uD800-\uDBFF][\uDC00-\uDFFF])(?:\/\/?|\/\/?${PY_TYPED}(?:\/${PY_TYPED})*)$`,
      flags: "u",
    },
    readable: { source: READABLE, flags: "u" },
    compile(pattern) {
      const glob = compilePyGlob(pattern);
      if (glob.error !== undefined) return { unusable: glob.error };
      return { regexes: glob.regexes.map((r) => ({ source: r.source, flags: r.flags })), literals: [] };
    },
  },
};

export function alphabetOf(runtime: Runtime): "utf16" | "codepoints" {
  return MATCHERS[runtime.id].alphabet;
}

/** What a pattern matches, or why it cannot be analysed. */
export type PatternLanguage = (
  | { readonly ok: true; readonly pattern: string; readonly dfas: readonly DFA[] }
  | { readonly ok: false; readonly pattern: string; readonly kind: "unusable" | "not-analysable" | "budget"; readonly reason: string }
) & {
  /**
   * Its share of a file's `WorkAllowance`: the states of its automata, its length, and for a pattern whose
   * automaton ran out of its budget that budget's states. A function of the pattern alone, the same whether it was
   * built now or came from a cache, so a warm cache (the language server's) analyses exactly what a cold one does.
   */
  readonly cost: number;
};

const PATTERN_CACHE_LIMITS = { entries: 4000 };
const patternCache = sharedCache<string, PatternLanguage>("automata/languages.patternCache", PATTERN_CACHE_LIMITS);
const regexCache = sharedCache<string, { dfa: DFA; cost: number } | Error>("automata/languages.regexCache", PATTERN_CACHE_LIMITS);
const literalCache = sharedCache<string, DFA>("automata/languages.literalCache", PATTERN_CACHE_LIMITS);
/**
 * The runtimes' own languages (canonical paths, …): a handful, never evicted. They shared the literals' bounded cache
 * until a file with thousands of literal patterns evicted them, and a second copy of the canonical paths, outside
 * the analysis's alphabet, failed every rule check of that file.
 */
const fixedLanguages = registeredMap("automata/languages.fixedLanguages", "one per runtime and language, the code's own", new Map<string, DFA>());

/**
 * The language of one pattern under `runtime`'s matcher: a list of DFAs whose union is the set of strings
 * the matcher accepts (not yet restricted to canonical paths). Cached across runs: the language server re-checks on
 * every keystroke and most patterns do not change.
 */
export function patternLanguage(runtime: Runtime, pattern: string, limits: BudgetLimits = DEFAULT_PATTERN_BUDGET): PatternLanguage {
  const key = `${runtime.id}\u0000${pattern}`;
  const cached = patternCache.get(key);
  if (cached) return cached;
  return patternCache.set(key, computePatternLanguage(runtime, pattern, limits));
}

function computePatternLanguage(runtime: Runtime, pattern: string, limits: BudgetLimits): PatternLanguage {
  const strategy = MATCHERS[runtime.id];
  // Every pattern costs a little (compiling, a literal's automaton) besides the states of its automata.
  let cost = 1 + pattern.length;
  const compiled = strategy.compile(pattern);
  if ("unusable" in compiled) return { ok: false, pattern, kind: "unusable", reason: compiled.unusable, cost };
  const budget = new Budget(limits);
  try {
    const dfas: DFA[] = [];
    for (const regex of compiled.regexes) {
      const { dfa, cost: states } = cachedRegexDfa(regex, budget);
      dfas.push(dfa);
      cost += states;
    }
    for (const literal of compiled.literals) {
      const word = wordOf(literal, strategy.alphabet);
      if (!dfas.some((dfa) => dfa.test(word))) {
        dfas.push(literalDfa(literal, strategy.alphabet));
        cost += literal.length;
      }
    }
    return { ok: true, pattern, dfas, cost };
  } catch (error) {
    // What ran out is charged whole: the states it may build (a time limit, the one thing not counted, likewise).
    if (error instanceof BudgetExceeded) return { ok: false, pattern, kind: "budget", reason: `its automaton ${error.message}`, cost: cost + limits.states };
    if (error instanceof NotAnalysable) return { ok: false, pattern, kind: "not-analysable", reason: error.message, cost };
    throw error;
  }
}

/**
 * `regexDfa`, kept by the regular expression's text: brace expansion gives many patterns the same regular
 * expressions (`/w/{.git,.venv}/**` and `/w/.git/**`), read once for every runtime's reading that produces them.
 */
export function cachedRegexDfa(regex: RegexSource, budget: Budget): { dfa: DFA; cost: number } {
  const key = `${regex.flags}/${regex.source}`;
  const hit = regexCache.get(key);
  if (hit instanceof Error) throw hit;
  if (hit) return hit;
  try {
    const dfa = regexDfa(regex, budget);
    // The states of the result, not those counted building it: the construction shares work between patterns
    // (guard automata kept across runs), and the cost must not depend on what was built before.
    const built = { dfa, cost: dfa.countNodes() };
    regexCache.set(key, built);
    return built;
  } catch (error) {
    // A construct refa cannot express stays unexpressible; a budget overrun is retried next time.
    if (error instanceof NotAnalysable) regexCache.set(key, error);
    throw error;
  }
}

/** Characters of `text` in the alphabet: UTF-16 code units or code points. */
export function wordOf(text: string, alphabet: "utf16" | "codepoints"): number[] {
  const word: number[] = [];
  if (alphabet === "utf16") for (let i = 0; i < text.length; i++) word.push(text.charCodeAt(i));
  else for (const ch of text) word.push(ch.codePointAt(0)!);
  return word;
}

function literalDfa(literal: string, alphabet: "utf16" | "codepoints"): DFA {
  const key = `${alphabet}/${literal}`;
  let dfa = literalCache.get(key);
  // The one word, read in the alphabet's characters (not a regular expression of escapes, parsed and determinised
  // like a pattern's: for a word, that work is all overhead).
  if (!dfa) literalCache.set(key, (dfa = DFA.fromWords([wordOf(literal, alphabet)], { maxCharacter: alphabet === "codepoints" ? 0x10ffff : 0xffff })));
  return dfa;
}

function fixed(regex: RegexSource): DFA {
  const key = `${regex.flags}/${regex.source}`;
  let dfa = fixedLanguages.get(key);
  if (!dfa) {
    dfa = regexDfa(regex, new Budget({ milliseconds: 10_000, states: 1_000_000 }));
    fixedLanguages.set(key, dfa);
  }
  return dfa;
}

/** The canonical tool paths of `runtime` (docs/reference/paths.md). */
export function canonicalPaths(runtime: Runtime): DFA {
  return fixed(MATCHERS[runtime.id].canonical);
}

/** The canonical paths of `runtime` that a tool argument reaches unchanged (see `MatcherStrategy.asTyped`). */
export function asTypedPaths(runtime: Runtime): DFA {
  return fixed(MATCHERS[runtime.id].asTyped);
}

/** Paths made of plain names, in `runtime`'s alphabet: witnesses come from here when they can. */
export function readablePaths(runtime: Runtime): DFA {
  return fixed(MATCHERS[runtime.id].readable);
}

/** Characters every string in both runtimes' alphabets reads the same way: no surrogates (for cross-runtime questions). */
export function sharedCharacters(): DFA {
  return fixed({ source: String.raw`^[\0-\uD7FF\uE000-\uFFFF]*$`, flags: "u" });
}
