import { parseWcmatchFragment, setHas, wcmatchFragments, WCMATCH_PIECES as W, type Ast, type CompiledPyGlob } from "./pyGlob";
import type { PlainPathRegex } from "./runtime";
import { ThompsonNfa } from "./thompsonNfa";

// ---------------------------------------------------------------------------------------------------------------
// wcmatch's regular expression, restated for plain paths (runtime.ts `PlainPathRegex`), so Python rule lists can
// use the rule automaton (permissions/ruleAutomaton.ts), and each pattern its own small automaton
// (`PlainPathDfa`, below), instead of one Pike-VM run per pattern and path.
//
// The restatement reads the pieces `WcParse` emits for each brace expansion (pyGlob/compile.ts `wcmatchFragments`), never
// the glob, and gives up (`undefined`) on anything it does not recognise. Two properties must hold, because the
// automaton relies on both (ruleAutomaton.ts): on a plain path it accepts exactly what wcmatch accepts, and on every
// other string it accepts at least that. So an assertion is only ever dropped (which widens) where it holds on
// every plain path reached that way, or restated exactly. The pieces, in the order `WcParse.root` emits them, for a
// pattern that starts with `/` (deepagents-py refuses every other permission path):
//
//   [/]+                       a `/` of the glob: `/` then `/*`, as written.
//   a literal (`a`, `\.`)      itself, when ASCII (the automaton names no other code unit).
//   [^/]*?                     `*` inside a segment: `[^/]*` (laziness does not change a full match).
//   (?=[^/])NO_DIR(?:(?!\.)[^/]*?)?
//                              `*` at a segment start. It always follows a `/` here (a `[/]+`, or a `**` that ends
//                              with one, see below), and after a `/` a plain path holds a non-empty segment that
//                              is neither `.` nor `..`: both look-aheads hold and are dropped. What stays is
//                              "nothing, or a first character other than `.` then `[^/]*`", which is why `/*.txt`
//                              matches `/.txt` (the star matches nothing before the literal `.`).
//   NO_DIR(?![/.])X  (?![/])X  `?` (X = `.`) or a class at / after a segment start: X without `/` and `.` (the
//                              NO_DIR look-ahead dropped as above), or X without `/`. X must name ASCII only: a
//                              non-ASCII code point is one step for Python and one or two code units for the
//                              automaton, whose single column for them cannot tell which (so `?` gives up).
//   (?=[/]) GSTAR (?:^|$|[/])+ `**` as a whole segment (it replaces the `[/]+` before it). GSTAR,
//                              `(?:(?!(?:[/]|^)\.).)*?`, consumes text in which no `/` is followed by `.` (nor a
//                              `.` at offset 0, impossible after the `(?=[/])`); the `/` or end-of-input that the
//                              divider then needs makes the look-ahead past GSTAR's last character hold by itself.
//                              So the three are exactly (nothing | `/` X) (`/+` | end), X = any text with no `/.`
//                              and not starting with `.` (nothing then end is ruled out by the `(?=[/])`). The
//                              divider's `$` branch survives only when the pattern ends there (everything after
//                              `**` needs a character, or a `(?=[^/])`), and its `^` branch (offset 0, a leading
//                              `/**`) only when a `\/` follows, which gives up.
//   [/]*?                      the end: `/*`.
// ---------------------------------------------------------------------------------------------------------------

class NotRestated extends Error {}

const COLUMNS = 129;
const set = (member: (code: number) => boolean): PlainPathRegex => {
  const s = new Uint8Array(COLUMNS);
  for (let c = 0; c < COLUMNS; c++) s[c] = member(c) ? 1 : 0;
  return { kind: "set", set: s };
};
const SLASH = 47;
const DOT = 46;
const ONE_SLASH = set((c) => c === SLASH);
const SLASHES: PlainPathRegex = { kind: "star", item: ONE_SLASH };
const ONE_OR_MORE_SLASHES: PlainPathRegex = { kind: "seq", items: [ONE_SLASH, SLASHES] };
const NON_SLASH = set((c) => c !== SLASH);
const NON_SLASH_NON_DOT = set((c) => c !== SLASH && c !== DOT);
const NOTHING: PlainPathRegex = { kind: "seq", items: [] };
const END: PlainPathRegex = { kind: "end" };
/** `*` at a segment start, after a `/`: nothing, or a first character other than `.` then `[^/]*`. */
const SEGMENT_STAR: PlainPathRegex = {
  kind: "alt",
  items: [NOTHING, { kind: "seq", items: [NON_SLASH_NON_DOT, { kind: "star", item: NON_SLASH }] }],
};
/** Text with no `/.` that does not start with `.`: runs of `/`, and runs of other characters that start with no `.`. */
const NO_DOT_NAMES: PlainPathRegex = {
  kind: "star",
  item: { kind: "alt", items: [ONE_SLASH, { kind: "seq", items: [NON_SLASH_NON_DOT, { kind: "star", item: NON_SLASH }] }] },
};
/**
 * `(?=[/])GSTAR(?:^|$|[/])+` followed by more pattern (the divider must be `/+`): GSTAR matches nothing (the
 * divider takes the `/`: `/**` then `/*.txt` matches `/a.txt`), or `/` X, then `/+`.
 */
