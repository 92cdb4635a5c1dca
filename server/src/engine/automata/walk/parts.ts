import { listHash, placeIndex, withRoom } from "./hashing";
import type { StateSpace } from "./stateSpace";

/** `Parts.next` entries besides part numbers: not worked out yet; a required table dies there (no successor). */
export const PART_UNKNOWN = -1;
export const PART_DEAD = -2;

/**
 * The parts of one product walk's tuples (automata/product.ts). The tables are cut into groups (the required tables,
 * then a fixed number of tables at a time, in the walk's table order), and a tuple's live states within one group
 * are a part, numbered once (`intern`). The walk reaches tens of thousands of tuples of about thirty states each, but
 * the same few thousand parts recur in them (the rules about `/workspace/docs/` are in the same states wherever the
 * path is in that folder), so a part's successor on each column is worked out once (`next`, `step`) and a tuple's
 * successor is a few look-ups instead of a step per state. Parts are a representation only: the tuples, their order
 * of discovery and so every outcome and path are those of the state-by-state walk.
 *
 * Per part: its states `states[start[p]…start[p + 1])`, ascending; its hash; the columns its states treat specially,
 * each once (`columns[columnStart[p]…]`: a tuple's expansion gathers them); the tracks its final states accept for
 * (`tracks[trackStart[p]…]`; none for the required tables' part, as the walk never reports those); its states that
 * take part in the decider reduction's grouping (`grouped[groupedStart[p]…]`); and whether all its states are final
 * (read for the required part). Part 0 is the empty one.
 *
 * The arrays of the last walk are kept for the next one, up to MAX_SPARE_PARTS parts: the big walks of a 200-rule
 * analysis number 10,000 to 20,000 parts, and growing the arrays to that on every walk (`next` alone to 3 MB) was a
 * tenth of what an analysis allocated. A part's row of `next` is cleared when the part is numbered, so nothing of
 * the last walk is read.
 */
export class Parts {
  private capacity: number;
  start: Int32Array<ArrayBuffer>;
  states: Int32Array<ArrayBuffer>;
  private hashes: Int32Array<ArrayBuffer>;
  columnStart: Int32Array<ArrayBuffer>;
  columns: Int32Array<ArrayBuffer>;
  trackStart: Int32Array<ArrayBuffer>;
  tracks: Int32Array<ArrayBuffer>;
  groupedStart: Int32Array<ArrayBuffer>;
  grouped: Int32Array<ArrayBuffer>;
  allFinal: Uint8Array<ArrayBuffer>;
  private required: Uint8Array<ArrayBuffer>;
  /** `next[p * width + column]`: the successor part, PART_UNKNOWN until asked, PART_DEAD when a required table dies. */
  next: Int32Array<ArrayBuffer>;
  private slots: Int32Array<ArrayBuffer>;
  private count = 1;
  private readonly mentioned: Int32Array;
  private stamp = 0;
  private readonly scratch: Int32Array;

