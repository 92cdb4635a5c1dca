import { CharBase, CharSet, type Char, type DFA } from "refa";
import type { Budget } from "./budget";
import { distinctClasses } from "./product";
import { weakCache } from "../caches";

/**
 * The questions the analysis asks are all of one shape: "is there a path that every automaton of this group accepts,
 * and none of that group…" (a rule's paths, minus the paths earlier rules take, within the canonical paths). We answer
 * them by a breadth-first search over the product of the automata, built lazily, so nothing is materialised that the
 * question does not reach, and the first answer found is a shortest witness.
 *
 * To make the product cheap, every refa DFA of one analysis is compiled into a dense table over a shared alphabet of
 * character classes (refa's `CharBase`: characters no automaton can tell apart share a class).
 */
const MAX = 0x10ffff as Char;

export class Alphabet {
  /** Disjoint character classes, in preference order for witnesses (plain letters first). */
  readonly classes: readonly CharSet[];
  /** The character each class stands for in a witness. */
  readonly representative: readonly number[];
  private readonly lookupStarts: number[] = [];
  private readonly lookupEnds: number[] = [];
  private readonly lookupClass: number[] = [];
  private readonly tables = new Map<DFA, Table>();

  constructor(dfas: Iterable<DFA>) {
    const sets: CharSet[] = [];
    const seen = new Set<string>();
    for (const dfa of dfas) {
      const { min, max } = compactOf(dfa);
      for (let t = 0; t < min.length; t++) {
        const key = `${min[t]}-${max[t]}`;
        if (seen.has(key)) continue;
        seen.add(key);
        sets.push(CharSet.fromRange(MAX, { min: min[t]!, max: max[t]! }));
      }
    }
    // A class for everything else, so that "any character" questions still have a letter to show.
    sets.push(CharSet.all(MAX));
    const base = new CharBase(sets);
    const ranked = base.sets.map((set) => ({ set, char: preferredCharacter(set) }));
    ranked.sort((a, b) => rank(a.char) - rank(b.char) || a.char - b.char);
    this.classes = ranked.map((r) => r.set);
    this.representative = ranked.map((r) => r.char);
    const intervals: [number, number, number][] = [];
    this.classes.forEach((set, index) => {
      for (const r of set.ranges) intervals.push([r.min, r.max, index]);
    });
    intervals.sort((a, b) => a[0] - b[0]);
    for (const [min, max, index] of intervals) {
      this.lookupStarts.push(min);
      this.lookupEnds.push(max);
      this.lookupClass.push(index);
    }
  }

  get intervalCount(): number {
    return this.lookupStarts.length;
  }
  intervalStart(at: number): number {
    return this.lookupStarts[at]!;
  }
  intervalClass(at: number): number {
    return this.lookupClass[at]!;
  }
  /** The interval that holds `char`. */
  intervalAt(char: number): number {
    let lo = 0;
    let hi = this.lookupStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lookupStarts[mid]! <= char) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  classOf(char: number): number {
    let lo = 0;
    let hi = this.lookupStarts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (char < this.lookupStarts[mid]!) hi = mid - 1;
      else if (char > this.lookupEnds[mid]!) lo = mid + 1;
      else return this.lookupClass[mid]!;
    }
    return -1;
  }

  /** The dense table of a DFA that took part in building this alphabet. */
  table(dfa: DFA): Table {
    let table = this.tables.get(dfa);
    if (!table) {
      table = new Table(this, dfa);
      this.tables.set(dfa, table);
    }
    return table;
  }
}

/** Letters, then digits, then `.`, `-`, `_`, then the rest of printable ASCII, then anything. */
function rank(char: number): number {
  if (char >= 0x61 && char <= 0x7a) return 0;
  if (char >= 0x30 && char <= 0x39) return 1;
  if (char === 0x2e || char === 0x2d || char === 0x5f) return 2;
  if (char >= 0x41 && char <= 0x5a) return 3;
  if (char === 0x2f) return 4;
  if (char > 0x20 && char < 0x7f) return 5;
  if (char === 0x20) return 6;
  if (char > 0xa0 && (char < 0xd800 || char > 0xdfff)) return 7;
  return 8;
}