const GLOBSTAR_THEN_MORE: PlainPathRegex = {
  kind: "seq",
  items: [ONE_SLASH, { kind: "alt", items: [NOTHING, { kind: "seq", items: [NO_DOT_NAMES, ONE_OR_MORE_SLASHES] }] }],
};
/** … at the end of the pattern (the divider may also be end-of-input). */
const GLOBSTAR_AT_END: PlainPathRegex = { kind: "seq", items: [ONE_SLASH, NO_DOT_NAMES, { kind: "alt", items: [ONE_OR_MORE_SLASHES, END] }] };

const STAR_AT_SEGMENT_START = W.NEED_CHAR_PATH + W.PATH_STAR_NO_DOTMATCH;
const ONE_AT_SEGMENT_START = W.NO_DIR + W.PATH_NO_SLASH_DOT;
const FIXED_PIECES = new Set<string>([...Object.values(W), STAR_AT_SEGMENT_START]);

/**
 * The plain-path restatement of a compiled deepagents-py pattern (every brace expansion, as one `alt`), or
 * `undefined` when some piece is not understood or the pattern is unusable.
 */
export function pyPlainPathRegex(glob: CompiledPyGlob): PlainPathRegex | undefined {
  if (glob.error !== undefined || glob.expansions.length === 0) return undefined;
  const items: PlainPathRegex[] = [];
  try {
    for (const expanded of glob.expansions) items.push(restateExpansion(wcmatchFragments(expanded)));
  } catch (e) {
    if (e instanceof NotRestated) return undefined;
    throw e;
  }
  return items.length === 1 ? items[0]! : { kind: "alt", items };
}

function restateExpansion(allFragments: readonly string[]): PlainPathRegex {
  const fragments = allFragments.filter((f) => f !== "");
  const out: PlainPathRegex[] = [];
  // The path starts with `/`, the pattern with `[/]+` or a leading `**` segment (`(?=[/])`): nothing else is
  // known to sit at offset 0 only after a `/` (a pattern that does not start with `/` is refused by the runtime).
  const first = fragments[0];
  if (first !== W.ONE_OR_MORE_SEP && first !== W.NEED_SEP) throw new NotRestated();
  // True when the last character consumed is a `/` on every way of getting here: a segment of a plain path starts.
  let afterSlash = false;
  for (let k = 0; k < fragments.length; k++) {
    const f = fragments[k]!;
    if (f === W.ONE_OR_MORE_SEP) {
      out.push(ONE_OR_MORE_SLASHES);
      afterSlash = true;
    } else if (f === W.NEED_SEP) {
      if (fragments[k + 1] !== W.PATH_GSTAR_NO_DOTMATCH || fragments[k + 2] !== W.GLOBSTAR_DIV) throw new NotRestated();
      k += 2;
      const next = fragments[k + 1];
      if (next === W.PATH_TRAIL && k + 2 === fragments.length) {
        out.push(GLOBSTAR_AT_END);
        afterSlash = false;
      } else {
        // A `[/]+` (from `\/`) right after the divider could also follow its `^` branch at offset 0; the other
        // pieces need a character that is not `/` (or a `(?=[^/])`), so only the divider's `/+` branch leads on.
        if (next === undefined || (FIXED_PIECES.has(next) && next !== STAR_AT_SEGMENT_START)) throw new NotRestated();
        out.push(GLOBSTAR_THEN_MORE);
        afterSlash = true;
      }
    } else if (f === STAR_AT_SEGMENT_START) {
      if (!afterSlash) throw new NotRestated();
      out.push(SEGMENT_STAR);
      afterSlash = false;
    } else if (f === W.PATH_STAR) {
      out.push({ kind: "star", item: NON_SLASH });
      afterSlash = false;
    } else if (f === W.PATH_TRAIL) {
      if (k !== fragments.length - 1) throw new NotRestated();
      out.push(SLASHES);
      afterSlash = false;
    } else if (f.startsWith(ONE_AT_SEGMENT_START)) {
      if (!afterSlash) throw new NotRestated();
      out.push(oneCharacter(f.slice(ONE_AT_SEGMENT_START.length), (c) => c !== SLASH && c !== DOT));
      afterSlash = false;
    } else if (f.startsWith(W.PATH_NO_SLASH)) {
      out.push(oneCharacter(f.slice(W.PATH_NO_SLASH.length), (c) => c !== SLASH));
      afterSlash = false;
    } else {
      const ast = parseWcmatchFragment(f);
      if (ast?.t !== "lit") throw new NotRestated();
      for (const cp of ast.cps) {
        // A literal `/` never comes out of `WcParse` (a `/` is `[/]+`); one would upset `afterSlash`.
        if (cp >= 128 || cp === SLASH) throw new NotRestated();
        out.push(set((c) => c === cp));
      }
      afterSlash = false;
    }
  }
  return out.length === 1 ? out[0]! : { kind: "seq", items: out };
}