  /**
   * `width`: the walk's columns. `groupOf`: each table's group. `ownerStart`/`ownerList`: each table's tracks.
   * `groupedSketch`: per state, ≥ 0 when it takes part in the decider reduction's grouping (absent: no reduction).
   */
  constructor(
    private readonly space: StateSpace,
    private readonly width: number,
    private readonly requiredCount: number,
    private readonly groupOf: Int32Array,
    private readonly ownerStart: Int32Array,
    private readonly ownerList: Int32Array,
    private readonly groupedSketch: Int32Array | undefined,
  ) {
    const spare = spareParts;
    spareParts = undefined;
    this.capacity = spare?.capacity ?? 1 << 10;
    const capacity = this.capacity;
    this.start = spare?.start ?? new Int32Array(capacity + 1);
    this.states = spare?.states ?? new Int32Array(1 << 12);
    this.hashes = spare?.hashes ?? new Int32Array(capacity);
    this.columnStart = spare?.columnStart ?? new Int32Array(capacity + 1);
    this.columns = spare?.columns ?? new Int32Array(1 << 12);
    this.trackStart = spare?.trackStart ?? new Int32Array(capacity + 1);
    this.tracks = spare?.tracks ?? new Int32Array(1 << 12);
    this.groupedStart = spare?.groupedStart ?? new Int32Array(capacity + 1);
    this.grouped = spare?.grouped ?? new Int32Array(1 << 12);
    this.allFinal = spare?.allFinal ?? new Uint8Array(capacity);
    this.required = spare?.required ?? new Uint8Array(capacity);
    this.next = spare && spare.next.length >= capacity * width ? spare.next : new Int32Array(capacity * width);
    this.next.fill(0, 0, width);
    this.slots = (spare?.slots ?? new Int32Array(capacity * 2)).fill(-1);
    this.start[1] = 0;
    this.columnStart[1] = 0;
    this.trackStart[1] = 0;
    this.groupedStart[1] = 0;
    this.mentioned = new Int32Array(width);
    this.scratch = new Int32Array(Math.max(1, space.tables.length));
  }

  /** Gives the arrays back for the next walk (when not too big). */
  release(): void {
    if (this.capacity > MAX_SPARE_PARTS) return;
    const { capacity, start, states, hashes, columnStart, columns, trackStart, tracks, groupedStart, grouped, allFinal, required, next, slots } = this;
    spareParts = { capacity, start, states, hashes, columnStart, columns, trackStart, tracks, groupedStart, grouped, allFinal, required, next, slots };
  }

  /** The part of the states `states[0…n)` (ascending, all of one group), numbered when new. */
  intern(states: Int32Array, n: number): number {
    if (n === 0) return 0;
    const h = listHash(states, 0, n);
    const slots = this.slots;
    const mask = slots.length - 1;
    let j = h & mask;
    for (; slots[j] !== -1; j = (j + 1) & mask) {
      const p = slots[j]!;
      if (this.hashes[p] !== h) continue;
      const a = this.start[p]!;
      if (this.start[p + 1]! - a !== n) continue;
      let i = 0;
      while (i < n && this.states[a + i] === states[i]) i++;
      if (i === n) return p;
    }
    if (this.count === this.capacity) {
      this.grow();
      return this.intern(states, n);
    }
    const { entryOfState, exceptionStart, exceptions, final } = this.space;
    const { width, ownerStart, ownerList, groupedSketch } = this;
    const p = this.count++;
    slots[j] = p;
    this.hashes[p] = h;
    this.next.fill(PART_UNKNOWN, p * width, (p + 1) * width);
    const a = this.start[p]!;
    this.states = withRoom(this.states, a + n);
    for (let i = 0; i < n; i++) this.states[a + i] = states[i]!;
    this.start[p + 1] = a + n;
    const required = entryOfState[states[0]!]! < this.requiredCount;
    this.required[p] = required ? 1 : 0;
    let allFinal = 1;
    const stamp = ++this.stamp;
    let c = this.columnStart[p]!;
    let k = this.trackStart[p]!;
    for (let i = 0; i < n; i++) {
      const s = states[i]!;
      const from = exceptionStart[s]!;
      const to = exceptionStart[s + 1]!;
      const columns = (this.columns = withRoom(this.columns, c + to - from));
      for (let x = from; x < to; x++) {
        const column = exceptions[x]!;
        if (this.mentioned[column] !== stamp) {
          this.mentioned[column] = stamp;
          columns[c++] = column;
        }
      }
      if (!final[s]) {
        allFinal = 0;
        continue;
      }
      if (required) continue;
      const e = entryOfState[s]!;
      const tracks = (this.tracks = withRoom(this.tracks, k + ownerStart[e + 1]! - ownerStart[e]!));
      for (let x = ownerStart[e]!, end = ownerStart[e + 1]!; x < end; x++) tracks[k++] = ownerList[x]!;
    }
    this.columnStart[p + 1] = c;
    this.trackStart[p + 1] = k;
    // (The reduction never drops a required table.)
    let z = this.groupedStart[p]!;
    if (groupedSketch && !required) {
      const grouped = (this.grouped = withRoom(this.grouped, z + n));
      for (let i = 0; i < n; i++) if (groupedSketch[states[i]!]! >= 0) grouped[z++] = states[i]!;
    }
    this.groupedStart[p + 1] = z;
    this.allFinal[p] = allFinal;
    return p;
  }

