/**
 * Seeded randomness shared by the generated tests (conformance, property tests, robustness) and the benchmark's
 * inputs: mulberry32, small and fast, and the same sequence on every platform, so a failing seed reproduces.
 */

/** A uniform number in [0, 1) per call, from one 32-bit seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  /** Pick by weight: entries are [weight, value]. */
  weighted<T>(entries: readonly (readonly [number, T])[]): T;
}

/** The generator with the helpers the generated suites use. */
export function makeRng(seed: number): Rng {
  const next = rng(seed);
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    pick: (items) => items[int(items.length)]!,
    chance: (p) => next() < p,
    weighted(entries) {
      let total = 0;
      for (const [w] of entries) total += w;
      let roll = next() * total;
      for (const [w, v] of entries) {
        roll -= w;
        if (roll < 0) return v;
      }
      return entries[entries.length - 1]![1];
    },
  };
}

/** A size knob from the environment (`CONFORMANCE_CASES=100000 npm test …`), or its default. */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return n;
}
