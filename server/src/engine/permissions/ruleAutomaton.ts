import type { PlainPathRegex } from "../runtime/runtime";
import { ThompsonNfa } from "../runtime/thompsonNfa";

/**
 * One automaton for many patterns: which of them (by position in the rule list) is the first to match a plain path
 * (runtime.ts `PlainPathRegex`), reading the path once, left to right or right to left (`readsBackwards`).
 *
 * The patterns become one nondeterministic automaton (Thompson's construction); its deterministic states are built
 * lazily, one transition at a time, the first time a path needs it, and kept. Characters are read through 129
 * columns: one per ASCII code unit and one for everything else (the restatements never name a non-ASCII code
 * unit; the line terminators U+2028/U+2029 share the `\n` column, which only ever makes a path not plain).
 *
 * Exactness for every string, plain or not, rests on one property of the restatements: each accepts a superset of
 * what its pattern's real matcher accepts, on every string (they only drop assertions and widen the globstar
 * body), and exactly the same set on plain paths. Hence:
 * - when no pattern is alive any more, none can match, whatever the path: the walk stops at once (state 0), which
 *   is what keeps most walks short;
 * - a walk that reaches the end also knows whether the path is plain (a small tracker of the current segment,
 *   empty, `.`, `..` or other, runs in the product); if it is not and some pattern accepted, the answer is
 *   `NOT_PLAIN` and the caller asks the exact matchers.
 *
 * Two more savings, both exact: a run of states that each let one character through (`/workspace/`) is compared
 * without the table, and the character just after the run is looked at first (when it lets every pattern die, the
 * run need not be read at all).
 *
 * Construction is cheap (linear in the patterns' size); the deterministic states cost what the paths decided so
 * far needed, capped at `MAX_STATES` (past that the automaton reports `GIVE_UP` and the caller uses its exact
 * matchers, so a hostile rule list cannot grow memory without bound).
 */

const COLUMNS = 129;
/** A state's row: its 129 transitions, then its result (what `walk` answers when the path ends there). */
const ROW = COLUMNS + 1;
/** Result of a walk: the path is not plain and some pattern may match it; decide it with the exact matchers. */
export const NOT_PLAIN = -2;
/** Result of a walk: the state budget is spent; decide it with the exact matchers. */
export const GIVE_UP = -3;
const MAX_STATES = 10_000;
/** A run of states that each let one character through: its first state (offset) and the characters, in reading order. */
interface Run {
  start: number;
  codes: Uint8Array;
}
/** Transitions at or below this value refer to `chains[CHAIN - value]`. */
const CHAIN = -16;
/** Shorter runs go through the table (setting a run up costs about as much as a few table steps). */
const MIN_CHAIN = 4;

// Segment tracker: where the path stands in its current `/`-separated segment.
const T_START = 0; // nothing read yet (a plain path must start with `/`)
const T_EMPTY = 1; // just after a `/`
const T_DOT = 2; // the segment so far is `.`
const T_DOTDOT = 3; // the segment so far is `..`
const T_NAME = 4; // any other non-empty segment
const T_BAD = 5; // not plain, whatever follows

function track(t: number, column: number): number {
  if (t === T_BAD || column === 10 || column === 13) return T_BAD;
  if (t === T_START) return column === 47 ? T_EMPTY : T_BAD;
  if (column === 47) return t === T_NAME ? T_EMPTY : T_BAD; // `//`, `/./`, `/../`
  if (column === 46) return t === T_EMPTY ? T_DOT : t === T_DOT ? T_DOTDOT : T_NAME;
  return T_NAME;
}

// The same tracker reading right to left (`R_EMPTY`: just read a `/`, i.e. a segment's left end).
const R_START = 0;
const R_EMPTY = 1;
const R_DOT = 2;
const R_DOTDOT = 3;
const R_NAME = 4;
const R_BAD = 5;

function trackReverse(t: number, column: number): number {
  if (t === R_BAD || column === 10 || column === 13) return R_BAD;
  // A `/` ends (on its left) the segment read so far: that segment must be neither empty, `.` nor `..`.
  if (column === 47) return t === R_NAME ? R_EMPTY : R_BAD;
  if (column === 46) return t === R_START || t === R_EMPTY ? R_DOT : t === R_DOT ? R_DOTDOT : R_NAME;
  return R_NAME;
}