/** `?` or a class, after its look-aheads (`allowed`): ASCII members only (see the header). */
function oneCharacter(body: string, allowed: (code: number) => boolean): PlainPathRegex {
  // `?` (any code point) always names non-ASCII ones.
  if (body === W.QMARK) throw new NotRestated();
  const ast: Ast | undefined = parseWcmatchFragment(body);
  if (ast?.t !== "set") throw new NotRestated();
  const cs = ast.set;
  const nonAscii = cs.negate ? !coversFrom128(cs.ranges) : cs.ranges.some(([, hi]) => hi >= 128);
  if (nonAscii) throw new NotRestated();
  return set((c) => c < 128 && allowed(c) && setHas(cs, c));
}

/** Whether the ranges hold every code point from 128 to U+10FFFF. */
function coversFrom128(ranges: ReadonlyArray<readonly [number, number]>): boolean {
  const sorted = [...ranges].filter(([, hi]) => hi >= 128).sort((a, b) => a[0] - b[0]);
  let next = 128;
  for (const [lo, hi] of sorted) {
    if (lo > next) return false;
    next = Math.max(next, hi + 1);
  }
  return next > 0x10ffff;
}

// ---------------------------------------------------------------------------------------------------------------
// One pattern's restatement as a small deterministic automaton, built lazily: a fast exact `matches` for plain
// paths, and a fast exact "no" for every string (the restatement accepts a superset everywhere). A compiled
// pattern outlives the rule lists that use it (checks/common/patternTable.ts shares them across runs), so what this
// builds is paid once per pattern, where a rule list's automaton is paid once per list.

/** Past this many states the pattern keeps its Pike VM (a class-heavy pattern can need exponentially many). */
const MAX_DFA_STATES = 256;
/** What `PlainPathDfa.test` answers. */
export const DFA_NO = 0;
export const DFA_YES = 1;
/** The restatement accepts, but the string is not plain (or the state budget is spent): ask the exact matcher. */
export const DFA_UNSURE = 2;

export class PlainPathDfa extends ThompsonNfa {
  private readonly accept: number;
  /** Column (0–128) → class: columns every set of the pattern treats alike share one. */
  private readonly classOf = new Uint8Array(COLUMNS);
  private readonly classes: number;
  /** One representative column per class. */
  private readonly representative: number[] = [];
  // The deterministic automaton: row `state × classes`; -1 not built yet, 0 dead (state 0 has no NFA state).
  private transitions: Int32Array;
  private readonly sets: Int32Array[] = [];
  private readonly index = new Map<string, number>();
  private acceptsAtEnd: Uint8Array;
  private readonly start: number;
  private full = false;