function preferredCharacter(set: CharSet): number {
  for (const candidate of PREFERRED) if (set.has(candidate)) return candidate;
  let best = set.ranges[0]!.min;
  for (const r of set.ranges) {
    for (let c = r.min; c <= r.max && c <= r.min + 256; c++) if (rank(c) < rank(best)) best = c;
  }
  return best;
}

const PREFERRED = [..."abcxyzdefghijklmnopqrstuvw0123456789.-_ABCDEFGHIJKLMNOPQRSTUVWXYZ/"].map((c) => c.charCodeAt(0));

/** A DFA's transitions as flat arrays (read once from refa's nodes, kept with the DFA). */
interface CompactDfa {
  readonly size: number;
  readonly from: Int32Array;
  readonly min: Int32Array;
  readonly max: Int32Array;
  readonly to: Int32Array;
  readonly final: Uint8Array;
}

const compactCache = weakCache<DFA, CompactDfa>("automata/tables.compactCache");

function compactOf(dfa: DFA): CompactDfa {
  let compact = compactCache.get(dfa);
  if (compact) return compact;
  const ids = new Map<DFA.ReadonlyNode, number>();
  const order: DFA.ReadonlyNode[] = [];
  const id = (n: DFA.ReadonlyNode): number => {
    let i = ids.get(n);
    if (i === undefined) {
      ids.set(n, (i = order.length));
      order.push(n);
    }
    return i;
  };
  id(dfa.initial);
  const from: number[] = [];
  const min: number[] = [];
  const max: number[] = [];
  const to: number[] = [];
  for (let s = 0; s < order.length; s++) {
    for (const [range, target] of order[s]!.out) {
      from.push(s);
      min.push(range.min);
      max.push(range.max);
      to.push(id(target));
    }
  }
  const final = new Uint8Array(order.length);
  order.forEach((n, s) => {
    if (dfa.finals.has(n as DFA.Node)) final[s] = 1;
  });
  compact = { size: order.length, from: Int32Array.from(from), min: Int32Array.from(min), max: Int32Array.from(max), to: Int32Array.from(to), final };
  compactCache.set(dfa, compact);
  return compact;
}

export class Table {
  readonly size: number;
  readonly width: number;
  readonly next: Int32Array;
  readonly final: Uint8Array;
  /** A final state can still be reached (otherwise the state is as good as dead). */
  readonly live: Uint8Array;
  private universalStates: Uint8Array | undefined;
  readonly initial = 0;

  constructor(alphabet: Alphabet, dfa: DFA) {
    const compact = compactOf(dfa);
    const width = alphabet.classes.length;
    this.size = compact.size;
    this.width = width;
    this.next = new Int32Array(this.size * width).fill(-1);
    const { from, min, max, to } = compact;
    for (let t = 0; t < from.length; t++) {
      // Classes never straddle a range of any automaton of the alphabet: walk the range interval by interval.
      let at = alphabet.intervalAt(min[t]!);
      const base = from[t]! * width;
      while (at < alphabet.intervalCount && alphabet.intervalStart(at) <= max[t]!) {
        this.next[base + alphabet.intervalClass(at)] = to[t]!;
        at++;
      }
    }
    this.final = compact.final;
    this.live = this.computeLive();
  }

  /** Every continuation is accepted from here (only `findWord` asks: computed on first use). */
  get universal(): Uint8Array {
    return (this.universalStates ??= this.computeUniversal());
  }

