/**
 * bracex 3.0.1 (`bracex.ExpandBrace`), called from `_wcparse.expand_braces` as
 * `bracex.iexpand(pattern, keep_escapes=True, limit=1000)`: ported as a parser that builds the same iterator tree
 * bracex builds, with its counts, so the expansion limit (and Python's `RecursionError`, which `expand_braces`
 * swallows by falling back to the unexpanded pattern) is decided without expanding anything.
 */
import { sharedCache } from "../../caches";
import { CharIter, STOP_ITERATION, Signal, codePoints } from "./python";

/** wcmatch `_wcparse.PATTERN_LIMIT`; `globmatch` passes it to bracex as `limit`. */
export const PATTERN_LIMIT = 1000;
/**
 * `_wcparse.compile_pattern` turns `bracex.ExpansionLimitException` ("Brace expansion has exceeded the limit of
 * 1000") into `wcmatch._wcparse.PatternLimitException` with this text; `globmatch` lets it propagate.
 */
export const PATTERN_LIMIT_MESSAGE = `Pattern limit exceeded the limit of ${PATTERN_LIMIT}`;

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

const RECURSION_ERROR = new Signal("RecursionError");

class ExpansionLimitError {
  readonly message = `Brace expansion has exceeded the limit of ${PATTERN_LIMIT}`;
}

/** bracex's `EMPTY` sentinel: an empty alternative, dropped by `ExpandBrace.expand` unless joined with text. */
export const EMPTY = Symbol("EMPTY");
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
const BRACES = sharedCache<string, BraceResult>("runtime/pyGlob/bracex.BRACES", { entries: 1024 });
const BRACES_PATTERN_MAX = 2048;

export function parseBraces(pattern: string, limit: number): BraceResult {
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
export function yieldCount(root: BNode): number {
  if (root.allEmpty) return 0;
  return root.n >= CAP ? CAP : root.n - root.e;
}
