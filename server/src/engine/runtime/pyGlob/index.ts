/**
 * deepagents-py checks filesystem permission rules with
 * `wcmatch.glob.globmatch(path, pattern, flags=BRACE | GLOBSTAR)` (wcmatch 11.0.1, bracex 3.0.1) on a
 * case-sensitive POSIX host. This module reproduces that call without Python:
 *
 *   1. `bracex.iexpand(pattern, keep_escapes=True, limit=1000)` (called from `_wcparse.expand_braces`) is ported
 *      as a parser that builds the same iterator tree bracex builds, with its counts, so the expansion limit is
 *      decided without expanding anything.
 *   2. `_wcparse.WcParse` is ported to emit the very regular-expression text wcmatch hands to Python's `re`
 *      (so it can be diffed against the real library), for the fixed flag set `globmatch` ends up with:
 *      `PATHNAME | GLOBSTAR | BRACE`, no `DOTMATCH`, no `EXTMATCH`, no `NEGATE`, case-sensitive, `/` separator.
 *   3. That Python regex text is parsed the way Python's `re` parses it (including the character-class errors
 *      wcmatch can provoke) into a small AST, from which we emit an equivalent JavaScript `u`+`s` RegExp source and
 *      a Pike-VM program. Matching runs on the VM: linear in path × pattern, where CPython and V8 both backtrack
 *      (CPython does not finish `/*a*a*a*a*a*a*a*a*a*a*a*b` against 22 `a`s in minutes).
 *
 * Behaviour that only Python's runtime decides is modelled explicitly: the expansion limit
 * (`PatternLimitException`), `re.error` compile failures, and `RecursionError` inside bracex, which
 * `_wcparse.expand_braces` swallows by falling back to the unexpanded pattern.
 *
 * One file per port: `bracex.ts` (1), `wcparse.ts` (2), `pyRe.ts` (3, the parser and the JavaScript source),
 * `pikeVm.ts` (3, the matcher), `python.ts` (what they share of Python), `compile.ts` (the pipeline and the API).
 */
export {
  compilePyGlob,
  countBraceExpansions,
  hasLiteralAlternative,
  hasLiteralsInOrder,
  parseWcmatchFragment,
  pyGlobError,
  pyGlobMatch,
  pyGlobTextLiteralAlternatives,
  pyGlobTextLiterals,
  wcmatchFragments,
  wcmatchFragmentsSource,
  type CompiledPyGlob,
} from "./compile";
export { setHas, type Ast, type CharSet } from "./pyRe";
export { WCMATCH_PIECES } from "./wcparse";