  /** The states that can reach a final state: backwards from the final states over the reversed transitions. */
  private computeLive(): Uint8Array {
    const { size, width, next } = this;
    const live = Uint8Array.from(this.final);
    // Predecessors of each state (with repeats), as adjacency lists in flat arrays.
    const count = new Int32Array(size + 1);
    for (let i = 0; i < next.length; i++) if (next[i]! >= 0) count[next[i]! + 1]!++;
    for (let s = 0; s < size; s++) count[s + 1]! += count[s]!;
    const from = new Int32Array(count[size]!);
    const fill = count.slice(0, size);
    for (let i = 0; i < next.length; i++) {
      const t = next[i]!;
      if (t >= 0) from[fill[t]!++] = (i / width) | 0;
    }
    const queue: number[] = [];
    for (let s = 0; s < size; s++) if (live[s]) queue.push(s);
    for (let q = 0; q < queue.length; q++) {
      const t = queue[q]!;
      for (let x = count[t]!, end = count[t + 1]!; x < end; x++) {
        const s = from[x]!;
        if (!live[s]) {
          live[s] = 1;
          queue.push(s);
        }
      }
    }
    return live;
  }

  private computeUniversal(): Uint8Array {
    const universal = Uint8Array.from(this.final);
    for (let changed = true; changed; ) {
      changed = false;
      for (let s = 0; s < this.size; s++) {
        if (!universal[s]) continue;
        for (let k = 0; k < this.width; k++) {
          const t = this.next[s * this.width + k]!;
          if (t < 0 || !universal[t]) {
            universal[s] = 0;
            changed = true;
            break;
          }
        }
      }
    }
    return universal;
  }

  accepts(classes: readonly number[]): boolean {
    let s = this.initial;
    // An index, not `for … of`: this runs for every witness candidate against every table, and the iterator was
    // allocated each time.
    for (let i = 0; i < classes.length; i++) {
      const k = classes[i]!;
      if (k < 0) return false;
      s = this.next[s * this.width + k]!;
      // A state that cannot reach acceptance ends the walk as surely as no transition (most tables reject a path
      // within its first characters: `/workspace/…` against `/etc/**`).
      if (s < 0 || !this.live[s]) return false;
    }
    return this.final[s] === 1;
  }
}

/**
 * One condition of a question: the path is accepted by at least one table of `any` (`want: true`), or by none of
 * them (`want: false`). An empty `any` is never accepted.
 */
export interface Condition {
  readonly any: readonly Table[];
  readonly want: boolean;
}

const DEAD = -1;

/**
 * The shortest word (as class indices) that meets every condition,
 * or `undefined` when there is none. Exhaustive: `undefined` is a proof. Throws `BudgetExceeded`.
 *
 * A state of the search is the tuple of every table's state. Tuples live in one flat array and are found again
 * through an open-addressing hash table, so the search allocates almost nothing per step.
 */
