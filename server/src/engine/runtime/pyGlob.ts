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
 */
import { BoundedCache } from "../boundedCache";
import { expandBraces } from "./simpleGlob";

/** wcmatch `_wcparse.PATTERN_LIMIT`; `globmatch` passes it to bracex as `limit`. */
const PATTERN_LIMIT = 1000;
/**
 * `_wcparse.compile_pattern` turns `bracex.ExpansionLimitException` ("Brace expansion has exceeded the limit of
 * 1000") into `wcmatch._wcparse.PatternLimitException` with this text; `globmatch` lets it propagate.
 */
const PATTERN_LIMIT_MESSAGE = `Pattern limit exceeded the limit of ${PATTERN_LIMIT}`;

/** Counts saturate here so that astronomically large brace products stay finite and comparable. */
const CAP = Number.MAX_SAFE_INTEGER;
const satAdd = (a: number, b: number): number => Math.min(a + b, CAP);
const satMul = (a: number, b: number): number => Math.min(a * b, CAP);

/**
 * CPython 3.11's default `sys.getrecursionlimit()`. bracex recurses once per nested brace while parsing and nests
 * one generator per brace part while iterating; past this limit Python raises `RecursionError`, which
 * `_wcparse.expand_braces` catches (`except Exception: yield p`), so the raw pattern is used unexpanded.
 */
const PY_RECURSION_LIMIT = 1000;
/**
 * Python frames assumed to be on the stack where deepagents calls `globmatch` (`len(inspect.stack())` in the
 * caller; the real depth depends on the host program and cannot be known statically). Only patterns with hundreds
 * of brace groups come near the limit, so this only moves where such patterns flip to "unexpanded".
 */
const ASSUMED_CALLER_FRAMES = 50;
const RECURSION_BUDGET = PY_RECURSION_LIMIT - ASSUMED_CALLER_FRAMES;
/**
 * Recursion units, measured on CPython 3.11 by bisecting `sys.setrecursionlimit` around `bracex.iexpand` (which
 * matches the depth `globmatch` adds on top of its caller). A generator resumed from C (`itertools.product`
 * materialising `squash`'s inputs, a `for` loop) costs 2 units, one resumed by `yield from` (`chain`) costs 1.
 */
const UNITS = {
  /** `expand` → `for x in expand_str(...)` → the top-level iterator. */
  iterBase: 4,
  /** `squash`'s own work after materialising: `all(<genexpr>)`, `''.join`. */
  squashLeaf: 3,
  /** `format_values` (calls `str()`), and the alphabet generator expression, resumed from C. */
  intRangeC: 4,
  charRangeC: 3,
  /** Deepest point below a `get_literals` frame: `next(i)` → `StringIter.__next__` → `iternext`. */
  literals: 9,
  /** …when that `next(i)` raises `StopIteration` (one more call for the exception object). */
  literalsAtEnd: 10,
  /** …through `get_escape` (`+1` frame; `+2` when the backslash is the last character). */
  escape: 10,
  escapeAtEnd: 11,
  /** Below a `get_sequence` frame: `get_range` → `i.match` / `account`, and `get_int_range` for ranges. */
  sequence: 8,
  range: 10,
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Code points: Python indexes `str` by code point, JavaScript by UTF-16 unit.

function codePoints(s: string): string[] {
  // `Array.from(s)` without the string iterator (which allocates a result per character until V8 optimises the
  // caller, and a cold CLI run compiles hundreds of patterns before that): code points, a lone surrogate alone.
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out.push(s.slice(i, i + 2));
        i++;
        continue;
      }
    }
    out.push(s[i]!);
  }
  return out;
}

/** Python `ord(s[1:2] if len(s) > 1 else s)` as used by `WcParse._sequence_range_check`. */
function ordSecondOrOnly(s: string): number {
  const cps = codePoints(s);
  return (cps.length > 1 ? cps[1]! : cps[0]!).codePointAt(0)!;
}

/** Signals mirroring the Python exceptions the ported code relies on for control flow (thrown as singletons). */
class Signal {
  constructor(readonly name: string) {}
}
const STOP_ITERATION = new Signal("StopIteration");
const DOT_EXCEPTION = new Signal("DotException");
const PATHNAME_EXCEPTION = new Signal("PathNameException");
const RECURSION_ERROR = new Signal("RecursionError");

class ExpansionLimitError {
  readonly message = `Brace expansion has exceeded the limit of ${PATTERN_LIMIT}`;
}

/** Python `re.error` raised while parsing one regex fragment (`pos` is relative to that fragment). */
class PyReError {
  constructor(
    readonly msg: string,
    readonly pos: number,
  ) {}
}

/** Python `re.error` as `str(error)` for the whole pattern. */
class PyCompileError {
  constructor(readonly message: string) {}
}

