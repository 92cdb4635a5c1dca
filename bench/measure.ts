/**
 * Timing helpers. Every contender is timed in the same process, on the same inputs, in interleaved rounds (A B C,
 * B C A, C A B, …) so that drift in the machine (frequency, other processes) falls on all of them alike. Before each
 * round the young heap is collected (the script runs with --expose-gc) so one contender's garbage is not billed to
 * the next (see `fullGc` below for why not a full collection). Each round is long enough for the clock (at least
 * `minRoundMs`); the figure reported is the median round.
 */
import { performance } from "node:perf_hooks";

/**
 * The clock rounds are timed with. `cpu` (the default) is this process's CPU time (user + system, all its threads,
 * so garbage collection and compilation are billed too): on a shared machine it does not count the time other
 * processes hold the core, which wall time does, and that noise is what makes ratios wander. `wall` is
 * `performance.now()`. On an idle machine the two agree within a few per cent.
 */
export type ClockName = "cpu" | "wall";
let clockName: ClockName = "cpu";
export function useClock(name: ClockName): void {
  clockName = name;
}
export function clock(): ClockName {
  return clockName;
}
function now(): number {
  if (clockName === "wall") return performance.now();
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * A full collection (`gc()`) also shrinks V8's young generation back to its smallest size, and a workload that
 * builds a large tree (a JSON parser) then pays for many extra scavenges until it grows again: 2–3× slower for a
 * while. So the heap is fully collected once, before warm-up (which lets it grow back), and rounds start after a
 * minor collection only, which clears the previous round's garbage without shrinking anything.
 */
const exposedGc = (globalThis as { gc?: (options?: { type: "major" | "minor" }) => void }).gc;
const fullGc = () => exposedGc?.();
const minorGc = () => exposedGc?.({ type: "minor" });

/** Results are folded into this so the optimiser cannot drop the work that produced them. */
export let sink = 0;
export function consume(x: number): void {
  sink = (sink + x) | 0;
}

export interface Contender {
  name: string;
  /** One pass over the inputs; returns a number derived from every result (consumed by the harness). */
  pass: () => number;
  /** How many operations one pass performs (decisions, checks). */
  unitsPerPass: number;
}

export interface RoundOptions {
  rounds: number;
  /** A round repeats the pass until at least this long (calibrated during warm-up). */
  minRoundMs: number;
  /** Warm-up: passes until this long has gone by (and at least `minWarmupPasses`). */
  warmupMs: number;
  minWarmupPasses?: number;
}

export interface Measured {
  name: string;
  /** Operations per second, per round. */
  rates: number[];
  /** Median operations per second. */
  rate: number;
  /** Median milliseconds per operation. */
  msPerUnit: number;
  passesPerRound: number;
  /** Spread of the rounds: (max − min) / median, as a noise indicator. */
  spread: number;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Time several contenders, interleaved. Per-contender overrides let a very slow one run fewer rounds. */
export function measureInterleaved(contenders: readonly Contender[], options: RoundOptions, overrides: Record<string, Partial<RoundOptions>> = {}): Measured[] {
  const plans = contenders.map((c) => {
    const o = { ...options, ...overrides[c.name] };
    // Warm up and calibrate: how many passes make a round of at least minRoundMs.
    fullGc();
    let passes = 0;
    const start = now();
    let elapsed = 0;
    while (elapsed < o.warmupMs || passes < (o.minWarmupPasses ?? 3)) {
      consume(c.pass());
      passes++;
      elapsed = now() - start;
    }
    const perPass = elapsed / passes;
    return { c, o, passesPerRound: Math.max(1, Math.ceil(o.minRoundMs / Math.max(perPass, 1e-6))), rates: [] as number[] };
  });
  const maxRounds = Math.max(...plans.map((p) => p.o.rounds));
  for (let round = 0; round < maxRounds; round++) {
    for (let k = 0; k < plans.length; k++) {
      const plan = plans[(round + k) % plans.length]!;
      if (plan.rates.length >= plan.o.rounds) continue;
      minorGc();
      let acc = 0;
      const t0 = now();
      for (let i = 0; i < plan.passesPerRound; i++) acc = (acc + plan.c.pass()) | 0;
      const t1 = now();
      consume(acc);
      plan.rates.push((plan.passesPerRound * plan.c.unitsPerPass) / ((t1 - t0) / 1000));
    }
  }
  return plans.map(({ c, rates, passesPerRound }) => {
    const rate = median(rates);
    return { name: c.name, rates, rate, msPerUnit: 1000 / rate, passesPerRound, spread: (Math.max(...rates) - Math.min(...rates)) / rate };
  });
}

/** Median wall time of an async operation, interleaved with others the same way. */
export async function measureAsyncInterleaved(
  contenders: readonly { name: string; run: () => Promise<number> | number }[],
  options: RoundOptions,
): Promise<Measured[]> {
  const plans = [];
  for (const c of contenders) {
    fullGc();
    let passes = 0;
    const start = now();
    let elapsed = 0;
    while (elapsed < options.warmupMs || passes < (options.minWarmupPasses ?? 3)) {
      consume(await c.run());
      passes++;
      elapsed = now() - start;
    }
    plans.push({ c, passesPerRound: Math.max(1, Math.ceil(options.minRoundMs / (elapsed / passes))), rates: [] as number[] });
  }
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < plans.length; k++) {
      const plan = plans[(round + k) % plans.length]!;
      minorGc();
      let acc = 0;
      const t0 = now();
      for (let i = 0; i < plan.passesPerRound; i++) acc = (acc + (await plan.c.run())) | 0;
      const t1 = now();
      consume(acc);
      plan.rates.push(plan.passesPerRound / ((t1 - t0) / 1000));
    }
  }
  return plans.map(({ c, rates, passesPerRound }) => {
    const rate = median(rates);
    return { name: c.name, rates, rate, msPerUnit: 1000 / rate, passesPerRound, spread: (Math.max(...rates) - Math.min(...rates)) / rate };
  });
}