export function findWord(conditions: readonly Condition[], budget: Budget, width: number): number[] | undefined {
  for (const c of conditions) if (c.want && c.any.length === 0) return undefined;
  const tables: Table[] = [];
  const groupOf: number[] = [];
  conditions.forEach((c, g) => {
    for (const t of c.any) {
      tables.push(t);
      groupOf.push(g);
    }
  });
  const n = tables.length;
  const groups = conditions.length;
  const want = Uint8Array.from(conditions, (c) => (c.want ? 1 : 0));
  const next = tables.map((t) => t.next);
  const live = tables.map((t) => t.live);
  const universal = tables.map((t) => t.universal);
  const final = tables.map((t) => t.final);
  const group = Int32Array.from(groupOf);
  // Per-group scratch marks, stamped instead of cleared.
  const liveMark = new Int32Array(groups);
  const universalMark = new Int32Array(groups);
  const finalMark = new Int32Array(groups);
  let stamp = 0;

  /** Kill states that cannot reach a final state; false when the tuple can never meet the conditions. */
  const viable = (tuple: Int32Array, at: number): boolean => {
    stamp++;
    for (let i = 0; i < n; i++) {
      const s = tuple[at + i]!;
      if (s < 0) continue;
      if (!live[i]![s]) {
        tuple[at + i] = DEAD;
        continue;
      }
      const g = group[i]!;
      liveMark[g] = stamp;
      if (universal[i]![s]) universalMark[g] = stamp;
    }
    for (let g = 0; g < groups; g++) {
      if (want[g] ? liveMark[g] !== stamp : universalMark[g] === stamp) return false;
    }
    return true;
  };
  const accepted = (tuple: Int32Array, at: number): boolean => {
    stamp++;
    for (let i = 0; i < n; i++) {
      const s = tuple[at + i]!;
      if (s >= 0 && final[i]![s]) finalMark[group[i]!] = stamp;
    }
    for (let g = 0; g < groups; g++) if ((finalMark[g] === stamp) !== (want[g] === 1)) return false;
    return true;
  };

  // Flat storage of tuples, and an open-addressing index over them.
  let pool = new Int32Array(Math.max(16, n) * 64);
  let count = 0;
  let slots = new Int32Array(1024).fill(-1);
  const parent: number[] = [];
  const via: number[] = [];
  const hashAt = (buffer: Int32Array, at: number): number => {
    let h = 0x811c9dc5;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ (buffer[at + i]! + 2), 0x01000193);
    return h >>> 0;
  };
  const equalAt = (buffer: Int32Array, at: number, index: number): boolean => {
    const base = index * n;
    for (let i = 0; i < n; i++) if (pool[base + i] !== buffer[at + i]) return false;
    return true;
  };
  const insertSlot = (index: number, h: number): void => {
    const mask = slots.length - 1;
    let j = h & mask;
    while (slots[j] !== -1) j = (j + 1) & mask;
    slots[j] = index;
  };
  /** Adds the tuple if new; returns false when it was already known. */
  const add = (buffer: Int32Array, at: number, from: number, k: number): boolean => {
    const h = hashAt(buffer, at);
    const mask = slots.length - 1;
    for (let j = h & mask; slots[j] !== -1; j = (j + 1) & mask) if (equalAt(buffer, at, slots[j]!)) return false;
    if ((count + 1) * n > pool.length) {
      const bigger = new Int32Array(pool.length * 2);
      bigger.set(pool);
      pool = bigger;
    }
    pool.set(buffer.subarray(at, at + n), count * n);
    parent.push(from);
    via.push(k);
    count++;
    if (count * 2 > slots.length) {
      slots = new Int32Array(slots.length * 2).fill(-1);
      for (let index = 0; index < count; index++) insertSlot(index, hashAt(pool, index * n));
    } else {
      insertSlot(count - 1, h);
    }
    return true;
  };

  // Classes these tables cannot tell apart lead to the same tuple: try one of each (the first, most readable).
  const classes = distinctClasses(tables, width);
  const scratch = new Int32Array(n);
  for (let i = 0; i < n; i++) scratch[i] = tables[i]!.initial;
  if (!viable(scratch, 0)) return undefined;
  add(scratch, 0, -1, -1);
  // The budget counts states, and looks at the clock every few thousand of them; a state here costs a step per
  // table per class, and with a thousand tables (a long list analysed rule by rule) a few thousand states were
  // seconds of work between two looks (a 550-rule list ran for minutes past its time limit). So the clock is also
  // read after every ~64k steps.
  const clockEvery = Math.max(1, Math.floor(65_536 / Math.max(1, n * classes.length)));
  for (let head = 0; head < count; head++) {
    if (accepted(pool, head * n)) {
      const word: number[] = [];
      for (let at = head; at > 0; at = parent[at]!) word.push(via[at]!);
      return word.reverse();
    }
    budget.spend();
    // A state here is a step per table per class: what the file's work allowance counts.
    budget.work(n * classes.length);
    if (head % clockEvery === clockEvery - 1) budget.checkTime();
    const base = head * n;
    for (const k of classes) {
      for (let i = 0; i < n; i++) {
        const s = pool[base + i]!;
        scratch[i] = s < 0 ? DEAD : next[i]![s * width + k]!;
      }
      if (viable(scratch, 0)) add(scratch, 0, head, k);
    }
  }
  return undefined;
}
