/** The hashes and growable arrays the product walk's tables of tuples, parts and outcomes are built on. */

/**
 * `values[0…length)`, 32-bit words each plus `add` (a non-negative result), as a map key: two UTF-16 units per word.
 * Every key of one map has the same number of words, so the key names the words exactly (their decimal digits
 * joined by commas cost several times as much to build and to hash).
 */
export function wordsKey(values: ArrayLike<number>, length: number, add = 0): string {
  let key = "";
  for (let k = 0; k < length; k++) {
    const v = values[k]! + add;
    key += String.fromCharCode(v & 0xffff, v >>> 16);
  }
  return key;
}

/** The hash of an outcome's set of tracks (`ids[0…count)`), by which the walk finds it again. */
export function tracksHash(ids: ArrayLike<number>, count: number): number {
  let h = 0x811c9dc5 ^ count;
  for (let k = 0; k < count; k++) h = Math.imul(h ^ ids[k]!, 0x01000193);
  return (h ^ (h >>> 15)) | 0;
}

/**
 * A tuple's hash is the sum of its states' hashes: each state's is worked out on its own, and only an addition
 * waits for the one before (a chain of multiplications, one per state, made the loop that builds successors wait on
 * it). Tuples are sets in ascending order, so an order-blind sum loses nothing; the mix is not linear, so different
 * sets with equal sums of states do not collide for that. The hash only places tuples in the index: the walk's
 * order does not depend on it.
 */
export function stateHash(t: number): number {
  const x = Math.imul(t ^ 0x5bd1e995, 0x9e3779b1);
  return x ^ (x >>> 15);
}

/**
 * A signed 32-bit number, as `stateHash`'s: one V8 keeps as a small integer, where an unsigned one from 2^31 up is
 * a heap number, allocated each time it is passed to a function not inlined (`reach`, hundreds of thousands of
 * times a walk).
 */
export function finishHash(h: number, length: number): number {
  h = Math.imul(h ^ length, 0x01000193);
  return h ^ (h >>> 15);
}

/** The hash of the states `values[from…from + n)`: a tuple's (`[length, state…]` from 1) or a part's. */
export function listHash(values: Int32Array, from: number, n: number): number {
  let h = 0;
  for (let i = 0; i < n; i++) h = (h + stateHash(values[from + i]!)) | 0;
  return finishHash(h, n);
}

/** Puts `index` into an open-addressing table of indices (`slots`, -1 for free, a power of two long) at its hash. */
export function placeIndex(slots: Int32Array, index: number, h: number): void {
  const mask = slots.length - 1;
  let j = h & mask;
  while (slots[j] !== -1) j = (j + 1) & mask;
  slots[j] = index;
}

/** `a`, or a copy with room for `size` (at least twice as long) when it is shorter. */
export function withRoom<T extends Int32Array | Uint8Array>(a: T, size: number): T {
  if (a.length >= size) return a;
  const b = new (a.constructor as { new (n: number): T })(Math.max(a.length * 2, size));
  b.set(a);
  return b;
}
