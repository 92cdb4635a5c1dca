/**
 * The product walk's queue (automata/product.ts): tuples by cost, cheapest first, and in the order they were pushed
 * among equal costs (a bucket per cost, each a first-in first-out list of pushes). A tuple is pushed again when it
 * is reached more cheaply; the walk skips the pushes that are out of date. Costs are small integers (a path's length
 * plus penalties), so a bucket per cost is both exact and cheap. Read by the walk as `head[cost]` then `next[push]`,
 * `tuple[push]`, for every cost up to `maxCost`, which grows while it reads.
 *
 * The arrays of the last walk are kept for the next one, like the tuple index's (walk/tupleIndex.ts).
 */
export class CostQueue {
  /** Per cost: its first and last push (-1: none). */
  head: Int32Array;
  private tail: Int32Array;
  /** Per push: the tuple, and the next push of the same cost (-1: none). */
  tuple: Int32Array;
  next: Int32Array;
  private pushed = 0;
  /** The highest cost pushed so far. */
  maxCost = 0;

  private constructor(spare: QueueArrays | undefined) {
    this.head = (spare?.head ?? new Int32Array(256)).fill(-1);
    this.tail = (spare?.tail ?? new Int32Array(256)).fill(-1);
    this.tuple = spare?.tuple ?? new Int32Array(1 << 13);
    this.next = spare?.next ?? new Int32Array(1 << 13);
  }

  static take(): CostQueue {
    const queue = new CostQueue(spare);
    spare = undefined;
    return queue;
  }

  /** Gives the arrays back for the next walk, when `keep` (the walk's tuple arrays were kept too). */
  release(keep: boolean): void {
    if (keep) spare = { head: this.head, tail: this.tail, tuple: this.tuple, next: this.next };
  }

  push(index: number, c: number): void {
    if (c >= this.head.length) {
      const size = Math.max(this.head.length * 2, c + 1);
      const head = new Int32Array(size).fill(-1);
      head.set(this.head);
      this.head = head;
      const tail = new Int32Array(size).fill(-1);
      tail.set(this.tail);
      this.tail = tail;
    }
    if (this.pushed === this.tuple.length) {
      const tuples = new Int32Array(this.pushed * 2);
      tuples.set(this.tuple);
      this.tuple = tuples;
      const next = new Int32Array(this.pushed * 2);
      next.set(this.next);
      this.next = next;
    }
    const p = this.pushed++;
    this.tuple[p] = index;
    this.next[p] = -1;
    const last = this.tail[c]!;
    if (last === -1) this.head[c] = p;
    else this.next[last] = p;
    this.tail[c] = p;
    if (c > this.maxCost) this.maxCost = c;
  }
}

interface QueueArrays {
  head: Int32Array;
  tail: Int32Array;
  tuple: Int32Array;
  next: Int32Array;
}
let spare: QueueArrays | undefined;