/** The same language, read right to left (`end` becomes "at the start of the reversed input"). */
function reversed(re: PlainPathRegex): PlainPathRegex {
  switch (re.kind) {
    case "seq":
      return { kind: "seq", items: re.items.map(reversed).reverse() };
    case "alt":
      return { kind: "alt", items: re.items.map(reversed) };
    case "star":
      return { kind: "star", item: reversed(re.item) };
    default:
      return re;
  }
}

/**
 * Which way to read a pattern so that a path it does not match is usually given up early: right to left when its
 * last "any text" (a globstar) is followed by something required (`/**` then `/*.pem`, `/a/**` then `/.env`: the
 * end of the path decides), left to right otherwise (`/a/b/**`, `/a/*.log`, literals: the start decides).
 */
export function readsBackwards(re: PlainPathRegex): boolean {
  // The restatement of picomatch's equality test is an extra alternative; the expression itself decides.
  const main = re.kind === "alt" && re.items.length === 2 && re.items[1]!.kind === "seq" ? re.items[0]! : re;
  // deepagents-py's brace expansions, one alternative each: backwards when all of them would be.
  if (main.kind === "alt") return main.items.every(readsBackwards);
  const items = main.kind === "seq" ? main.items : [main];
  let last = -1;
  items.forEach((item, k) => {
    if (hasAnyText(item)) last = k;
  });
  return last >= 0 && !items.slice(last + 1).every(nullable);
}

/**
 * A star that can read a `/` and something else (picomatch's globstar body, deepagents-py's runs of names and
 * slashes); a star of `/` alone (wcmatch's `[/]+`, its trailing `[/]*?`) spans no segment.
 */
function hasAnyText(re: PlainPathRegex): boolean {
  if (re.kind === "star") return (readsChar(re.item, 47) && readsOtherThan(re.item, 47)) || hasAnyText(re.item);
  if (re.kind === "seq" || re.kind === "alt") return re.items.some(hasAnyText);
  return false;
}

/** Whether `re` can read the character `code` anywhere. */
function readsChar(re: PlainPathRegex, code: number): boolean {
  if (re.kind === "set") return re.set[code] === 1;
  if (re.kind === "star") return readsChar(re.item, code);
  if (re.kind === "seq" || re.kind === "alt") return re.items.some((item) => readsChar(item, code));
  return false;
}

/** Whether `re` can read some character other than `code`. */
function readsOtherThan(re: PlainPathRegex, code: number): boolean {
  if (re.kind === "set") return re.set.some((member, c) => member === 1 && c !== code);
  if (re.kind === "star") return readsOtherThan(re.item, code);
  if (re.kind === "seq" || re.kind === "alt") return re.items.some((item) => readsOtherThan(item, code));
  return false;
}

function nullable(re: PlainPathRegex): boolean {
  switch (re.kind) {
    case "set":
      return false;
    case "seq":
      return re.items.every(nullable);
    case "alt":
      return re.items.some(nullable);
    default:
      return true;
  }
}

export class RuleAutomaton extends ThompsonNfa {
  /** `backwards`: read paths right to left (see `readsBackwards`). */
  constructor(private readonly backwards = false) {
    super();
  }

  /** The smallest pattern id accepted from this state at the end of the input (ε- and `$`-edges), or -1. */
  private readonly acceptAtEnd: number[] = [];
  /** `closure`'s visited marks, one per NFA state (`mark[s] === stamp`: seen in the current closure). */
  private mark = new Int32Array(0);
  private stamp = 0;
  private readonly starts: number[] = [];

  // The deterministic automaton, grown lazily. State 0 is `NOT_PLAIN`'s sink.
  private transitions = new Int32Array(0);
  private readonly sets: Int32Array[] = [];
  private readonly trackers: number[] = [];
  private readonly index = new Map<string, number>();
  private startState = -1;
  /** Per state: the only column that keeps some pattern alive, or -1 (none, or several). */
  private readonly single: number[] = [];
  /**
   * Runs of states that each let exactly one character through (`/workspace/` in a list that names it first):
   * the walk compares the whole run with one `startsWith` instead of character by character. A transition into
   * the first state of a run is stored as `CHAIN - index`.
   */
  private readonly chains: Run[] = [];
  private startChain: Run | undefined;
  /** Per state that starts a run: the state (offset) where the run ends. */
  private readonly chainEnds: number[] = [];