  constructor(re: PlainPathRegex) {
    super();
    const from = this.newState();
    this.accept = this.build(re, from);
    // Column classes: the distinct membership signatures over every set the pattern uses.
    const sets: Uint8Array[] = [];
    for (const edges of this.charEdges) for (const e of edges) if (!sets.includes(e.set)) sets.push(e.set);
    const bySignature = new Map<string, number>();
    for (let c = 0; c < COLUMNS; c++) {
      let signature = "";
      for (const s of sets) signature += s[c];
      let k = bySignature.get(signature);
      if (k === undefined) {
        bySignature.set(signature, (k = bySignature.size));
        this.representative.push(c);
      }
      this.classOf[c] = k;
    }
    this.classes = bySignature.size;
    this.transitions = new Int32Array(8 * this.classes).fill(-1);
    this.acceptsAtEnd = new Uint8Array(8);
    this.addState(new Int32Array(0)); // state 0: dead
    this.start = this.addState(this.closure([from]));
  }

  /** `DFA_NO`: no match, on any string. `DFA_YES`: a match, exact for a plain path. `DFA_UNSURE`: out of states. */
  test(s: string): number {
    let at = this.start;
    let t = this.transitions;
    const k = this.classes;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      const column = c < 128 ? c : c === 0x2028 || c === 0x2029 ? 10 : 128;
      let next = t[at * k + this.classOf[column]!]!;
      if (next < 0) {
        next = this.step(at, column);
        if (next < 0) return DFA_UNSURE;
        t = this.transitions; // a new state may have grown the table
      }
      if (next === 0) return DFA_NO;
      at = next;
    }
    return this.acceptsAtEnd[at] === 1 ? DFA_YES : DFA_NO;
  }

  /** `closure`'s visited marks (`mark[s] === stamp`: seen in the current closure), cheaper than a `Set`. */
  private mark = new Int32Array(0);
  private stamp = 0;

  // Loops here are indexed, not `for … of`: the DFA is built while a cold process still runs this code
  // unoptimised, where each step of an iterator allocates.
  private closure(states: ArrayLike<number>, atEnd = false): Int32Array {
    if (this.mark.length < this.eps.length) this.mark = new Int32Array(this.eps.length);
    // At most two closures per state, and states are capped: the stamp never comes near overflowing.
    const stamp = ++this.stamp;
    const mark = this.mark;
    const stack: number[] = [];
    for (let i = 0; i < states.length; i++) stack.push(states[i]!);
    // Only states that read a character (or accept, or may at the end) matter; dropping the rest merges equal states.
    const kept: number[] = [];
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (mark[s] === stamp) continue;
      mark[s] = stamp;
      if (this.charEdges[s]!.length > 0 || s === this.accept || (!atEnd && this.endEps[s]!.length > 0)) kept.push(s);
      const eps = this.eps[s]!;
      for (let i = 0; i < eps.length; i++) if (mark[eps[i]!] !== stamp) stack.push(eps[i]!);
      if (atEnd) {
        const endEps = this.endEps[s]!;
        for (let i = 0; i < endEps.length; i++) if (mark[endEps[i]!] !== stamp) stack.push(endEps[i]!);
      }
    }
    return Int32Array.from(kept).sort();
  }

  /** The state for an ε-closed set, made on first sight; -1 when the budget is spent. */
  private addState(set: Int32Array): number {
    if (set.length === 0 && this.sets.length > 0) return 0;
    const key = set.join(",");
    const known = this.index.get(key);
    if (known !== undefined) return known;
    if (this.sets.length >= MAX_DFA_STATES) return -1;
    const id = this.sets.length;
    if ((id + 1) * this.classes > this.transitions.length) {
      const grown = new Int32Array(this.transitions.length * 2).fill(-1);
      grown.set(this.transitions);
      this.transitions = grown;
      const accepts = new Uint8Array(this.acceptsAtEnd.length * 2);
      accepts.set(this.acceptsAtEnd);
      this.acceptsAtEnd = accepts;
    }
    this.sets.push(set);
    this.index.set(key, id);
    // Accepting at the end of the input: the accepting state, through ε- and `$`-edges.
    this.acceptsAtEnd[id] = this.closure(set, true).includes(this.accept) ? 1 : 0;
    return id;
  }

  private step(state: number, column: number): number {
    if (this.full) return -1;
    const targets: number[] = [];
    const set = this.sets[state]!;
    for (let i = 0; i < set.length; i++) {
      const edges = this.charEdges[set[i]!]!;
      for (let j = 0; j < edges.length; j++) if (edges[j]!.set[column] === 1) targets.push(edges[j]!.to);
    }
    const next = this.addState(this.closure(targets));
    if (next < 0) {
      this.full = true;
      return -1;
    }
    this.transitions[state * this.classes + this.classOf[column]!] = next;
    return next;
  }
}
