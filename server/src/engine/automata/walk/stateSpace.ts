import type { Table } from "../tables";

/**
 * The states of every table of one walk, numbered globally (table 0's states first, then table 1's, …), with
 * everything the walk reads per state in flat arrays: a tuple is then a plain list of numbers (half the size of
 * (table, state) pairs, and no per-table indirection on each step).
 */
export class StateSpace {
  readonly size: number;
  /** First global number of each table's states (`baseOf[e] + s`). */
  readonly baseOf: Int32Array;
  readonly entryOfState: Int32Array;
  /** `step[g * columns + column]`: the global number of the successor, or -1 when it cannot reach acceptance. */
  readonly step: Int32Array;
  /**
   * State g's exceptional columns (indices into the walk's classes) are `exceptions[exceptionStart[g]…exceptionStart[g + 1])`:
   * the columns whose successor is not the state's most common one (the first to be most common, columns in order).
   */
  readonly exceptionStart: Int32Array;
  readonly exceptions: Int32Array;
  /** Per state: its most common successor, the one on every column that is not an exception (-1: dead). */
  readonly defaultStep: Int32Array;
  readonly final: Uint8Array;

  constructor(readonly tables: readonly Table[], readonly classes: readonly number[], readonly width: number) {
    const columns = classes.length;
    this.baseOf = new Int32Array(tables.length + 1);
    for (let e = 0; e < tables.length; e++) this.baseOf[e + 1] = this.baseOf[e]! + tables[e]!.size;
    const size = (this.size = this.baseOf[tables.length]!);
    this.entryOfState = new Int32Array(size);
    const step = (this.step = new Int32Array(size * columns));
    this.final = new Uint8Array(size);
    this.exceptionStart = new Int32Array(size + 1);
    this.defaultStep = new Int32Array(size);
    let exceptions = new Int32Array(Math.max(16, size * 2));
    // How many columns lead to each successor (index successor + 1: 0 is dead), cleared after each state.
    const counts = new Int32Array(size + 1);
    let x = 0;
    for (let e = 0; e < tables.length; e++) {
      const table = tables[e]!;
      const base = this.baseOf[e]!;
      const { next, live } = table;
      for (let s = 0; s < table.size; s++) {
        const g = base + s;
        const row = g * columns;
        this.entryOfState[g] = e;
        this.final[g] = table.final[s]!;
        // The state's row, and its most common successor: the first to reach the highest count, columns in order.
        let best = -1;
        let bestCount = -1;
        for (let column = 0; column < columns; column++) {
          const t = next[s * width + classes[column]!]!;
          const target = t >= 0 && live[t] ? base + t : -1;
          step[row + column] = target;
          const c = ++counts[target + 1]!;
          if (c > bestCount) {
            best = target;
            bestCount = c;
          }
        }
        // The exceptions: every column whose successor is not the common one, ascending.
        this.exceptionStart[g] = x;
        if (x + columns > exceptions.length) {
          const bigger = new Int32Array(Math.max(exceptions.length * 2, x + columns));
          bigger.set(exceptions);
          exceptions = bigger;
        }
        for (let column = 0; column < columns; column++) {
          const target = step[row + column]!;
          counts[target + 1] = 0;
          if (target !== best) exceptions[x++] = column;
        }
        this.defaultStep[g] = best;
      }
    }
    this.exceptionStart[size] = x;
    this.exceptions = exceptions;
  }
}

/**
 * Every column's hash, reading the tables row by row (in memory order). A function of its own, with nothing after
 * its loop: V8 optimises a long loop while it runs and keeps that code for later calls, and code after the loop that
 * had not run when it was made threw it away again on every call (`distinctClasses`, a few times per analysis).
 */
function columnHashes(tables: readonly Table[], width: number): Int32Array {
  const hashes = new Int32Array(width).fill(0x811c9dc5);
  for (const t of tables) {
    const next = t.next;
    for (let s = 0; s < t.size; s++) {
      const row = s * width;
      for (let k = 0; k < width; k++) hashes[k] = Math.imul(hashes[k]! ^ (next[row + k]! + 1), 0x01000193);
    }
  }
  return hashes;
}

/**
 * The classes every path of a table reads first, as text (one character per class), up to `LEAD_LENGTH` of them:
 * from the start, as long as no path can stop and one class is the only way on. A `/` that loops on itself
 * (deepagents-py's `[/]+`) is read as one, so a Python table sorts beside its JavaScript twin.
 */
export function literalLead(table: Table): string {
  const { width, next, live, final } = table;
  let state = table.initial;
  let lead = "";
  for (let step = 0; step < LEAD_LENGTH && live[state] && !final[state]; step++) {
    let only = -1;
    for (let k = 0; k < width; k++) {
      const t = next[state * width + k]!;
      if (t < 0 || t === state || !live[t]) continue;
      if (only >= 0) return lead;
      only = k;
    }
    if (only < 0) break;
    lead += String.fromCharCode(only);
    state = next[state * width + only]!;
  }
  return lead;
}
const LEAD_LENGTH = 32;

/** One class per group of classes that every table maps alike (the first, most readable, of each group). */
export function distinctClasses(tables: readonly Table[], width: number): number[] {
  const unique = [...new Set(tables)];
  const sameColumn = (a: number, b: number): boolean => {
    for (const t of unique) for (let s = 0; s < t.size; s++) if (t.next[s * width + a] !== t.next[s * width + b]) return false;
    return true;
  };
  const byHash = new Map<number, number[]>();
  const out: number[] = [];
  const hashes = columnHashes(unique, width);
  for (let k = 0; k < width; k++) {
    const h = hashes[k]!;
    const group = byHash.get(h);
    if (group?.some((r) => sameColumn(r, k))) continue;
    if (group) group.push(k);
    else byHash.set(h, [k]);
    out.push(k);
  }
  return out;
}
