import type { PlainPathRegex } from "../runtime/runtime";

/**
 * One automaton for many patterns: which of them (by position in the rule list) is the first to match a plain path
 * (runtime.ts `PlainPathRegex`), in one left-to-right pass over the path.
 *
 * The patterns become one nondeterministic automaton (Thompson's construction); its deterministic states are built
 * lazily, one transition at a time, the first time a path needs it, and kept. The same pass also tells whether the
 * path is plain at all: a small tracker of the current segment (empty, `.`, `..`, other) runs in the product, and
 * a path that is not plain ends in the state `NOT_PLAIN` (the caller then asks the exact matchers). Characters are
 * read through 129 columns: one per ASCII code unit and one for everything else (the regexes never name a
 * non-ASCII code unit, and the line terminators U+2028/U+2029 share the `\n` column, which marks a path not plain).
 *
 * Construction is cheap (linear in the patterns' size); the deterministic states cost what the paths decided so
 * far needed, capped at `MAX_STATES` (past that the automaton reports `GIVE_UP` and the caller uses its exact
 * matchers, so a hostile rule list cannot grow memory without bound).
 */

const COLUMNS = 129;
/** Result of a walk: the path is not plain; decide it with the exact matchers. */
export const NOT_PLAIN = -2;
/** Result of a walk: the state budget is spent; decide it with the exact matchers. */
export const GIVE_UP = -3;
const MAX_STATES = 20_000;

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
  const items = main.kind === "seq" ? main.items : [main];
  let last = -1;
  items.forEach((item, k) => {
    if (hasAnyText(item)) last = k;
  });
  return last >= 0 && !items.slice(last + 1).every(nullable);
}