  /** `add` every pattern (ids increasing: the rule-list order), then walk. */
  add(id: number, re: PlainPathRegex): void {
    const first = this.eps.length;
    const start = this.newState();
    const end = this.build(this.backwards ? reversed(re) : re, start);
    this.starts.push(start);
    const acc = new Int32Array(this.eps.length - first).fill(0);
    acc[end - first] = 1;
    // Which of this pattern's states reach its accepting state through ε- and `$`-edges: a fixed point over the
    // pattern's own states (edges never leave them).
    for (let changed = true; changed; ) {
      changed = false;
      for (let s = this.eps.length - 1; s >= first; s--) {
        if (acc[s - first]) continue;
        // Read backwards, `$` edges sit at the start (taken only before the first character), not at the end.
        if (this.eps[s]!.some((t) => acc[t - first]) || (!this.backwards && this.endEps[s]!.some((t) => acc[t - first]))) {
          acc[s - first] = 1;
          changed = true;
        }
      }
    }
    // Appended, not copied: a list adds hundreds of patterns of about a hundred states each.
    for (let s = first; s < this.eps.length; s++) this.acceptAtEnd[s] = acc[s - first] ? id : -1;
    if (this.firstId === Infinity) this.firstId = id;
  }

  get size(): number {
    return this.starts.length;
  }

  /** The smallest pattern id added (ids come in increasing order); `Infinity` when there is none. */
  firstId = Infinity;

  /**
   * Whether the first character read already leaves no pattern alive (then `walk` answers -1): small enough to be
   * inlined where `walk` is not, which saves a call on most paths for a backwards automaton (the last character
   * rules out `*.pem` and `.env` at once).
   */
  diesAtOnce(path: string): boolean {
    const start = this.startState;
    if (start <= 0 || path.length === 0) return start === 0;
    const c = path.charCodeAt(this.backwards ? path.length - 1 : 0);
    return this.transitions[start + (c < 128 ? c : c === 0x2028 || c === 0x2029 ? 10 : 128)] === 0;
  }

  /** The first pattern id matching `path`, -1 for none, `NOT_PLAIN`, or `GIVE_UP`. */
  walk(path: string): number {
    return this.backwards ? this.walkBackwards(path) : this.walkForwards(path);
  }

  /**
   * `walk` for a left-to-right automaton. The two directions are two methods, not one loop with a direction test
   * per character, and each is small enough for the optimising compiler to inline into `decide`.
   */
  walkForwards(path: string): number {
    if (this.startState < 0) this.init();
    // `at` is a state's row offset in `transitions` (state × ROW); 0 is the state where no pattern is alive.
    let at = this.startState;
    const table = this.transitions;
    const n = path.length;
    let k = -1;
    let run = this.startChain;
    if (run) at = run.start;
    else k = 0;
    for (; k < n; k++) {
      if (run === undefined) {
        const c = path.charCodeAt(k);
        const next = table[at + (c < 128 ? c : c === 0x2028 || c === 0x2029 ? 10 : 128)]!;
        if (next > 0) {
          at = next;
          continue;
        }
        if (next === 0) return -1;
        if (next > CHAIN) return this.resume(path, at, k);
        run = this.chains[CHAIN - next]!;
        at = run.start;
      }
      const codes = run.codes;
      run = undefined;
      const after = k + 1 + codes.length;
      if (after > n) continue;
      const end = this.chainEnd(at);
      if (after < n) {
        const c = path.charCodeAt(after);
        if (table[end + (c < 128 ? c : c === 0x2028 || c === 0x2029 ? 10 : 128)] === 0) return -1;
      }
      let j = codes.length - 1;
      while (j >= 0 && path.charCodeAt(k + 1 + j) === codes[j]) j--;
      if (j >= 0) return -1;
      k += codes.length;
      at = end;
    }
    return table[at + COLUMNS]!;
  }

