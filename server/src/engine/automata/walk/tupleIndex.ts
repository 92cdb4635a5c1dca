import { withRoom } from "./hashing";

/**
 * The tuples of one product walk (automata/product.ts), numbered in the order they are found, and found again by
 * their content. A tuple is a list of numbers, `[length, value…]` (the walk's parts), stored one after another in
 * one pool; per tuple, what the walk knows of it: its cost so far, the readability of the path's last segment, the
 * tuple and class it was reached from (to spell its path), whether it was expanded, and its hash.
 *
 * The index is open addressing, each slot a (tuple, hash) pair side by side, so that a probe reads one place in
 * memory until the hashes agree.
 *
 * The arrays of the last walk are kept for the next one (walks run one at a time, never inside each other; a walk
 * stopped half-way by its budget keeps nothing): an analysis walks the same lists after every edit, and growing them
 * from 4,096 tuples (and the index from 16,384 slots, rehashing at each step) to 50,000 was a few milliseconds a
 * walk. The pool is kept up to MAX_SPARE_POOL numbers (8 MB: a walk of 200 rules fills about 1.5 million), the
 * per-tuple arrays up to MAX_SPARE_TUPLES tuples; bigger ones are dropped with their walk rather than held for the
 * life of the process. (A walk's outcomes keep copies of `parent` and `via`, cut to its tuples, for spelling paths:
 * arrays sized for the largest walk so far, new for every walk, were a few megabytes of large objects per analysis,
 * each bringing the next full collection closer.)
 */
export class TupleIndex {
  pool: Int32Array;
  /** Numbers of the pool in use. */
  private used = 0;
  /** Tuples stored. */
  count = 0;
  /** Where each tuple starts in the pool. */
  offsets: Int32Array;
  cost: Int32Array;
  /** 0: just after `/` (or at the start), 1: in a plain segment, 2: `.` so far, 3: `..` so far. */
  segment: Uint8Array;
  parent: Int32Array;
  via: Int32Array;
  expanded: Uint8Array;
  /** Each tuple's hash, to rebuild the index when it grows. */
  private hashes: Int32Array;
  private slots: Int32Array;

  private constructor(pool: Int32Array | undefined, spare: PerTuple | undefined) {
    this.pool = pool ?? new Int32Array(1 << 16);
    this.offsets = spare?.offsets ?? new Int32Array(1 << 12);
    this.cost = spare?.cost ?? new Int32Array(1 << 12);
    this.segment = spare?.segment ?? new Uint8Array(1 << 12);
    this.parent = spare?.parent ?? new Int32Array(this.offsets.length);
    this.via = spare?.via ?? new Int32Array(this.offsets.length);
    this.expanded = spare ? spare.expanded.fill(0) : new Uint8Array(1 << 12);
    this.hashes = spare?.hashes ?? new Int32Array(1 << 12);
    this.slots = (spare?.slots ?? new Int32Array(1 << 14)).fill(-1);
  }

  /** An empty index, on the arrays the last walk left when there are any. */
  static take(): TupleIndex {
    const index = new TupleIndex(sparePool, spareTuples);
    sparePool = undefined;
    spareTuples = undefined;
    return index;
  }

  /** Gives the arrays back for the next walk (those not too big); whether the per-tuple ones were kept. */
  release(): boolean {
    if (this.pool.length <= MAX_SPARE_POOL) sparePool = this.pool;
    if (this.offsets.length > MAX_SPARE_TUPLES) return false;
    const { offsets, cost, segment, parent, via, expanded, hashes, slots } = this;
    spareTuples = { offsets, cost, segment, parent, via, expanded, hashes, slots };
    return true;
  }

  /** The index of the tuple `buffer` (`[length, value…]`, hashed to `h`), or -1. */
  find(buffer: Int32Array, h: number): number {
    const slots = this.slots;
    const pool = this.pool;
    const mask = (slots.length >> 1) - 1;
    const length = buffer[0]!;
    const hash = h | 0;
    for (let j = h & mask; slots[2 * j] !== -1; j = (j + 1) & mask) {
      if (slots[2 * j + 1] !== hash) continue;
      const index = slots[2 * j]!;
      const o = this.offsets[index]!;
      if (pool[o] !== length) continue;
      let i = 1;
      while (i <= length && pool[o + i] === buffer[i]) i++;
      if (i > length) return index;
    }
    return -1;
  }

  /** Stores the tuple `buffer` (not stored yet, hashed to `h`) and returns its index; its per-tuple facts are the caller's to set. */
  add(buffer: Int32Array, h: number): number {
    const size = 1 + buffer[0]!;
    if (this.used + size > this.pool.length) {
      const bigger = new Int32Array(Math.max(this.pool.length * 2, this.used + size));
      bigger.set(this.pool);
      this.pool = bigger;
    }
    const pool = this.pool;
    const used = this.used;
    for (let i = 0; i < size; i++) pool[used + i] = buffer[i]!;
    if (this.count === this.offsets.length) this.grow();
    const added = this.count++;
    this.offsets[added] = used;
    this.used = used + size;
    this.hashes[added] = h;
    if (this.count * 2 > this.slots.length >> 1) {
      this.slots = new Int32Array(this.slots.length * 2).fill(-1);
      for (let i = 0; i < this.count; i++) this.place(i, this.hashes[i]!);
    } else {
      this.place(added, h);
    }
    return added;
  }

  private place(index: number, h: number): void {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    let j = h & mask;
    while (slots[2 * j] !== -1) j = (j + 1) & mask;
    slots[2 * j] = index;
    slots[2 * j + 1] = h | 0;
  }

  private grow(): void {
    const size = this.offsets.length * 2;
    this.offsets = withRoom(this.offsets, size);
    this.cost = withRoom(this.cost, size);
    this.segment = withRoom(this.segment, size);
    this.parent = withRoom(this.parent, size);
    this.via = withRoom(this.via, size);
    this.expanded = withRoom(this.expanded, size);
    this.hashes = withRoom(this.hashes, size);
  }
}

interface PerTuple {
  offsets: Int32Array;
  cost: Int32Array;
  segment: Uint8Array;
  parent: Int32Array;
  via: Int32Array;
  expanded: Uint8Array;
  hashes: Int32Array;
  slots: Int32Array;
}

let sparePool: Int32Array | undefined;
const MAX_SPARE_POOL = 1 << 21;
let spareTuples: PerTuple | undefined;
const MAX_SPARE_TUPLES = 1 << 18;