function hasAnyText(re: PlainPathRegex): boolean {
  if (re.kind === "star") return (re.item.kind === "set" && re.item.set[47] === 1) || hasAnyText(re.item);
  if (re.kind === "seq" || re.kind === "alt") return re.items.some(hasAnyText);
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

export class RuleAutomaton {
  /** `backwards`: read paths right to left (see `readsBackwards`). */
  constructor(private readonly backwards = false) {}

  // The nondeterministic automaton, in flat arrays.
  private readonly charEdges: { set: Uint8Array; to: number }[][] = [];
  private readonly eps: number[][] = [];
  /** ε-edges that may be taken only at the end of the input (`$`). */
  private readonly endEps: number[][] = [];
  /** The smallest pattern id accepted from this state at the end of the input (ε- and `$`-edges), or -1. */
  private acceptAtEnd: Int32Array = new Int32Array(0);
  private readonly starts: number[] = [];

  // The deterministic automaton, grown lazily. State 0 is `NOT_PLAIN`'s sink.
  private transitions = new Int32Array(0);
  private readonly sets: Int32Array[] = [];
  private readonly trackers: number[] = [];
  /** Per state: the first pattern id matching when the input ends here, -1 for none, `NOT_PLAIN`. */
  private results = new Int32Array(0);
  private readonly index = new Map<string, number>();
  private startState = -1;

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
    const grown = new Int32Array(this.eps.length);
    grown.set(this.acceptAtEnd);
    for (let s = first; s < this.eps.length; s++) grown[s] = acc[s - first] ? id : -1;
    this.acceptAtEnd = grown;
  }

  get size(): number {
    return this.starts.length;
  }

  /** The first pattern id matching `path`, -1 for none, `NOT_PLAIN`, or `GIVE_UP`. */
  walk(path: string): number {
    if (this.startState < 0) this.init();
    // `at` is a state's row offset in `transitions` (state × COLUMNS); 0 is the state where no pattern is alive.
    let at = this.startState;
    const table = this.transitions;
    const n = path.length;
    // Two loops rather than one with a direction test per character: this is the hot loop of every decision.
    if (this.backwards) {
      for (let k = n - 1; k >= 0; k--) {
        const c = path.charCodeAt(k);
        const next = table[at + (c < 128 ? c : c === 0x2028 || c === 0x2029 ? 10 : 128)]!;
        if (next <= 0) return next === 0 ? -1 : this.resume(path, at, k);
        at = next;
      }
    } else {
      for (let k = 0; k < n; k++) {
        const c = path.charCodeAt(k);
        const next = table[at + (c < 128 ? c : c === 0x2028 || c === 0x2029 ? 10 : 128)]!;
        if (next <= 0) return next === 0 ? -1 : this.resume(path, at, k);
        at = next;
      }
    }
    return this.results[at / COLUMNS]!;
  }

  /** The walk from character `k` on, building the transitions it lacks (kept out of the hot loop). */
  private resume(path: string, at: number, k: number): number {
    const n = path.length;
    for (; this.backwards ? k >= 0 : k < n; this.backwards ? k-- : k++) {
      const c = path.charCodeAt(k);
      const column = c < 128 ? c : c === 0x2028 || c === 0x2029 ? 10 : 128;
      let next = this.transitions[at + column]!;
      if (next < 0) {
        // No pattern can match any more once none is alive: the restatements accept a superset on every string.
        next = this.step(at / COLUMNS, column);
        if (next === GIVE_UP) return GIVE_UP;
      }
      if (next === 0) return -1;
      at = next;
    }
    return this.results[at / COLUMNS]!;
  }

  private newState(): number {
    this.charEdges.push([]);
    this.eps.push([]);
    this.endEps.push([]);
    return this.eps.length - 1;
  }

  /** Thompson's construction: from state `from`, read `re`, return the state where it ends. */
  private build(re: PlainPathRegex, from: number): number {
    switch (re.kind) {
      case "set": {
        const to = this.newState();
        this.charEdges[from]!.push({ set: re.set, to });
        return to;
      }
      case "seq": {
        let at = from;
        for (const item of re.items) at = this.build(item, at);
        return at;
      }
      case "alt": {
        const to = this.newState();
        for (const item of re.items) {
          // Each alternative gets its own entry state, so no alternative's edges leak into another's loops.
          const entry = this.newState();
          this.eps[from]!.push(entry);
          this.eps[this.build(item, entry)]!.push(to);
        }
        return to;
      }
      case "star": {
        const loop = this.newState();
        this.eps[from]!.push(loop);
        const body = this.newState();
        this.eps[loop]!.push(body);
        this.eps[this.build(re.item, body)]!.push(loop);
        const out = this.newState();
        this.eps[loop]!.push(out);
        return out;
      }
      case "end": {
        const to = this.newState();
        this.endEps[from]!.push(to);
        return to;
      }
    }
  }

  /** ε-closure; `atStart`: before the first character, where a backwards automaton's `$` edges may be taken. */
  private closure(states: Iterable<number>, atStart = false): Int32Array {
    const seen = new Set<number>();
    const stack = [...states];
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (seen.has(s)) continue;
      seen.add(s);
      for (const t of this.eps[s]!) if (!seen.has(t)) stack.push(t);
      if (atStart && this.backwards) for (const t of this.endEps[s]!) if (!seen.has(t)) stack.push(t);
    }
    // Only states with character edges or an accepting future matter; dropping the rest merges equal states.
    const kept = [...seen].filter((s) => this.charEdges[s]!.length > 0 || this.acceptAtEnd[s]! >= 0);
    return Int32Array.from(kept).sort();
  }

  private init(): void {
    this.transitions = new Int32Array(64 * COLUMNS).fill(-1);
    this.results = new Int32Array(64);
    // State 0: no pattern alive. Every transition stays there; `walk` stops as soon as it gets there.
    this.addState(new Int32Array(0), T_BAD);
    this.transitions.fill(0, 0, COLUMNS);
    this.startState = this.addState(this.closure(this.starts, true), this.backwards ? R_START : T_START);
  }

  /** The state for an ε-closed set and a tracker position, made on first sight; its row offset is returned. */
  private addState(set: Int32Array, tracker: number): number {
    if (set.length === 0 && this.sets.length > 0) return 0;
    const key = `${tracker}:${set.join(",")}`;
    const known = this.index.get(key);
    if (known !== undefined) return known * COLUMNS;
    if (this.sets.length >= MAX_STATES) return GIVE_UP;
    const id = this.sets.length;
    if ((id + 1) * COLUMNS > this.transitions.length) {
      const grown = new Int32Array(this.transitions.length * 2).fill(-1);
      grown.set(this.transitions);
      this.transitions = grown;
      const results = new Int32Array(this.results.length * 2);
      results.set(this.results);
      this.results = results;
    }
    this.sets.push(set);
    this.trackers.push(tracker);
    this.index.set(key, id);
    let first = -1;
    for (const s of set) {
      const a = this.acceptAtEnd[s]!;
      if (a >= 0 && (first < 0 || a < first)) first = a;
    }
    // Exact only for a plain path; for any other string, a match here is only possible, not certain.
    this.results[id] = tracker === (this.backwards ? R_EMPTY : T_NAME) || first < 0 ? first : NOT_PLAIN;
    return id * COLUMNS;
  }

  private step(state: number, column: number): number {
    const tracker = this.backwards ? trackReverse(this.trackers[state]!, column) : track(this.trackers[state]!, column);
    const targets: number[] = [];
    for (const s of this.sets[state]!) for (const edge of this.charEdges[s]!) if (edge.set[column] === 1) targets.push(edge.to);
    const next = this.addState(this.closure(targets), tracker);
    if (next === GIVE_UP) return GIVE_UP;
    this.transitions[state * COLUMNS + column] = next;
    return next;
  }
}