  /** `walk` for a right-to-left automaton. */
  walkBackwards(path: string): number {
    if (this.startState < 0) this.init();
    // `at` is a state's row offset in `transitions` (state × ROW); 0 is the state where no pattern is alive.
    let at = this.startState;
    const table = this.transitions;
    const n = path.length;
    let k = n - 1;
    let run = this.startChain;
    if (run) {
      at = run.start;
      k++; // as if the run were entered by a character just past the end
    }
    for (; k >= 0; k--) {
      if (run === undefined) {
        const c = path.charCodeAt(k);
        const next = table[at + (c < 128 ? c : c === 0x2028 || c === 0x2029 ? 10 : 128)]!;
        if (next > 0) {
          at = next;
          continue;
        }
        if (next === 0) return -1;
        if (next > CHAIN) return this.resume(path, at, k);
        run = this.chains[CHAIN - next]!;
        at = run.start;
      }
      // A run of single-character states, right to left from k - 1: compared without the table (each
      // comparison is independent of the last, where each table step waits for the previous one).
      const codes = run.codes;
      run = undefined;
      if (k - codes.length < 0) continue; // too short: character by character from the run's first state
      const end = this.chainEnd(at);
      // The character after the run first: when the run's last state lets it die, the walk ends there whether
      // or not the run matched (a mismatch inside the run ends it too). Most paths end here, unread.
      if (k - codes.length > 0) {
        const c = path.charCodeAt(k - codes.length - 1);
        if (table[end + (c < 128 ? c : c === 0x2028 || c === 0x2029 ? 10 : 128)] === 0) return -1;
      }
      // Far end first: a run that fails usually fails late (`packages/notify/.env` against `packages/web/…`).
      let j = codes.length - 1;
      while (j >= 0 && path.charCodeAt(k - 1 - j) === codes[j]) j--;
      // A mismatch inside the run: nothing else was alive there.
      if (j >= 0) return -1;
      k -= codes.length;
      at = end;
    }
    return table[at + COLUMNS]!;
  }

  /** The state at the end of the run that starts at `at`. */
  private chainEnd(at: number): number {
    return this.chainEnds[at / ROW]!;
  }

  /** The walk from character `k` on, building the transitions it lacks (kept out of the hot loop). */
  private resume(path: string, at: number, k: number): number {
    const n = path.length;
    for (; this.backwards ? k >= 0 : k < n; this.backwards ? k-- : k++) {
      const c = path.charCodeAt(k);
      const column = c < 128 ? c : c === 0x2028 || c === 0x2029 ? 10 : 128;
      let next = this.transitions[at + column]!;
      if (next === -1) {
        next = this.step(at / ROW, column, true);
        if (next === GIVE_UP) return GIVE_UP;
      }
      if (next <= CHAIN) next = this.chains[CHAIN - next]!.start;
      // No pattern can match any more once none is alive: the restatements accept a superset on every string.
      if (next === 0) return -1;
      at = next;
    }
    return this.transitions[at + COLUMNS]!;
  }

  /** The run of single-character states from `state` (an offset), if it is long enough to be worth a compare. */
  private chainFrom(state: number): Run | undefined | typeof GIVE_UP {
    const codes: number[] = [];
    let at = state;
    while (at > 0 && codes.length < 256) {
      const c = this.single[at / ROW]!;
      if (c < 0) break;
      const next = this.transitions[at + c]!;
      const to = next === -1 ? this.step(at / ROW, c, false) : next <= CHAIN ? this.chains[CHAIN - next]!.start : next;
      if (to === GIVE_UP) return GIVE_UP;
      codes.push(c);
      at = to;
    }
    if (codes.length < MIN_CHAIN) return undefined;
    this.chainEnds[state / ROW] = at;
    return { start: state, codes: Uint8Array.from(codes) };
  }

