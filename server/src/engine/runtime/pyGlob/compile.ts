/**
 * One brace expansion compiled the way `globmatch` compiles it: `WcParse` emits regex pieces, Python's `re` parses
 * them, the Pike VM runs the result; and the public API over whole patterns (brace expansion first).
 */
import { expandBraces } from "../simpleGlob";
import { sharedCache } from "../../caches";
import { codePoints } from "./python";
import { EMPTY, PATTERN_LIMIT, PATTERN_LIMIT_MESSAGE, parseBraces, yieldCount } from "./bracex";
import { WcParse } from "./wcparse";
import { type Ast, PY_PREFIX, PY_SUFFIX, PyCompileError, PyReError, PyRegexParser, astToJs, pyReErrorMessage } from "./pyRe";
import { type Program, ProgramBuilder, PyGlobRegExp, runProgram } from "./pikeVm";

/** JavaScript sources longer than this are served by `PyGlobRegExp` instead of V8's own engine. */
const NATIVE_SOURCE_LIMIT = 20_000;

interface ParsedFragment {
  readonly ast: Ast;
  /** The piece as JavaScript regex source: only for readers of `regexes`, so written when first asked. */
  js: string | undefined;
  /** Length in code points, for `re.error` positions. */
  readonly length: number;
}

function fragmentJs(parsed: ParsedFragment): string {
  return (parsed.js ??= astToJs(parsed.ast));
}

/**
 * Every string wcmatch appends to its `current` list is a self-contained regex piece, and a long pattern repeats
 * the same few pieces (`[/]+`, `(?![/]).`, …), so each distinct piece is parsed once.
 */
const FRAGMENTS = sharedCache<string, ParsedFragment>("runtime/pyGlob/compile.FRAGMENTS", { entries: 10_000 });

interface CompiledExpansion {
  /** The pattern after brace expansion, as handed to `WcParse`. */
  readonly expanded: string;
  readonly regex: RegExp;
  readonly program: Program;
  /**
   * The literal runs of the top-level sequence, in order. A full match splits the path into consecutive pieces,
   * one per item, so every one of these occurs in the path, in this order and without overlapping: a path where
   * they do not is rejected without running the VM (most paths a rule list is asked about fail this way).
   */
  readonly literals: readonly string[];
}

/** Whether `literals` occur in `path` in order, without overlapping (leftmost occurrence is optimal for that). */
export function hasLiteralsInOrder(literals: readonly string[], path: string): boolean {
  let from = 0;
  for (let k = 0; k < literals.length; k++) {
    const at = path.indexOf(literals[k]!, from);
    if (at < 0) return false;
    from = at + literals[k]!.length;
  }
  return true;
}

function literalText(cps: readonly number[]): string {
  let text = "";
  for (let k = 0; k < cps.length; k++) text += String.fromCodePoint(cps[k]!);
  return text;
}

/**
 * Compiled expansions by their text: brace patterns share expansions (`/w/**\/*.{crt,log}` and `/w/**\/*.{kdbx,log}`
 * both hold `/w/**\/*.log`), and in a 1,000-rule config nearly half of the expansions compiled were repeats. An
 * expansion's program is only read by the matcher (its marks are stamped per run), so one can serve every pattern.
 */
const EXPANSIONS = sharedCache<string, CompiledExpansion>("runtime/pyGlob/compile.EXPANSIONS", { entries: 4096 });

function compileExpanded(expanded: string): CompiledExpansion {
  return EXPANSIONS.get(expanded) ?? EXPANSIONS.set(expanded, compileExpansion(expanded));
}