/** `util.StringIter` / `bracex.StringIter` over code points. */
class CharIter {
  index = 0;
  constructor(readonly chars: readonly string[]) {}
  next(): string {
    if (this.index >= this.chars.length) throw STOP_ITERATION;
    return this.chars[this.index++]!;
  }
  rewind(count: number): void {
    this.index -= count;
  }
  advance(count: number): void {
    this.index += count;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// bracex 3.0.1 (`bracex.ExpandBrace`)

/** bracex's `EMPTY` sentinel: an empty alternative, dropped by `ExpandBrace.expand` unless joined with text. */
const EMPTY = Symbol("EMPTY");
type BItem = string | typeof EMPTY;

/**
 * One of the iterators bracex builds: a Python list iterator, `squash` (an `itertools.product` generator),
 * `chain`, or a range generator (`format_values` / the alphabet generator expression). Each node knows its exact
 * length `n`, how many of its items are `EMPTY` (`e`), whether all are (`allEmpty`), and how many recursion units
 * iterating it costs when resumed from C (`depthC`) or through `yield from` (`depthYF`).
 */
interface BNode {
  readonly n: number;
  readonly e: number;
  readonly allEmpty: boolean;
  readonly depthC: number;
  readonly depthYF: number;
  itemAt(index: number): BItem;
}

class ListNode implements BNode {
  readonly n: number;
  readonly e: number;
  readonly allEmpty: boolean;
  readonly depthC = 0;
  readonly depthYF = 0;
  constructor(readonly items: readonly BItem[]) {
    this.n = items.length;
    this.e = items.filter((x) => x === EMPTY).length;
    this.allEmpty = this.e === this.n;
  }
  itemAt(index: number): BItem {
    return this.items[index]!;
  }
}

/** `ExpandBrace.squash`: `itertools.product(a, b)`, `EMPTY` only when every joined piece is `EMPTY`. */
class SquashNode implements BNode {
  readonly n: number;
  readonly e: number;
  readonly allEmpty: boolean;
  readonly depthC: number;
  readonly depthYF: number;
  constructor(
    readonly a: BNode,
    readonly b: BNode,
  ) {
    this.n = satMul(a.n, b.n);
    this.e = satMul(a.e, b.e);
    this.allEmpty = a.allEmpty && b.allEmpty;
    const inner = Math.max(a.depthC, b.depthC, UNITS.squashLeaf);
    this.depthC = 2 + inner;
    this.depthYF = 1 + inner;
  }
  itemAt(index: number): BItem {
    const x = this.a.itemAt(Math.floor(index / this.b.n));
    const y = this.b.itemAt(index % this.b.n);
    if (x === EMPTY && y === EMPTY) return EMPTY;
    return (x === EMPTY ? "" : x) + (y === EMPTY ? "" : y);
  }
}

/** `ExpandBrace.chain(a, b)`. */
class ChainNode implements BNode {
  readonly n: number;
  readonly e: number;
  readonly allEmpty: boolean;
  readonly depthC: number;
  readonly depthYF: number;
  constructor(
    readonly a: BNode,
    readonly b: BNode,
  ) {
    this.n = satAdd(a.n, b.n);
    this.e = satAdd(a.e, b.e);
    this.allEmpty = a.allEmpty && b.allEmpty;
    const inner = Math.max(a.depthYF, b.depthYF);
    this.depthC = 2 + inner;
    this.depthYF = 1 + inner;
  }
  itemAt(index: number): BItem {
    return index < this.a.n ? this.a.itemAt(index) : this.b.itemAt(index - this.a.n);
  }
}

/** `ExpandBrace.get_int_range` → `format_values(range(first, stop, step), padding)`. */
class IntRangeNode implements BNode {
  readonly n: number;
  readonly e = 0;
  readonly allEmpty = false;
  readonly depthC = UNITS.intRangeC;
  readonly depthYF = UNITS.intRangeC - 1;
  constructor(
    readonly first: bigint,
    readonly step: bigint,
    length: bigint,
    readonly padding: number,
  ) {
    this.n = length > BigInt(CAP) ? CAP : Number(length);
  }
  itemAt(index: number): BItem {
    const value = this.first + BigInt(index) * this.step;
    if (!this.padding) return value.toString();
    // Python `"{:0{pad}d}".format(value)`: the sign counts towards the width.
    const sign = value < 0n ? "-" : "";
    const digits = (value < 0n ? -value : value).toString();
    return sign + digits.padStart(this.padding - sign.length, "0");
  }
}

// Immutable list iterators bracex creates over and over.
const NO_ITEMS = new ListNode([]);
const ONLY_EMPTY = new ListNode([EMPTY]);
const OPEN_BRACE = new ListNode(["{"]);
const CLOSE_BRACE = new ListNode(["}"]);

/** bracex `_alpha`: `chr(x)` for `A`..`z`, with the backslash slot blanked to `''`. */
const ALPHA: readonly string[] = Array.from({ length: 0x7a - 0x41 + 1 }, (_, k) =>
  0x41 + k === 0x5c ? "" : String.fromCharCode(0x41 + k),
);
const NALPHA: readonly string[] = [...ALPHA].reverse();

/** `ExpandBrace.get_char_range` → `(alpha[r] for r in range(...))`. */
class CharRangeNode implements BNode {
  readonly n: number;
  readonly e = 0;
  readonly allEmpty = false;
  readonly depthC = UNITS.charRangeC;
  readonly depthYF = UNITS.charRangeC - 1;
  constructor(
    readonly alpha: readonly string[],
    readonly first: number,
    readonly step: number,
    length: number,
  ) {
    this.n = length;
  }
  itemAt(index: number): BItem {
    return this.alpha[this.first + index * this.step]!;
  }
}

/** Length of Python `range(start, stop, step)`. */
function rangeLength(start: bigint, stop: bigint, step: bigint): bigint {
  if (step > 0n) return stop > start ? (stop - start + step - 1n) / step : 0n;
  return start > stop ? (start - stop - step - 1n) / -step : 0n;
}

/** `math.ceil(span / ainc)` where Python's `int / int` is the correctly rounded true quotient. */
function pyCeilDiv(span: bigint, ainc: bigint): number {
  const two53 = 2n ** 53n;
  if (span <= two53 && ainc <= two53) return Math.ceil(Number(span) / Number(ainc));
  const q = span / ainc;
  if (q >= two53) return CAP;
  // Only the decision "> 1000" depends on this; double rounding can only matter for quotients within 2^-44 of an
  // integer, far below what real ranges produce.
  return Math.ceil(Number(q) + Number(span % ainc) / Number(ainc));
}

const ND = /^\p{Nd}$/u;

/** Python `int()` accepts any Unicode decimal digit (category Nd, always in runs of ten from 0 to 9). */
function digitValue(c: string): number {
  const cp = c.codePointAt(0)!;
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
  let start = cp;
  while (ND.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

function pyInt(chars: readonly string[]): bigint {
  let k = 0;
  let negative = false;
  if (chars[0] === "-") {
    negative = true;
    k = 1;
  }
  let value = 0n;
  for (; k < chars.length; k++) value = value * 10n + BigInt(digitValue(chars[k]!));
  return negative ? -value : value;
}

/** bracex `truncate_digits(value, 19)`. */
function truncateDigits(value: readonly string[]): readonly string[] {
  return value.slice(0, 19 + (value.length && value[0] === "-" ? 1 : 0));
}

/** Matches `-?\d+` (Unicode `\d`) at `k`; returns the end index or -1. */
function matchSignedDigits(chars: readonly string[], k: number): number {
  let j = k;
  if (chars[j] === "-") j++;
  const digitsStart = j;
  while (j < chars.length && ND.test(chars[j]!)) j++;
  return j > digitsStart ? j : -1;
}

const isAsciiLetter = (c: string | undefined): boolean => c !== undefined && /^[A-Za-z]$/.test(c);

interface RangeMatch {
  readonly end: number; // index of the closing `}`
  readonly groups: ReadonlyArray<readonly string[] | undefined>;
}

/**
 * bracex `RE_INT_ITER` = `(-?\d+)\.{2}(-?\d+)(?:\.{2}(-?\d+))?(?=\})` and
 * `RE_CHR_ITER` = `([A-Za-z])\.{2}([A-Za-z])(?:\.{2}(-?\d+))?(?=\})`, matched at `k`. Neither can backtrack into a
 * different split (digits never match `.` or `}`), so a greedy scan decides them.
 */
function matchRange(chars: readonly string[], k: number, kind: "int" | "chr"): RangeMatch | undefined {
  const dots = (j: number) => chars[j] === "." && chars[j + 1] === ".";
  let a0: number;
  let a1: number;
  let b0: number;
  let b1: number;
  if (kind === "int") {
    a0 = k;
    a1 = matchSignedDigits(chars, a0);
    if (a1 < 0 || !dots(a1)) return undefined;
    b0 = a1 + 2;
    b1 = matchSignedDigits(chars, b0);
    if (b1 < 0) return undefined;
  } else {
    if (!isAsciiLetter(chars[k]) || !dots(k + 1) || !isAsciiLetter(chars[k + 3])) return undefined;
    a0 = k;
    a1 = k + 1;
    b0 = k + 3;
    b1 = k + 4;
  }
  const start = chars.slice(a0, a1);
  const end = chars.slice(b0, b1);
  if (dots(b1)) {
    const c1 = matchSignedDigits(chars, b1 + 2);
    if (c1 >= 0 && chars[c1] === "}") return { end: c1, groups: [start, end, chars.slice(b1 + 2, c1)] };
  }
  if (chars[b1] === "}") return { end: b1, groups: [start, end, undefined] };
  return undefined;
}

type SeqEntry = BItem | BNode | Array<string | BNode>;

const isNode = (x: unknown): x is BNode => typeof x === "object" && x !== null && !Array.isArray(x);

/** A Python str or iterator wrapped as an iterable node (`[r] if isinstance(r, str) else r`). */
const asNode = (x: BItem | BNode): BNode => (isNode(x) ? x : new ListNode([x]));

/** bracex `ExpandBrace.flatten`. */
function flatten(entries: readonly SeqEntry[]): Array<BItem | BNode> {
  const out: Array<BItem | BNode> = [];
  for (const x of entries) {
    if (Array.isArray(x)) out.push(...x);
    else out.push(x);
  }
  return out;
}

/**
 * Port of `bracex.ExpandBrace` with `keep_escapes=True`, `limit=1000`, `return_empty=False`. Every literal it
 * gathers is a contiguous slice of the input (escapes keep their backslash), so literals are sliced, not built.
 */
class BraceParser {
  private expanding = false;
  private readonly i: CharIter;
  /** Python frames currently used by `get_literals` / `get_sequence` recursion. */
  private frames = 0;

  constructor(
    private readonly chars: readonly string[],
    /** bracex `max_limit`; 0 disables the check (as in bracex). */
    private readonly limit: number,
  ) {
    this.i = new CharIter(chars);
  }

  /** `ExpandBrace.account`: every finished literal run, group and range is checked against the limit. */
  private account(count: number): number {
    if (this.limit > 0 && count > this.limit) throw new ExpansionLimitError();
    return count;
  }

  /** Each nested brace adds a `get_literals` + `get_sequence` frame; bracex has no guard of its own. */
  private enter(leaf: number): void {
    this.frames++;
    this.check(leaf);
  }

  private check(leaf: number): void {
    if (this.frames + leaf > RECURSION_BUDGET) throw RECURSION_ERROR;
  }

  /** `ExpandBrace.expand_str`: the parsed top level, squashed onto `iter([EMPTY])`. */
  parse(): BNode {
    const [values] = this.getLiterals(this.i.next(), 0, false);
    let results: BNode = ONLY_EMPTY;
    for (const v of values) results = new SquashNode(results, asNode(v));
    return results;
  }

  private getLiterals(first: string, depth: number, ignoreEndIn: boolean): [Array<string | BNode>, number] {
    this.enter(UNITS.literals);
    const i = this.i;
    const chars = this.chars;
    const result: Array<string | BNode> = [];
    let ignoreEnd = ignoreEndIn;
    let isDollar = false;
    let count = 1;
    let litStart = i.index - 1;
    let c = first;
    try {
      for (;;) {
        const ignoreBrace = isDollar;
        isDollar = false;
        if (c === "$") {
          isDollar = true;
        } else if (c === "\\") {
          // get_escape: the escaped character (if any) stays in the literal.
          const atEnd = i.index >= chars.length;
          this.check(atEnd ? UNITS.escapeAtEnd : UNITS.escape);
          if (!atEnd) i.advance(1);
        } else if (!ignoreBrace && c === "{") {
          if (i.index - 1 > litStart) result.push(chars.slice(litStart, i.index - 1).join(""));
          litStart = i.index - 1;
          // `next(i)` failing here means a trailing `{`: it stays literal and parsing stops.
          const next = i.next();
          const [seq, scount] = this.getSequence(next, depth + 1);
          count = satMul(count, scount);
          result.push(seq);
          litStart = i.index;
        } else if (this.expanding && (c === "," || (c === "}" && !ignoreEnd))) {
          ignoreEnd = false;
          if (i.index - 1 > litStart) result.push(chars.slice(litStart, i.index - 1).join(""));
          i.rewind(1);
          this.frames--;
          return [result, this.account(count)];
        }
        c = i.next();
      }
    } catch (e) {
      if (e !== STOP_ITERATION) throw e;
      this.check(UNITS.literalsAtEnd);
      if (i.index > litStart) result.push(chars.slice(litStart, i.index).join(""));
    }
    this.frames--;
    return [result, this.account(count)];
  }

  private getSequence(first: string, depth: number): [BNode, number] {
    this.enter(UNITS.sequence);
    const i = this.i;
    const result: SeqEntry[] = [];
    const release = !this.expanding;
    this.expanding = true;
    let hasComma = false;
    let isEmpty = true;
    const counts: number[] = [];
    let c = first;

    i.rewind(1);
    const range = this.getRange();
    i.advance(1);
    if (range) {
      this.check(UNITS.range);
      if (release) this.expanding = false;
      this.frames--;
      return [range[0], this.account(range[1])];
    }

    try {
      for (;;) {
        // At depth 1 without a comma yet, bash keeps looking past `}` unless the pattern starts with `{}`.
        const keepLooking = depth === 1 && !hasComma;
        if (c === "}" && (!keepLooking || i.index === 2)) {
          if (release) this.expanding = false;
          if (isEmpty) {
            result.push(EMPTY);
            if (hasComma) counts.push(1);
          }
          this.frames--;
          if (!hasComma) {
            // Not a group: `{` + contents + `}` as literal text.
            let temp: BNode = OPEN_BRACE;
            for (const r of flatten(result)) temp = new SquashNode(temp, asNode(r));
            temp = new SquashNode(temp, CLOSE_BRACE);
            return [temp, this.account(counts.reduce(satMul, 1))];
          }
          // A real group: chain its alternatives (runs of plain strings stay list slices).
          let fin: BNode = NO_ITEMS;
          let start = 0;
          for (let e = 0; e < result.length; e++) {
            const x = result[e]!;
            if (typeof x !== "string" && x !== EMPTY) {
              if (e !== start) fin = new ChainNode(fin, new ListNode(result.slice(start, e) as BItem[]));
              if (Array.isArray(x)) {
                let temp: BNode = ONLY_EMPTY;
                for (const y of x) temp = new SquashNode(temp, asNode(y));
                fin = new ChainNode(fin, temp);
              } else {
                fin = new ChainNode(fin, x);
              }
              start = e + 1;
            }
          }
          if (start < result.length) fin = new ChainNode(fin, new ListNode(result.slice(start) as BItem[]));
          return [fin, this.account(counts.reduce(satAdd, 0))];
        } else if (c === ",") {
          hasComma = true;
          if (isEmpty) {
            result.push(EMPTY);
            counts.push(1);
          } else {
            isEmpty = true;
          }
        } else {
          const [value, lcount] = this.getLiterals(c, depth, keepLooking);
          counts.push(lcount);
          if (value.length > 1) result.push(value);
          else result.push(...value);
          isEmpty = false;
        }
        c = i.next();
      }
    } catch (e) {
      if (e !== STOP_ITERATION) throw e;
      if (release) this.expanding = false;
    }

    // Unterminated: rebuild the text, re-inserting a comma between consecutive plain strings only (as bracex does).
    let temp2: BNode = OPEN_BRACE;
    let lastStr = false;
    for (const r of flatten(result)) {
      const isStr = !isNode(r);
      temp2 = new SquashNode(temp2, isStr ? new ListNode([(lastStr ? "," : "") + (r === EMPTY ? "" : r)]) : r);
      lastStr = isStr;
    }
    this.frames--;
    return [temp2, this.account(counts.reduce(satMul, 1))];
  }

  /** `ExpandBrace.get_range` / `get_int_range` / `get_char_range` (bracex 3.0.1, 19-digit truncation). */
  private getRange(): [BNode, number] | undefined {
    const i = this.i;
    const m = matchRange(this.chars, i.index, "int");
    if (m) {
      i.index = m.end;
      const startRaw = truncateDigits(m.groups[0]!);
      const endRaw = truncateDigits(m.groups[1]!);
      const incRaw = m.groups[2] ? truncateDigits(m.groups[2]) : undefined;
      const first = pyInt(startRaw);
      const last = pyInt(endRaw);
      let inc = incRaw ? pyInt(incRaw) : 1n;
      const maxLength = Math.max(startRaw.length, endRaw.length);
      if (inc === 0n) inc = 1n;
      const s = startRaw[0] === "-" ? startRaw.slice(1) : startRaw;
      const t = endRaw[0] === "-" ? endRaw.slice(1) : endRaw;
      const padding = (s.length > 1 && s[0] === "0") || (t.length > 1 && t[0] === "0") ? maxLength : 0;
      const ainc = inc < 0n ? -inc : inc;
      let span: bigint;
      let step: bigint;
      let stop: bigint;
      if (first < last) {
        span = last + 1n - first;
        step = ainc;
        stop = last + 1n;
      } else {
        span = first + 1n - last;
        step = -ainc;
        stop = last - 1n;
      }
      if (span < 0n) span = -span;
      const count = ainc <= span ? pyCeilDiv(span, ainc) : 1;
      return [new IntRangeNode(first, step, rangeLength(first, stop, step), padding), count];
    }
    const cm = matchRange(this.chars, i.index, "chr");
    if (cm) {
      i.index = cm.end;
      const start = cm.groups[0]![0]!;
      const end = cm.groups[1]![0]!;
      let inc = cm.groups[2] ? pyInt(truncateDigits(cm.groups[2])) : 1n;
      if (inc < 0n) inc = -inc;
      if (inc === 0n) inc = 1n;
      const alpha = start > end ? NALPHA : ALPHA;
      const first = alpha.indexOf(start);
      const last = alpha.indexOf(end);
      const span = first < last ? last + 1 - first : first + 1 - last;
      const count = inc <= BigInt(span) ? Math.ceil(span / Number(inc)) : 1;
      // The alphabet has 58 entries, so any step beyond that yields a single item.
      const step = inc > 64n ? 64 : Number(inc);
      const dir = first < last ? step : -step;
      const length = Number(rangeLength(BigInt(first), BigInt(first < last ? last + 1 : last - 1), BigInt(dir)));
      return [new CharRangeNode(alpha, first, dir, length), count];
    }
    return undefined;
  }
}

interface BraceResult {
  /** `bracex.ExpansionLimitException` (or wcmatch's own count check) would be raised. */
  readonly limitExceeded: boolean;
  /** `RecursionError` inside bracex: wcmatch falls back to the unexpanded pattern. */
  readonly recursionFallback: boolean;
  /** Expansion tree (absent on error/fallback). */
  readonly root?: BNode;
}

/**
 * `parseBraces(pattern, PATTERN_LIMIT)` for recent patterns: a Python pattern's braces are parsed for its error
 * (`pyGlobError`), its literal text (`pyGlobTextLiteralAlternatives`) and its compilation, usually within one check
 * run. A result is a pure function of the pattern (its trees are never changed); bounded, emptied when full.
 */
const BRACES = new BoundedCache<string, BraceResult>({ entries: 1024 });
const BRACES_PATTERN_MAX = 2048;

function parseBraces(pattern: string, limit: number): BraceResult {
  if (limit !== PATTERN_LIMIT || pattern.length > BRACES_PATTERN_MAX) return parseBracesNow(pattern, limit);
  return BRACES.get(pattern) ?? BRACES.set(pattern, parseBracesNow(pattern, limit));
}

function parseBracesNow(pattern: string, limit: number): BraceResult {
  const chars = codePoints(pattern);
  try {
    const root = new BraceParser(chars, limit).parse();
    if (UNITS.iterBase + root.depthC > RECURSION_BUDGET) return { limitExceeded: false, recursionFallback: true };
    return { limitExceeded: false, recursionFallback: false, root };
  } catch (e) {
    if (e instanceof ExpansionLimitError) return { limitExceeded: true, recursionFallback: false };
    if (e === RECURSION_ERROR) return { limitExceeded: false, recursionFallback: true };
    throw e;
  }
}

/** Non-`EMPTY` items of the tree, i.e. what `bracex.iexpand` yields (saturating). */
function yieldCount(root: BNode): number {
  if (root.allEmpty) return 0;
  return root.n >= CAP ? CAP : root.n - root.e;
}

// ---------------------------------------------------------------------------------------------------------------
// wcmatch `_wcparse.WcParse` for PATHNAME | GLOBSTAR (| BRACE), Unix, case-sensitive, no DOTMATCH / EXTMATCH.

/** Characters Python's `re.escape` backslash-escapes (3.7+). */
const PY_RE_SPECIAL = new Set(codePoints("()[]{}?*+-|^$\\.&~# \t\n\r\v\f"));
const pyReEscape = (c: string): string => (PY_RE_SPECIAL.has(c) ? "\\" + c : c);

// The `_wcparse` fragments, formatted with `sep = re.escape('/')`.
const SEP = "[/]";
const NO_DIR = "(?!(?:\\.{1,2})(?:$|[/]))";
const PATH_NO_SLASH = "(?![/])";
const PATH_NO_SLASH_DOT = "(?![/.])";
const PATH_STAR = "[^/]*?";
const PATH_STAR_NO_DOTMATCH = NO_DIR + "(?:(?!\\.)" + PATH_STAR + ")?";
const PATH_GSTAR_DOTMATCH = "(?:(?!(?:[/]|^)(?:\\.{1,2})($|[/])).)*?";
const PATH_GSTAR_NO_DOTMATCH = "(?:(?!(?:[/]|^)\\.).)*?";
const NEED_CHAR_PATH = "(?=[^/])";
const GLOBSTAR_DIV = "(?:^|$|" + SEP + ")+";
const NEED_SEP = "(?=" + SEP + ")";
const PATH_TRAIL = SEP + "*?";
const ONE_OR_MORE_SEP = SEP + "+";
const QMARK = ".";

/** The fixed pieces `WcParse` emits, for the plain-path restatement (pyPlainPath.ts), which recognises them. */
export const WCMATCH_PIECES = {
  SEP,
  ONE_OR_MORE_SEP,
  NO_DIR,
  PATH_NO_SLASH,
  PATH_NO_SLASH_DOT,
  PATH_STAR,
  PATH_STAR_NO_DOTMATCH,
  PATH_GSTAR_NO_DOTMATCH,
  NEED_CHAR_PATH,
  GLOBSTAR_DIV,
  NEED_SEP,
  PATH_TRAIL,
  QMARK,
} as const;
/** `_wcparse.UNICODE_RANGE`: U+0000, `-`, U+10FFFF. */
const UNICODE_RANGE = "\u0000-\u{10FFFF}";

/** `wcmatch.posix.unicode_posix_properties` (the class bodies, with `\x5c` acting as a regex escape). */
const POSIX: Readonly<Record<string, string>> = {
  alnum: "\x30-\x39\x41-\x5a\x61-\x7a",
  alpha: "\x41-\x5a\x61-\x7a",
  ascii: "\x00-\x7f",
  blank: "\x09\x20",
  cntrl: "\x00-\x1f\x7f",
  digit: "\x30-\x39",
  graph: "\x21-\x5c\x7e",
  lower: "\x61-\x7a",
  print: "\x20-\x5c\x7e",
  punct: "\x21-\x2f\x3a-\x40\x5c\x5b-\x60\x7b-\x5c\x7e",
  space: "\x09-\x0d\x20",
  upper: "\x41-\x5a",
  word: "\x30-\x39\x41-\x5a\x5f\x61-\x7a",
  xdigit: "\x30-\x39\x41-\x46\x61-\x66",
};

/** End index of `RE_POSIX` (`:(alnum|…|xdigit):\]`) matched at `k`, if it matches. */
function posixEnd(chars: readonly string[], k: number): number | undefined {
  if (chars[k] !== ":") return undefined;
  let name = "";
  let j = k + 1;
  for (; j < chars.length && j - k <= 7 && chars[j]! >= "a" && chars[j]! <= "z"; j++) name += chars[j];
  if (!Object.hasOwn(POSIX, name) || chars[j] !== ":" || chars[j + 1] !== "]") return undefined;
  return j + 2;
}

class WcParse {
  private dirStart = false;
  private afterStart = false;
  private readonly i: CharIter;
  /** `classEnd` memo: how a class body scan starting at an index ends (see `classBodyEnd`). */
  private classEnds: Int32Array | undefined;

  constructor(chars: readonly string[]) {
    this.i = new CharIter(chars);
  }

  private setAfterStart(): void {
    this.afterStart = true;
    this.dirStart = false;
  }

  private setStartDir(): void {
    this.dirStart = true;
    this.afterStart = false;
  }

  private resetDirTrack(): void {
    this.dirStart = false;
    this.afterStart = false;
  }

  private updateDirState(): void {
    if (this.dirStart && !this.afterStart) this.setAfterStart();
    else if (!this.dirStart && this.afterStart) this.resetDirTrack();
  }

  /** `_restrict_sequence`: at a segment start a class or `?` may not match `.`, `..` or a leading dot. */
  private restrictSequence(): string {
    let value = this.afterStart ? PATH_NO_SLASH_DOT : PATH_NO_SLASH;
    if (this.afterStart) value = NO_DIR + value;
    this.resetDirTrack();
    return value;
  }

  private sequenceRangeCheck(result: string[], last: string): boolean {
    const v1 = ordSecondOrOnly(result[result.length - 2]!);
    const v2 = ordSecondOrOnly(last);
    if (v2 < v1) {
      result.pop();
      result.pop();
      return true;
    }
    result.push(last);
    return false;
  }

  /** `_handle_posix`: `RE_POSIX` matched right after a `[` inside a class. */
  private handlePosix(result: string[], endRange: number): boolean {
    const chars = this.i.chars;
    const end = posixEnd(chars, this.i.index);
    if (end === undefined) return false;
    const name = chars.slice(this.i.index + 1, end - 2).join("");
    this.i.index = end;
    // wcmatch escapes the previous item when a POSIX class lands where a range end is expected.
    if (endRange && this.i.index - 1 >= endRange) result[result.length - 1] = "\\" + result[result.length - 1];
    result.push(POSIX[name]!);
    return true;
  }

  private sequence(): string {
    const i = this.i;
    let result = ["["];
    let endRange = 0;
    let escapeHyphen = -1;
    let removed = false;
    let lastPosix = false;

    let c = i.next();
    if (c === "!" || c === "^") {
      result.push("^");
      c = i.next();
    }
    if (c === "[") {
      lastPosix = this.handlePosix(result, 0);
      if (!lastPosix) result.push(pyReEscape(c));
      c = i.next();
    } else if (c === "-" || c === "]") {
      result.push(pyReEscape(c));
      c = i.next();
    }
    // A class that cannot close is abandoned only at the next `/` or the end: rescanning that tail from every
    // unclosed `[` is quadratic (in wcmatch too), so the outcome of the scan is memoised per position.
    if (this.classBodyEnd(i.index - 1) < 0) throw STOP_ITERATION;

    while (c !== "]") {
      if (c === "-") {
        if (lastPosix) {
          result.push("\\" + c);
          lastPosix = false;
        } else if (i.index - 1 > escapeHyphen) {
          // A range delimiter; the next two characters cannot be delimiters themselves.
          result.push(c);
          escapeHyphen = i.index + 1;
          endRange = i.index;
        } else if (endRange && i.index - 1 >= endRange) {
          if (this.sequenceRangeCheck(result, "\\" + c)) removed = true;
          endRange = 0;
        } else {
          result.push("\\" + c);
        }
        c = i.next();
        continue;
      }
      lastPosix = false;

      if (c === "[") {
        lastPosix = this.handlePosix(result, endRange);
        if (lastPosix) {
          c = i.next();
          continue;
        }
      }

      let value: string;
      if (c === "\\") {
        try {
          value = this.references(true);
        } catch (e) {
          if (e === DOT_EXCEPTION) value = pyReEscape(i.next());
          else if (e === PATHNAME_EXCEPTION) throw STOP_ITERATION;
          else throw e;
        }
      } else if (c === "/") {
        throw STOP_ITERATION; // PATHNAME: a class cannot span a separator
      } else if (c === "&" || c === "~" || c === "|") {
        value = "\\" + c;
      } else {
        value = c;
      }

      if (endRange && i.index - 1 >= endRange) {
        if (this.sequenceRangeCheck(result, value)) removed = true;
        endRange = 0;
      } else {
        result.push(value);
      }
      c = i.next();
    }

    result.push("]");
    if (removed) {
      const value = result.join("");
      if (value === "[]") result = ["[^" + UNICODE_RANGE + "]"];
      else if (value === "[^]") result = ["[" + UNICODE_RANGE + "]"];
      else result = [value];
    }
    return this.restrictSequence() + result.join("");
  }

  /**
   * Where the main loop of `_sequence`, entered with its current character at `start`, stops: the index after the
   * closing `]`, or -1 when it raises `StopIteration` (a `/`, `\/`, a trailing `\` or the end). Which characters
   * a step consumes depends only on the position (ranges change the output, never the consumption), so every
   * position visited in one scan shares its outcome.
   */
  private classBodyEnd(start: number): number {
    const chars = this.i.chars;
    const memo = (this.classEnds ??= new Int32Array(chars.length + 1).fill(-2));
    const visited: number[] = [];
    let p = start;
    let outcome: number;
    for (;;) {
      if (p >= chars.length) {
        outcome = -1;
        break;
      }
      if (memo[p] !== -2) {
        outcome = memo[p]!;
        break;
      }
      visited.push(p);
      const c = chars[p]!;
      if (c === "]") {
        outcome = p + 1;
        break;
      }
      if (c === "/") {
        outcome = -1;
        break;
      }
      if (c === "\\") {
        const d = chars[p + 1];
        if (d === undefined || d === "/") {
          outcome = -1;
          break;
        }
        p += 2;
      } else if (c === "[") {
        p = posixEnd(chars, p + 1) ?? p + 1;
      } else {
        p++;
      }
    }
    for (const v of visited) memo[v] = outcome;
    return outcome;
  }

  /** `_references` for Unix PATHNAME outside extglob lists. */
  private references(sequence: boolean): string {
    const c = this.i.next();
    if (c === "\\") return "\\\\";
    if (c === "/") {
      if (sequence) throw PATHNAME_EXCEPTION;
      this.setStartDir();
      return ONE_OR_MORE_SEP;
    }
    if (c === ".") {
      this.i.rewind(1);
      throw DOT_EXCEPTION;
    }
    return pyReEscape(c);
  }

  private handleStar(current: string[]): void {
    const i = this.i;
    const star = this.afterStart ? PATH_STAR_NO_DOTMATCH : PATH_STAR;
    const globstar = this.afterStart ? PATH_GSTAR_NO_DOTMATCH : PATH_GSTAR_DOTMATCH;
    let value = star;

    if (this.afterStart) {
      let skip = false;
      try {
        const c = i.next();
        if (c !== "*") {
          i.rewind(1);
          skip = true;
        }
      } catch (e) {
        if (e !== STOP_ITERATION) throw e;
        skip = true;
      }
      if (!skip) {
        // `**` is a globstar only when the segment ends right after it.
        try {
          const index = i.index;
          const c = i.next();
          if (c === "\\") {
            try {
              this.references(true);
            } catch (e) {
              if (e === PATHNAME_EXCEPTION || e === STOP_ITERATION) value = globstar;
              else if (e !== DOT_EXCEPTION) throw e;
            }
          } else if (c === "/") {
            value = globstar;
          }
          if (value !== globstar) i.rewind(i.index - index);
        } catch (e) {
          if (e !== STOP_ITERATION) throw e;
          value = globstar;
        }
      }
    }

    if (this.afterStart && value !== globstar) {
      value = NEED_CHAR_PATH + value;
      try {
        let c = i.next();
        while (c === "*") c = i.next();
        i.rewind(1);
      } catch (e) {
        if (e !== STOP_ITERATION) throw e;
      }
    }

    this.resetDirTrack();
    if (value === globstar) {
      if (current[current.length - 1] !== GLOBSTAR_DIV) {
        if (current[current.length - 1] === "") {
          current[current.length - 1] = value;
        } else {
          current[current.length - 1] = NEED_SEP;
          current.push(value);
        }
        this.consumePathSep();
        current.push(GLOBSTAR_DIV);
      }
      this.setStartDir();
    } else {
      current.push(value);
    }
  }

  private consumePathSep(): void {
    try {
      let c = "/";
      while (c === "/") c = this.i.next();
      this.i.rewind(1);
    } catch (e) {
      if (e !== STOP_ITERATION) throw e;
    }
  }

  private root(current: string[]): void {
    const i = this.i;
    this.setAfterStart();
    while (i.index < i.chars.length) {
      const c = i.next();
      if (c === ".") {
        current.push(pyReEscape("."));
      } else if (c === "*") {
        this.handleStar(current);
      } else if (c === "?") {
        current.push(this.restrictSequence() + QMARK);
      } else if (c === "/") {
        this.setStartDir();
        current.push(ONE_OR_MORE_SEP);
        this.consumePathSep();
      } else if (c === "\\") {
        const index = i.index;
        try {
          const value = this.references(false);
          if (this.dirStart) this.consumePathSep();
          current.push(value);
        } catch (e) {
          if (e === DOT_EXCEPTION) continue; // the `.` is handled next, without a state update
          if (e !== STOP_ITERATION) throw e;
          i.rewind(i.index - index); // a trailing backslash escapes nothing
        }
      } else if (c === "[") {
        const index = i.index;
        try {
          current.push(this.sequence());
        } catch (e) {
          if (e !== STOP_ITERATION) throw e;
          i.rewind(i.index - index);
          current.push(pyReEscape(c));
        }
      } else {
        current.push(pyReEscape(c));
      }
      this.updateDirState();
    }
    current.push(PATH_TRAIL);
  }

  /** `WcParse._parse` minus the `^(?s:` … `)$` wrapper, as the list of self-contained fragments it joins. */
  fragments(): string[] {
    const current = [""];
    const chars = this.i.chars;
    if (!(chars.length === 1 && chars[0] === "\\") && chars.length) this.root(current);
    return current;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Python `re` (the subset wcmatch emits): parsed once into a small AST, from which we emit an equivalent
// JavaScript `su` RegExp source and a Pike-VM program. The VM does the matching: it runs in
// O(path × pattern) whatever the pattern (V8's backtracking engine can go exponential on star-heavy globs, and
// its compiler overflows on the long atom sequences that 100k-character patterns produce).

const PY_PREFIX = "^(?s:";
const PY_SUFFIX = ")$";

/** Python `re.error(msg, pattern, pos)` formatting. */
function pyReErrorMessage(msg: string, pattern: readonly string[], pos: number): string {
  let text = `${msg} at position ${pos}`;
  if (pattern.includes("\n")) {
    let line = 1;
    let lastNewline = -1;
    for (let k = 0; k < pos; k++) {
      if (pattern[k] === "\n") {
        line++;
        lastNewline = k;
      }
    }
    text += ` (line ${line}, column ${pos - lastNewline})`;
  }
  return text;
}

/** Code point ranges, optionally negated (`.` under DOTALL is the empty negated set). */
export interface CharSet {
  readonly negate: boolean;
  readonly ranges: ReadonlyArray<readonly [number, number]>;
}

export type Ast =
  | { readonly t: "lit"; readonly cps: readonly number[] }
  | { readonly t: "set"; readonly set: CharSet }
  | { readonly t: "dot" }
  | { readonly t: "seq"; readonly items: readonly Ast[] }
  | { readonly t: "alt"; readonly alts: readonly Ast[] }
  | { readonly t: "rep"; readonly body: Ast; readonly min: number; readonly max: number; readonly lazy: boolean }
  | { readonly t: "bol" }
  | { readonly t: "eol" }
  | { readonly t: "look"; readonly negate: boolean; readonly body: Ast };

export function setHas(set: CharSet, cp: number): boolean {
  // Indexed, not `for (const [lo, hi] of …)`: the VM asks this for every character it tries, and until V8 has
  // optimised it (a cold CLI run never gets there) each destructuring step allocates an iterator.
  const ranges = set.ranges;
  let inside = false;
  for (let i = 0; i < ranges.length; i++) {
    const range = ranges[i]!;
    if (cp >= range[0] && cp <= range[1]) {
      inside = true;
      break;
    }
  }
  return inside !== set.negate;
}

/** `sre_parse._class_escape` results reachable from wcmatch output (plus the plain escapes Python accepts). */
const PY_CLASS_ESCAPES: Readonly<Record<string, number>> = {
  a: 7,
  b: 8,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
  v: 11,
  "\\": 92,
};

/**
 * Recursive descent over the regex text wcmatch produced. Character classes follow `sre_parse._parse` exactly,
 * including its errors, because wcmatch's class builder can emit text Python rejects (e.g.
 * `[a-[:alpha:][:upper:]]` becomes a class containing `\A`).
 */
class PyRegexParser {
  private pos: number;

  constructor(
    private readonly py: readonly string[],
    start: number,
    private readonly end: number,
  ) {
    this.pos = start;
  }

  parse(): Ast {
    const ast = this.alternation();
    if (this.pos !== this.end) throw new Error(`pyGlob: unexpected ${this.py[this.pos]} in wcmatch output`);
    return ast;
  }

  private alternation(): Ast {
    const alts = [this.sequence()];
    while (this.pos < this.end && this.py[this.pos] === "|") {
      this.pos++;
      alts.push(this.sequence());
    }
    return alts.length === 1 ? alts[0]! : { t: "alt", alts };
  }

  private sequence(): Ast {
    const items: Ast[] = [];
    let run: number[] = [];
    const flush = () => {
      if (run.length) items.push({ t: "lit", cps: run });
      run = [];
    };
    while (this.pos < this.end && this.py[this.pos] !== "|" && this.py[this.pos] !== ")") {
      const atom = this.atom();
      const item = this.quantified(atom);
      // Unquantified literals are merged into runs: a 100k-character pattern is mostly one literal.
      if (item.t === "lit") {
        run.push(item.cps[0]!);
      } else {
        flush();
        items.push(item);
      }
    }
    flush();
    return items.length === 1 ? items[0]! : { t: "seq", items };
  }

  private quantified(atom: Ast): Ast {
    const c = this.py[this.pos];
    let min: number;
    let max: number;
    if (c === "*" || c === "+" || c === "?") {
      min = c === "+" ? 1 : 0;
      max = c === "?" ? 1 : Infinity;
      this.pos++;
    } else if (c === "{") {
      const close = this.py.indexOf("}", this.pos);
      const [lo, hi] = this.py.slice(this.pos + 1, close).join("").split(",");
      min = Number(lo);
      max = hi === undefined ? min : hi === "" ? Infinity : Number(hi);
      this.pos = close + 1;
    } else {
      return atom;
    }
    const lazy = this.py[this.pos] === "?";
    if (lazy) this.pos++;
    return { t: "rep", body: atom, min, max, lazy };
  }

  private atom(): Ast {
    const py = this.py;
    const c = py[this.pos]!;
    this.pos++;
    switch (c) {
      case "(": {
        let look: "=" | "!" | undefined;
        if (py[this.pos] === "?") {
          const kind = py[this.pos + 1]!;
          if (kind === "=" || kind === "!") look = kind;
          else if (kind !== ":") throw new Error(`pyGlob: unexpected group (?${kind} in wcmatch output`);
          this.pos += 2;
        }
        const body = this.alternation();
        if (py[this.pos] !== ")") throw new Error("pyGlob: unbalanced group in wcmatch output");
        this.pos++;
        return look ? { t: "look", negate: look === "!", body } : body;
      }
      case "[":
        return { t: "set", set: this.charClass(this.pos - 1) };
      case ".":
        return { t: "dot" };
      case "^":
        return { t: "bol" };
      case "$":
        return { t: "eol" };
      case "\\": {
        const d = py[this.pos]!;
        this.pos++;
        // Outside classes wcmatch only escapes via `re.escape`, which never escapes letters or digits.
        if (/^[A-Za-z0-9]$/.test(d)) throw new Error(`pyGlob: unexpected escape \\${d} in wcmatch output`);
        return { t: "lit", cps: [d.codePointAt(0)!] };
      }
      default:
        return { t: "lit", cps: [c.codePointAt(0)!] };
    }
  }

  /** One class item as `sre_parse` tokenises it: a character, or `\` plus one character (octal takes more). */
  private classItem(): { value: number; token: string; start: number } {
    const py = this.py;
    const start = this.pos;
    const c = py[start];
    if (c === undefined) throw new PyReError("unterminated character set", start);
    if (c !== "\\") {
      this.pos++;
      return { value: c.codePointAt(0)!, token: c, start };
    }
    const d = py[start + 1];
    if (d === undefined) throw new PyReError("bad escape (end of pattern)", start);
    const token = c + d;
    this.pos += 2;
    if (d in PY_CLASS_ESCAPES) return { value: PY_CLASS_ESCAPES[d]!, token, start };
    if (d >= "0" && d <= "7") {
      let digits = d;
      while (digits.length < 3 && py[this.pos] !== undefined && py[this.pos]! >= "0" && py[this.pos]! <= "7") {
        digits += py[this.pos++];
      }
      const value = parseInt(digits, 8);
      if (value > 0o377) {
        const msg = `octal escape value \\${digits} outside of range 0-0o377`;
        throw new PyReError(msg, start);
      }
      return { value, token, start };
    }
    // `\d`, `\x41`, … would be valid Python here, but wcmatch can only put `\A` / `\a` / `\0` / `\` + punctuation
    // after a backslash inside a class; any other ASCII letter or digit is Python's "bad escape".
    if (/^[A-Za-z0-9]$/.test(d)) throw new PyReError(`bad escape ${token}`, start);
    return { value: d.codePointAt(0)!, token, start };
  }

  /** wcmatch repeats the same few classes (`[/]`, `[^/]`, …); identical class text shares one set. */
  private readonly classCache = new Map<string, { set: CharSet; length: number }>();

  private charClass(open: number): CharSet {
    const close = this.py.indexOf("]", open + 2);
    const key = close > 0 ? this.py.slice(open, close + 1).join("") : "";
    const cached = key && !key.includes("\\") ? this.classCache.get(key) : undefined;
    if (cached) {
      this.pos = open + cached.length;
      return cached.set;
    }
    const set = this.parseClass(open);
    if (key && !key.includes("\\") && this.pos === close + 1) this.classCache.set(key, { set, length: close + 1 - open });
    return set;
  }

  private parseClass(open: number): CharSet {
    const py = this.py;
    let negate = false;
    if (py[this.pos] === "^") {
      negate = true;
      this.pos++;
    }
    const ranges: Array<[number, number]> = [];
    for (let first = true; ; first = false) {
      if (py[this.pos] === undefined) throw new PyReError("unterminated character set", open);
      if (py[this.pos] === "]" && !first) {
        this.pos++;
        break;
      }
      const a = this.classItem();
      if (py[this.pos] === "-") {
        this.pos++;
        if (py[this.pos] === undefined) {
          throw new PyReError("unterminated character set", open);
        }
        if (py[this.pos] === "]") {
          this.pos++;
          ranges.push([a.value, a.value], [45, 45]);
          break;
        }
        const b = this.classItem();
        if (b.value < a.value) {
          throw new PyReError(`bad character range ${a.token}-${b.token}`, a.start);
        }
        ranges.push([a.value, b.value]);
      } else {
        ranges.push([a.value, a.value]);
      }
    }
    return { negate, ranges };
  }
}

function jsCodePoint(cp: number): string {
  return `\\u{${cp.toString(16)}}`;
}

function jsLiteral(cp: number): string {
  const c = String.fromCodePoint(cp);
  // With the `u` flag only syntax characters may be backslash-escaped outside a class.
  if ("^$\\.*+?()[]{}|/".includes(c)) return "\\" + c;
  if (cp >= 0x20 && cp < 0x7f) return c;
  return jsCodePoint(cp);
}

/** JavaScript (`u` + `s` flags) source for the AST; Python's `$` becomes "end, or before a final newline". */
function astToJs(ast: Ast): string {
  switch (ast.t) {
    case "lit":
      return ast.cps.map(jsLiteral).join("");
    case "dot":
      return ".";
    case "set": {
      const { negate, ranges } = ast.set;
      const body = ranges.map(([lo, hi]) => (lo === hi ? jsCodePoint(lo) : `${jsCodePoint(lo)}-${jsCodePoint(hi)}`));
      return `[${negate ? "^" : ""}${body.join("")}]`;
    }
    case "seq":
      return ast.items.map(astToJs).join("");
    case "alt":
      return `(?:${ast.alts.map(astToJs).join("|")})`;
    case "rep": {
      const q =
        ast.min === 0 && ast.max === Infinity
          ? "*"
          : ast.min === 1 && ast.max === Infinity
            ? "+"
            : ast.min === 0 && ast.max === 1
              ? "?"
              : `{${ast.min},${ast.max === Infinity ? "" : ast.max}}`;
      const body = astToJs(ast.body);
      const atom = ast.body.t === "set" || ast.body.t === "dot" || (ast.body.t === "lit" && ast.body.cps.length === 1);
      return `${atom ? body : `(?:${body})`}${q}${ast.lazy ? "?" : ""}`;
    }
    case "bol":
      return "^";
    case "eol":
      return "(?=\\n?$)";
    case "look":
      return `(?${ast.negate ? "!" : "="}${astToJs(ast.body)})`;
  }
}

// Pike VM over code points. `Char` states consume one code point; the others are epsilon moves.
const OP_CHAR = 0; // `arg` = code point
const OP_SET = 1; // `arg` = index into `sets`
const OP_ANY = 2;
const OP_SPLIT = 3; // `arg` = second branch
const OP_BOL = 4;
const OP_EOL = 5;
const OP_LOOK = 6; // `arg` = index into `looks`, one's complement when negative
const OP_MATCH = 7;

interface Program {
  readonly op: Uint8Array;
  readonly next: Int32Array;
  readonly arg: Int32Array;
  readonly sets: readonly CharSet[];
  /** Lookahead bodies are tiny and bounded (`[/]`, `\.{1,2}(?:$|[/])`, …), so sticky native regexes decide them. */
  readonly looks: readonly RegExp[];
  readonly start: number;
  /** Reused between runs: a state is "seen" at a step when its mark equals that step's generation. */
  readonly mark: Int32Array;
  epoch: number;
}

class ProgramBuilder {
  private size = 0;
  private op = new Uint8Array(64);
  private next = new Int32Array(64);
  private arg = new Int32Array(64);
  private sets: CharSet[] = [];
  private readonly setIndex = new Map<CharSet, number>();
  private looks: RegExp[] = [];
  private readonly lookIndex = new Map<RegExp, number>();

  /**
   * One builder for every program: a cold `check` compiles hundreds of patterns, and allocating three typed
   * arrays and three maps for each was a tenth of compiling one. `build` copies out what the program keeps.
   */
  private static readonly scratch = new ProgramBuilder();

  private add(op: number, next: number, arg = 0): number {
    if (this.size === this.op.length) {
      const grow = <T extends Uint8Array | Int32Array>(a: T, b: T): T => (b.set(a), b);
      this.op = grow(this.op, new Uint8Array(this.size * 2));
      this.next = grow(this.next, new Int32Array(this.size * 2));
      this.arg = grow(this.arg, new Int32Array(this.size * 2));
    }
    this.op[this.size] = op;
    this.next[this.size] = next;
    this.arg[this.size] = arg;
    return this.size++;
  }

  static build(ast: Ast): Program {
    const b = ProgramBuilder.scratch;
    b.size = 0;
    b.sets = [];
    b.looks = [];
    b.setIndex.clear();
    b.lookIndex.clear();
    const start = b.compile(ast, b.add(OP_MATCH, -1));
    const program: Program = {
      op: b.op.slice(0, b.size),
      next: b.next.slice(0, b.size),
      arg: b.arg.slice(0, b.size),
      sets: b.sets,
      looks: b.looks,
      start,
      mark: new Int32Array(b.size).fill(-1),
      epoch: 0,
    };
    // Nothing of this program stays reachable from the builder (a huge pattern's arrays are let go).
    if (b.op.length > 4096) {
      b.op = new Uint8Array(64);
      b.next = new Int32Array(64);
      b.arg = new Int32Array(64);
    }
    b.sets = [];
    b.looks = [];
    b.setIndex.clear();
    b.lookIndex.clear();
    return program;
  }

  /** Thompson construction in continuation-passing style: returns the entry state of `ast` followed by `next`. */
  private compile(ast: Ast, next: number): number {
    switch (ast.t) {
      case "lit": {
        let entry = next;
        for (let k = ast.cps.length - 1; k >= 0; k--) entry = this.add(OP_CHAR, entry, ast.cps[k]!);
        return entry;
      }
      case "set": {
        let index = this.setIndex.get(ast.set);
        if (index === undefined) {
          index = this.sets.push(ast.set) - 1;
          this.setIndex.set(ast.set, index);
        }
        return this.add(OP_SET, next, index);
      }
      case "dot":
        return this.add(OP_ANY, next);
      case "seq": {
        let entry = next;
        for (let k = ast.items.length - 1; k >= 0; k--) entry = this.compile(ast.items[k]!, entry);
        return entry;
      }
      case "alt": {
        let entry = this.compile(ast.alts[ast.alts.length - 1]!, next);
        for (let k = ast.alts.length - 2; k >= 0; k--) {
          const branch = this.compile(ast.alts[k]!, next);
          entry = this.add(OP_SPLIT, branch, entry);
        }
        return entry;
      }
      case "rep": {
        let entry: number;
        if (ast.max === Infinity) {
          const loop = this.add(OP_SPLIT, -1, next);
          this.next[loop] = this.compile(ast.body, loop);
          entry = loop;
        } else {
          entry = next;
          for (let k = ast.min; k < ast.max; k++) {
            const body = this.compile(ast.body, entry);
            entry = this.add(OP_SPLIT, body, next);
          }
        }
        for (let k = 0; k < ast.min; k++) entry = this.compile(ast.body, entry);
        return entry;
      }
      case "bol":
        return this.add(OP_BOL, next);
      case "eol":
        return this.add(OP_EOL, next);
      case "look": {
        // Parsed fragments are shared, so most lookaheads are found by identity before serialising.
        let re = LOOK_BY_AST.get(ast.body);
        if (!re) LOOK_BY_AST.set(ast.body, (re = lookRegex(astToJs(ast.body))));
        let index = this.lookIndex.get(re);
        if (index === undefined) {
          index = this.looks.push(re) - 1;
          this.lookIndex.set(re, index);
        }
        return this.add(OP_LOOK, next, ast.negate ? ~index : index);
      }
    }
  }
}

/**
 * The sticky regex of a lookahead body, one per distinct source for every program: every pattern has the same
 * few (`[/]`, `\.{1,2}(?:$|[/])`, …), and V8 compiles a regex again for each new RegExp object. Sharing is safe:
 * `lookHolds` sets `lastIndex` before each test and nothing runs in between.
 */
const LOOK_REGEXES = new BoundedCache<string, RegExp>({ entries: 1024 });
/** The same, found by the (shared, cached) body of a parsed fragment before it is written out as source. */
const LOOK_BY_AST = new WeakMap<Ast, RegExp>();

function lookRegex(source: string): RegExp {
  return LOOK_REGEXES.get(source) ?? LOOK_REGEXES.set(source, new RegExp(source, "suy"));
}

/**
 * Per-run state of `runProgram` (kept out of closures: they cost an allocation per match). There is one, reused by
 * every run: `runProgram` never re-enters itself (lookaheads run on native regexes), and a rule list calls it
 * hundreds of times per decision.
 */
interface Run {
  prog: Program;
  s: string;
  epoch: number;
  /** Work stack of `addClosure`: each state it marks pushes at most two, so twice the states (+1) suffices. */
  stack: Int32Array;
  /** The consuming states reached at the current position and at the next one, with their counts. */
  current: Int32Array;
  following: Int32Array;
  followingCount: number;
  lookCache: Map<number, boolean> | undefined;
  matched: boolean;
}

const RUN: Run = {
  prog: undefined as unknown as Program,
  s: "",
  epoch: 0,
  stack: new Int32Array(64),
  current: new Int32Array(64),
  following: new Int32Array(64),
  followingCount: 0,
  lookCache: undefined,
  matched: false,
};

/**
 * Lookahead answers of the current run, by `look × (length + 1) + position`: an entry is valid when its stamp is
 * the run's (`lookRun`), so nothing is cleared between runs. Runs whose key space is larger than this (very long
 * paths) use `run.lookCache` instead.
 */
const LOOK_TABLE_LIMIT = 1 << 16;
let lookStamps = new Int32Array(256);
let lookAnswers = new Uint8Array(256);
let lookRun = 0;

function lookHolds(run: Run, ref: number, pos: number): boolean {
  const index = ref >= 0 ? ref : ~ref;
  const key = index * (run.s.length + 1) + pos;
  let hit: boolean | undefined;
  if (run.lookCache === undefined) {
    if (lookStamps[key] === lookRun) {
      hit = lookAnswers[key] === 1;
    } else {
      const re = run.prog.looks[index]!;
      re.lastIndex = pos;
      hit = re.test(run.s);
      lookStamps[key] = lookRun;
      lookAnswers[key] = hit ? 1 : 0;
    }
  } else {
    hit = run.lookCache.get(key);
    if (hit === undefined) {
      const re = run.prog.looks[index]!;
      re.lastIndex = pos;
      hit = re.test(run.s);
      run.lookCache.set(key, hit);
    }
  }
  return ref >= 0 ? hit : !hit;
}

/** Makes the lookahead table ready for a run over `length` code units with `looks` lookaheads. */
function startLookRun(run: Run, looks: number, length: number): void {
  const keys = looks * (length + 1);
  if (keys > LOOK_TABLE_LIMIT) {
    run.lookCache = new Map();
    return;
  }
  run.lookCache = undefined;
  if (keys > lookStamps.length) {
    let size = lookStamps.length;
    while (size < keys) size *= 2;
    lookStamps = new Int32Array(size);
    lookAnswers = new Uint8Array(size);
    lookRun = 0;
  }
  // Stamps start at 0 in a fresh table, so runs are numbered from 1; wrap-around clears the table.
  if (++lookRun === 0x7fffffff) {
    lookStamps.fill(0);
    lookRun = 1;
  }
}

/** Follow epsilon moves from `entry` at `pos`, adding the consuming states reached to `run.following`. */
function addClosure(run: Run, entry: number, pos: number): void {
  const { op, next, arg, mark } = run.prog;
  const { s, stack, following } = run;
  const gen = run.epoch + pos;
  let top = 0;
  stack[top++] = entry;
  while (top > 0) {
    const st = stack[--top]!;
    if (mark[st] === gen) continue;
    mark[st] = gen;
    switch (op[st]) {
      case OP_CHAR:
      case OP_SET:
      case OP_ANY:
        following[run.followingCount++] = st;
        break;
      case OP_SPLIT:
        stack[top++] = arg[st]!;
        stack[top++] = next[st]!;
        break;
      case OP_BOL:
        if (pos === 0) stack[top++] = next[st]!;
        break;
      case OP_EOL:
        if (pos === s.length || (pos === s.length - 1 && s.charCodeAt(pos) === 10)) stack[top++] = next[st]!;
        break;
      case OP_LOOK:
        if (lookHolds(run, arg[st]!, pos)) stack[top++] = next[st]!;
        break;
      case OP_MATCH:
        if (pos === s.length) run.matched = true;
        break;
    }
  }
}

/** Python `re.fullmatch` of the program against `s` (positions are UTF-16 indexes, steps are code points). */
function runProgram(prog: Program, s: string): boolean {
  const { op, next, arg, sets, mark } = prog;
  const length = s.length;
  // Generations are `epoch + position`; move the epoch past this run so marks never collide across runs.
  if (prog.epoch > 0x3fffffff - length) {
    mark.fill(-1);
    prog.epoch = 0;
  }
  const run = RUN;
  const states = op.length;
  if (run.current.length < states) {
    run.current = new Int32Array(states);
    run.following = new Int32Array(states);
  }
  if (run.stack.length < 2 * states + 1) run.stack = new Int32Array(2 * states + 1);
  run.prog = prog;
  run.s = s;
  run.epoch = prog.epoch;
  startLookRun(run, prog.looks.length, length);
  run.matched = false;
  prog.epoch += length + 2;
  // The closure at position 0 is collected into `following`, then becomes `current`.
  run.followingCount = 0;
  addClosure(run, prog.start, 0);
  let pos = 0;
  while (!run.matched && run.followingCount > 0 && pos < length) {
    const current = run.following;
    const count = run.followingCount;
    run.following = run.current;
    run.current = current;
    run.followingCount = 0;
    const cp = s.codePointAt(pos)!;
    const after = pos + (cp > 0xffff ? 2 : 1);
    for (let k = 0; k < count; k++) {
      const st = current[k]!;
      const o = op[st];
      if (o === OP_ANY || (o === OP_CHAR ? arg[st] === cp : setHas(sets[arg[st]!]!, cp))) {
        addClosure(run, next[st]!, after);
      }
    }
    pos = after;
  }
  return run.matched;
}

/**
 * A RegExp whose matching runs on the Pike VM, for patterns whose JavaScript source V8 cannot take (it parses
 * sources eagerly and compiles them recursively: ~1 s and a stack overflow for a 100k-character glob), so
 * `regexes` stays usable for any pattern.
 */
class PyGlobRegExp extends RegExp {
  private fullSource: string | undefined;

  constructor(
    private readonly sourceParts: readonly string[],
    private readonly program: Program,
  ) {
    super("(?:)", "su");
  }

  override get source(): string {
    return (this.fullSource ??= `^(?:${this.sourceParts.join("")})$`);
  }

  override exec(input: string): RegExpExecArray | null {
    const s = String(input);
    if (!runProgram(this.program, s)) return null;
    const result = [s] as unknown as RegExpExecArray;
    result.index = 0;
    result.input = s;
    return result;
  }
}

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
const FRAGMENTS = new BoundedCache<string, ParsedFragment>({ entries: 10_000 });

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
const EXPANSIONS = new BoundedCache<string, CompiledExpansion>({ entries: 4096 });

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
  // expansion below does not know: such a pattern gets no pre-check (review finding, 5 Dec: `/${a,b}/**` missed
  // `/${a,b}/x`).
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
