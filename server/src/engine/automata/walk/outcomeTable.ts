import { placeIndex, tracksHash } from "./hashing";

/** One combination of accepting tracks a walk found, with its cheapest path (automata/product.ts `Outcome`). */
export class WalkOutcome {
  /** `cost` and `at` are lowered while the walk finds cheaper paths to the same combination. */
  constructor(
    readonly matched: readonly number[],
    public cost: number,
    public at: number,
    private readonly paths: WalkPaths,
  ) {}
  /** The path's classes, read off the tuples' parents once the walk is done. */
  get word(): number[] {
    const { parent, via } = this.paths;
    const word: number[] = [];
    for (let at = this.at; at > 0; at = parent[at]!) word.push(via[at]!);
    return word.reverse();
  }
}

/** Per tuple of a walk: the tuple it was reached from, and the class it read (filled in when the walk is done). */
export interface WalkPaths {
  parent: Int32Array;
  via: Int32Array;
}

/**
 * The outcomes of one walk by their set of tracks, found again by a hash of the set: open addressing over outcome
 * indices, each outcome's hash kept. `record` keeps, per set, the cheapest tuple that accepts it (the first found of
 * equal cost); the paths are spelled from `paths` once the walk has filled it in.
 */
export class OutcomeTable {
  readonly outcomes: WalkOutcome[] = [];
  private slots = new Int32Array(1024).fill(-1);
  private hashes = new Int32Array(512);

  constructor(readonly paths: WalkPaths) {}

  /** The outcome whose tracks are `ids[0…count)` (ascending, hashed to `h` by `tracksHash`), or -1. */
  indexOf(ids: ArrayLike<number>, count: number, h: number = tracksHash(ids, count)): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let j = h & mask; slots[j] !== -1; j = (j + 1) & mask) {
      const i = slots[j]!;
      if (this.hashes[i] !== h) continue;
      const known = this.outcomes[i]!.matched;
      if (known.length !== count) continue;
      let same = true;
      for (let k = 0; k < count && same; k++) if (known[k] !== ids[k]) same = false;
      if (same) return i;
    }
    return -1;
  }

  /** The tracks `matched[0…count)` accept at tuple `head`, reached at cost `total`. */
  record(matched: Int32Array, count: number, head: number, total: number): void {
    const h = tracksHash(matched, count);
    const at = this.indexOf(matched, count, h);
    if (at >= 0) {
      const known = this.outcomes[at]!;
      if (total < known.cost) {
        known.at = head;
        known.cost = total;
      }
      return;
    }
    const ids: number[] = new Array(count);
    for (let k = 0; k < count; k++) ids[k] = matched[k]!;
    const outcomes = this.outcomes;
    const index = outcomes.length;
    outcomes.push(new WalkOutcome(ids, total, head, this.paths));
    if (index === this.hashes.length) {
      const bigger = new Int32Array(index * 2);
      bigger.set(this.hashes);
      this.hashes = bigger;
    }
    this.hashes[index] = h;
    if (outcomes.length * 2 > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2).fill(-1);
      for (let i = 0; i < outcomes.length; i++) placeIndex(this.slots, i, this.hashes[i]!);
    } else {
      placeIndex(this.slots, index, h);
    }
  }
}