function compileExpansion(expanded: string): CompiledExpansion {
  const fragments = new WcParse(codePoints(expanded)).fragments();
  const items: Ast[] = [];
  const pieces: ParsedFragment[] = [];
  let run: number[] | undefined;
  let offset = PY_PREFIX.length;
  for (let f = 0; f < fragments.length; f++) {
    const fragment = fragments[f]!;
    if (fragment === "") continue;
    let parsed = FRAGMENTS.get(fragment);
    if (!parsed) {
      const cps = codePoints(fragment);
      try {
        const ast = new PyRegexParser(cps, 0, cps.length).parse();
        parsed = { ast, js: undefined, length: cps.length };
      } catch (e) {
        if (!(e instanceof PyReError)) throw e;
        const full = codePoints(PY_PREFIX + fragments.join("") + PY_SUFFIX);
        throw new PyCompileError(pyReErrorMessage(e.msg, full, offset + e.pos));
      }
      FRAGMENTS.set(fragment, parsed);
    }
    if (parsed.ast.t === "lit") {
      // Merge literal runs (into an array we own) so the program is one flat chain of states.
      if (!run) items.push({ t: "lit", cps: (run = []) });
      const cps = parsed.ast.cps;
      for (let k = 0; k < cps.length; k++) run.push(cps[k]!);
    } else {
      run = undefined;
      items.push(parsed.ast);
    }
    pieces.push(parsed);
    offset += parsed.length;
  }
  const program = ProgramBuilder.build({ t: "seq", items });
  const literals: string[] = [];
  for (const item of items) if (item.t === "lit") literals.push(literalText(item.cps));
  // Matching runs on the program; the JavaScript RegExp is for readers of `regexes` (a literal prefix, the exact
  // analysis), which most patterns of a check run never meet: built when first read.
  let regex: RegExp | undefined;
  return {
    expanded,
    get regex(): RegExp {
      if (!regex) {
        const js = pieces.map(fragmentJs);
        let sourceLength = 0;
        for (const part of js) sourceLength += part.length;
        regex = sourceLength <= NATIVE_SOURCE_LIMIT ? new RegExp(`^(?:${js.join("")})$`, "su") : new PyGlobRegExp(js, program);
      }
      return regex;
    },
    program,
    literals,
  };
}

/** The regex pieces `WcParse` appends for one expanded pattern, in order (their concatenation is the regex body). */
export function wcmatchFragments(expanded: string): string[] {
  return new WcParse(codePoints(expanded)).fragments();
}