  /** ε-closure; `atStart`: before the first character, where a backwards automaton's `$` edges may be taken. */
  private closure(states: Iterable<number>, atStart = false): Int32Array {
    // A stamped mark array instead of a `Set`: a state of a long list closes over hundreds of NFA states, and a
    // list builds hundreds of states.
    if (this.mark.length < this.eps.length) this.mark = new Int32Array(this.eps.length);
    if (this.stamp >= 0x3fffffff) {
      this.mark.fill(0);
      this.stamp = 0;
    }
    const stamp = ++this.stamp;
    const mark = this.mark;
    const stack: number[] = [];
    for (const s of states) stack.push(s);
    // Only states with character edges or an accepting future matter; dropping the rest merges equal states.
    const kept: number[] = [];
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (mark[s] === stamp) continue;
      mark[s] = stamp;
      if (this.charEdges[s]!.length > 0 || this.acceptAtEnd[s]! >= 0) kept.push(s);
      for (const t of this.eps[s]!) if (mark[t] !== stamp) stack.push(t);
      if (atStart && this.backwards) for (const t of this.endEps[s]!) if (mark[t] !== stamp) stack.push(t);
    }
    return Int32Array.from(kept).sort();
  }

  private init(): void {
    this.transitions = new Int32Array(64 * ROW).fill(-1);
    // State 0: no pattern alive. Every transition stays there; `walk` stops as soon as it gets there.
    this.addState(new Int32Array(0), T_BAD);
    this.transitions.fill(0, 0, COLUMNS);
    this.transitions[COLUMNS] = -1;
    this.startState = this.addState(this.closure(this.starts, true), this.backwards ? R_START : T_START);
    const chain = this.startState > 0 ? this.chainFrom(this.startState) : undefined;
    if (chain !== GIVE_UP) this.startChain = chain;
  }

  /** The state for an ε-closed set and a tracker position, made on first sight; its row offset is returned. */
  private addState(set: Int32Array, tracker: number): number {
    if (set.length === 0 && this.sets.length > 0) return 0;
    const key = `${tracker}:${set.join(",")}`;
    const known = this.index.get(key);
    if (known !== undefined) return known * ROW;
    if (this.sets.length >= MAX_STATES) return GIVE_UP;
    const id = this.sets.length;
    if ((id + 1) * ROW > this.transitions.length) {
      const grown = new Int32Array(this.transitions.length * 2).fill(-1);
      grown.set(this.transitions);
      this.transitions = grown;
    }
    this.sets.push(set);
    this.trackers.push(tracker);
    this.single.push(this.onlyColumn(set));
    this.index.set(key, id);
    let first = -1;
    for (const s of set) {
      const a = this.acceptAtEnd[s]!;
      if (a >= 0 && (first < 0 || a < first)) first = a;
    }
    // Exact only for a plain path; for any other string, a match here is only possible, not certain.
    this.transitions[id * ROW + COLUMNS] = tracker === (this.backwards ? R_EMPTY : T_NAME) || first < 0 ? first : NOT_PLAIN;
    return id * ROW;
  }

  /** `chains`: a transition into the first state of a long enough run is stored as a reference to the run. */
  private step(state: number, column: number, chains: boolean): number {
    const tracker = this.backwards ? trackReverse(this.trackers[state]!, column) : track(this.trackers[state]!, column);
    const targets: number[] = [];
    for (const s of this.sets[state]!) for (const edge of this.charEdges[s]!) if (edge.set[column] === 1) targets.push(edge.to);
    const next = this.addState(this.closure(targets), tracker);
    if (next === GIVE_UP) return GIVE_UP;
    this.transitions[state * ROW + column] = next;
    if (chains && next > 0 && this.single[next / ROW]! >= 0) {
      const chain = this.chainFrom(next);
      if (chain === GIVE_UP) return GIVE_UP;
      if (chain) {
        this.chains.push(chain);
        this.transitions[state * ROW + column] = CHAIN - (this.chains.length - 1);
      }
    }
    return next;
  }

  /** The one column with which some state of `set` goes on, or -1 when there are none or several. */
  private onlyColumn(set: Int32Array): number {
    let only = -1;
    for (const s of set) {
      for (const { set: chars } of this.charEdges[s]!) {
        for (let c = 0; c < COLUMNS; c++) {
          if (chars[c] !== 1 || c === only) continue;
          // Column 128 stands for many code units and column 10 also for U+2028/U+2029: no run through them.
          if (only >= 0 || c === 128 || c === 10) return -1;
          only = c;
        }
      }
    }
    return only;
  }

}