  /** Works out the successor of part `p` on `column` (asked when `next` does not know it yet) and keeps it there. */
  step(p: number, column: number): number {
    const { step } = this.space;
    const width = this.width;
    const scratch = this.scratch;
    let n = 0;
    let next = 0;
    for (let x = this.start[p]!, end = this.start[p + 1]!; x < end; x++) {
      const t = step[this.states[x]! * width + column]!;
      if (t >= 0) scratch[n++] = t;
      else if (this.required[p]) {
        next = PART_DEAD;
        break;
      }
    }
    if (next !== PART_DEAD) next = this.intern(scratch, n);
    // (Interning may have replaced `next`.)
    this.next[p * width + column] = next;
    return next;
  }

  /** `flat` (a tuple as its states: [length, state…]) as parts, into `into` ([length, part…]). */
  toParts(flat: Int32Array, into: Int32Array): void {
    const { entryOfState } = this.space;
    const groupOf = this.groupOf;
    const scratch = this.scratch;
    const length = flat[0]!;
    let n = 0;
    for (let i = 0; i < length; ) {
      const group = groupOf[entryOfState[flat[1 + i]!]!]!;
      let j = i;
      let m = 0;
      while (j < length && groupOf[entryOfState[flat[1 + j]!]!] === group) scratch[m++] = flat[1 + j++]!;
      into[++n] = this.intern(scratch, m);
      i = j;
    }
    into[0] = n;
  }

  /** The tuple of parts `parts` as its states, into `flat`. */
  toStates(parts: Int32Array, flat: Int32Array): void {
    let n = 0;
    for (let i = 1, length = parts[0]!; i <= length; i++) {
      const p = parts[i]!;
      for (let x = this.start[p]!, end = this.start[p + 1]!; x < end; x++) flat[++n] = this.states[x]!;
    }
    flat[0] = n;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    this.start = withRoom(this.start, capacity + 1);
    this.hashes = withRoom(this.hashes, capacity);
    this.columnStart = withRoom(this.columnStart, capacity + 1);
    this.trackStart = withRoom(this.trackStart, capacity + 1);
    this.groupedStart = withRoom(this.groupedStart, capacity + 1);
    this.allFinal = withRoom(this.allFinal, capacity);
    this.required = withRoom(this.required, capacity);
    this.next = withRoom(this.next, capacity * this.width);
    this.slots = new Int32Array(capacity * 2).fill(-1);
    for (let p = 1; p < this.count; p++) placeIndex(this.slots, p, this.hashes[p]!);
    this.capacity = capacity;
  }
}

interface PartArrays {
  capacity: number;
  start: Int32Array<ArrayBuffer>;
  states: Int32Array<ArrayBuffer>;
  hashes: Int32Array<ArrayBuffer>;
  columnStart: Int32Array<ArrayBuffer>;
  columns: Int32Array<ArrayBuffer>;
  trackStart: Int32Array<ArrayBuffer>;
  tracks: Int32Array<ArrayBuffer>;
  groupedStart: Int32Array<ArrayBuffer>;
  grouped: Int32Array<ArrayBuffer>;
  allFinal: Uint8Array<ArrayBuffer>;
  required: Uint8Array<ArrayBuffer>;
  next: Int32Array<ArrayBuffer>;
  slots: Int32Array<ArrayBuffer>;
}
let spareParts: PartArrays | undefined;
const MAX_SPARE_PARTS = 1 << 16;