/** One piece of wcmatch's output parsed as Python's `re` parses it; `undefined` where Python rejects it. */
export function parseWcmatchFragment(fragment: string): Ast | undefined {
  const cached = FRAGMENTS.get(fragment);
  if (cached) return cached.ast;
  const cps = codePoints(fragment);
  try {
    return new PyRegexParser(cps, 0, cps.length).parse();
  } catch (e) {
    if (e instanceof PyReError) return undefined;
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Public API

export interface CompiledPyGlob {
  readonly pattern: string;
  /** Error text the Python runtime would raise when matching with this pattern (e.g. the brace-expansion limit), else undefined. */
  readonly error: string | undefined;
  /** JavaScript regular expressions equivalent to the expanded patterns (empty when error is set). */
  readonly regexes: readonly RegExp[];
  /** The distinct brace expansions, in the order wcmatch tries them (one per `regexes` entry). */
  readonly expansions: readonly string[];
  matches(path: string): boolean; // false when error is set
}

/**
 * `wcmatch.glob.globmatch(path, pattern, flags=BRACE | GLOBSTAR)` compiled once. `error` is `str(exception)` for
 * what Python raises: `PatternLimitException` ("Pattern limit exceeded the limit of 1000") when bracex's
 * expansion count passes 1000, or `re.error` when wcmatch emits a class Python's `re` rejects.
 */
export function compilePyGlob(pattern: string): CompiledPyGlob {
  const fail = (error: string): CompiledPyGlob => ({ pattern, error, regexes: [], expansions: [], matches: () => false });
  // `globmatch` returns False for an empty pattern before doing anything else.
  if (pattern === "") return { pattern, error: undefined, regexes: [], expansions: [], matches: () => false };

  const braces = parseBraces(pattern, PATTERN_LIMIT);
  if (braces.limitExceeded) return fail(PATTERN_LIMIT_MESSAGE);

  // `_wcparse.compile_pattern`: count every yielded pattern, compile each distinct one in order.
  const compiled: CompiledExpansion[] = [];
  const seen = new Set<string>();
  const compileOne = (expanded: string): string | undefined => {
    if (seen.has(expanded)) return undefined;
    seen.add(expanded);
    try {
      compiled.push(compileExpanded(expanded));
    } catch (e) {
      if (e instanceof PyCompileError) return e.message;
      throw e;
    }
    return undefined;
  };

  if (braces.recursionFallback || !braces.root) {
    const error = compileOne(pattern);
    if (error !== undefined) return fail(error);
  } else {
    const root = braces.root;
    let total = 0;
    for (let k = 0; k < root.n; k++) {
      const item = root.itemAt(k);
      if (item === EMPTY) continue;
      if (++total > PATTERN_LIMIT) return fail(PATTERN_LIMIT_MESSAGE);
      const error = compileOne(item);
      if (error !== undefined) return fail(error);
    }
  }

  let regexes: readonly RegExp[] | undefined;
  return {
    pattern,
    error: undefined,
    get regexes(): readonly RegExp[] {
      return (regexes ??= compiled.map((c) => c.regex));
    },
    expansions: compiled.map((c) => c.expanded),
    matches: (path: string) => {
      for (let k = 0; k < compiled.length; k++) {
        const c = compiled[k]!;
        if (hasLiteralsInOrder(c.literals, path) && runProgram(c.program, path)) return true;
      }
      return false;
    },
  };
}

/**
 * The literal runs a path must contain, in order, for `pattern` to match it, read off the pattern text without
 * compiling; `undefined` when the text alone does not tell. Without `{` (bracex), `[` (classes) and `\\`
 * (escapes), wcmatch turns every character but `*`, `?` and `/` into itself (`WcParse.root`), so the runs between
 * those are literal items of the top-level sequence, in order (a `/` becomes `[/]+`, a wildcard matches text).
 */
export function pyGlobTextLiterals(pattern: string): string[] | undefined {
  if (/[{[\\]/.test(pattern)) return undefined;
  return pattern.split(/[*?/]+/).filter((run) => run !== "");
}

/** Past this many brace expansions, listing their literals costs more than the test saves. */
const TEXT_LITERAL_EXPANSIONS = 64;

/**
 * `pyGlobTextLiterals` through brace expansion: one list of literal runs per pattern bracex yields, so that a path
 * `pattern` matches holds at least one of them in order (wcmatch tries each expansion, and each is read as
 * `pyGlobTextLiterals` reads a pattern without braces). `undefined` when the text does not tell: a class or an
 * escape, an expansion that keeps a `{` (unbalanced), the expansion limit or bracex's `RecursionError` fallback,
 * an expansion without literal text (every path passes), or too many expansions.
 */
export function pyGlobTextLiteralAlternatives(pattern: string): string[][] | undefined {
  // bracex keeps a brace right after `$` as literal text (`/${a,b}` matches only itself), which the one-level
  // expansion below does not know: such a pattern gets no pre-check (`/${a,b}/**` missed `/${a,b}/x`).
  if (/[[\\]/.test(pattern) || pattern.includes("${")) return undefined;
  if (!pattern.includes("{")) {
    const literals = pyGlobTextLiterals(pattern)!;
    return literals.length === 0 ? undefined : [literals];
  }
  // One level of name braces expands as bracex expands it, with no parse (simpleGlob.ts).
  const simple = expandBraces(pattern);
  if (simple) return literalAlternatives(simple);
  const braces = parseBraces(pattern, PATTERN_LIMIT);
  const root = braces.root;
  if (braces.limitExceeded || braces.recursionFallback || !root || root.n > TEXT_LITERAL_EXPANSIONS) return undefined;
  const expansions: string[] = [];
  for (let k = 0; k < root.n; k++) {
    const item = root.itemAt(k);
    // `compilePyGlob` skips bracex's empty results too.
    if (item !== EMPTY) expansions.push(item);
  }
  return literalAlternatives(expansions);
}

function literalAlternatives(expansions: readonly string[]): string[][] | undefined {
  const alternatives: string[][] = [];
  for (const expansion of expansions) {
    const literals = pyGlobTextLiterals(expansion);
    if (!literals || literals.length === 0) return undefined;
    alternatives.push(literals);
  }
  return alternatives;
}

/** Whether `path` holds one of `alternatives` (`pyGlobTextLiteralAlternatives`) in order. */
export function hasLiteralAlternative(alternatives: readonly (readonly string[])[], path: string): boolean {
  for (let k = 0; k < alternatives.length; k++) if (hasLiteralsInOrder(alternatives[k]!, path)) return true;
  return false;
}

/**
 * `compilePyGlob(pattern).error`, without compiling when that is not needed: Python's `re` can only reject the
 * character classes a `[` in the pattern produces (wcmatch's own fragments always compile), so without a `[` the
 * only possible error is the brace-expansion limit, which `parseBraces` decides without expanding anything.
 */
export function pyGlobError(pattern: string): string | undefined {
  if (pattern.includes("[")) return compilePyGlob(pattern).error;
  if (!pattern.includes("{")) return undefined;
  // Without a range (`..`), every count bracex checks (a sequence multiplies its parts, a group adds up its
  // alternatives, commas + 1 of them) is at most the product of (commas + 1) over the groups, so at most 2 to the
  // number of commas: with nine or fewer, the limit of 1000 cannot be passed. Most brace patterns need no parse.
  if (!pattern.includes("..") && commaCount(pattern) <= MAX_COMMAS_UNDER_LIMIT) return undefined;
  const braces = parseBraces(pattern, PATTERN_LIMIT);
  if (braces.limitExceeded) return PATTERN_LIMIT_MESSAGE;
  // `compilePyGlob` counts every non-empty yielded pattern against the limit as it compiles them.
  if (!braces.recursionFallback && braces.root && yieldCount(braces.root) > PATTERN_LIMIT) return PATTERN_LIMIT_MESSAGE;
  return undefined;
}

/** 2 ** 9 = 512 expansions at most, under `PATTERN_LIMIT`; 2 ** 10 would not be. */
const MAX_COMMAS_UNDER_LIMIT = 9;

function commaCount(pattern: string): number {
  let count = 0;
  for (let at = pattern.indexOf(","); at >= 0; at = pattern.indexOf(",", at + 1)) count++;
  return count;
}

/** `wcmatch.glob.globmatch(path, pattern, flags=BRACE | GLOBSTAR)` for one call (false where Python raises). */
export function pyGlobMatch(path: string, pattern: string): boolean {
  return compilePyGlob(pattern).matches(path);
}

/**
 * How many patterns brace expansion yields, computed without expanding; Infinity-safe (cap at Number.MAX_SAFE_INTEGER).
 *
 * This is the number of patterns bracex would yield with no limit (duplicates included, bracex's empty results
 * dropped); 1 when bracex would hit `RecursionError` and wcmatch falls back to the raw pattern; 0 for "".
 * wcmatch raises `PatternLimitException` when bracex's own running count passes 1000; that count includes
 * alternatives that collapse to nothing (`{,}`), so it can exceed this number.
 */
export function countBraceExpansions(pattern: string): number {
  if (pattern === "") return 0;
  const braces = parseBraces(pattern, 0);
  if (braces.recursionFallback || !braces.root) return 1;
  return yieldCount(braces.root);
}

/**
 * The JavaScript (`su`) source of the regular expression wcmatch joins from `fragments` (as `wcmatchFragments`
 * gives them, possibly with pieces exchanged: automata/dotMatching.ts reads patterns with `DOTGLOB`), matched from
 * start to end; `undefined` where Python's `re` rejects a piece.
 */
export function wcmatchFragmentsSource(fragments: readonly string[]): string | undefined {
  let js = "";
  for (const fragment of fragments) {
    if (fragment === "") continue;
    const ast = parseWcmatchFragment(fragment);
    if (!ast) return undefined;
    js += astToJs(ast);
  }
  return `^(?:${js})$`;
}
