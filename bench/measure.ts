/**
 * Timing helpers. Every contender is warmed up and then timed in the same process, on the same inputs, both
 * interleaved (rounds A B C, B C A, C A B, …) so that drift in the machine (frequency, other processes) falls on
 * all of them alike. Before each round the young heap is collected (the script runs with --expose-gc) so one
 * contender's garbage is not billed to the next (see `fullGc` below for why not a full collection). Each round is
 * long enough for the clock (at least `minRoundMs`); the figure reported is the median round.
 */
import { performance } from "node:perf_hooks";

/**
 * The clock rounds are timed with. `cpu` (the default) is this process's CPU time (user + system, all its threads,
 * so garbage collection and compilation are billed too): on a shared machine it does not count the time other
 * processes hold the core, which wall time does, and that noise is what makes ratios wander. `wall` is
 * `performance.now()`. On an idle machine the two should agree closely.
 */
export type ClockName = "cpu" | "wall";
let clockName: ClockName = "cpu";
export function useClock(name: ClockName): void {
  clockName = name;
}
export function clock(): ClockName {
  return clockName;
}
/** This process's CPU time so far, in ms (user + system, every thread): the `cpu` clock. */
export function cpuNowMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
/** Now, on the bench's clock (`useClock`), in ms. */
export function now(): number {
  return clockName === "wall" ? performance.now() : cpuNowMs();
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
  /**
   * Time the rounds of one contender may take in all (default 12 s). A contender too slow for that gets fewer
   * rounds (an odd number, at least one), and a warm-up pass longer than `slowPassMs` (default 2 s) ends the
   * warm-up, so a regression makes the bench report a slow figure rather than run for an hour.
   */
  budgetMs?: number;
  slowPassMs?: number;
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
  /** Fewer rounds than asked, because the contender is too slow for its time budget. */
  cutShort: boolean;
}

/** The median CPU time of `rounds` calls of `run`, in ms, after `warmups` calls (the stand-alone scripts' measure). */
export function medianCpuMs(run: () => void, rounds: number, warmups: number): number {
  for (let i = 0; i < warmups; i++) run();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = cpuNowMs();
    run();
    times.push(cpuNowMs() - start);
  }
  return median(times);
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

interface Plan {
  name: string;
  run: () => number | Promise<number>;
  unitsPerPass: number;
  rounds: number;
  passesPerRound: number;
  cutShort: boolean;
  rates: number[];
}

/** A contender to warm up and plan, with the round options that apply to it. */
interface ToPlan {
  readonly name: string;
  readonly run: () => number | Promise<number>;
  readonly unitsPerPass: number;
  readonly options: RoundOptions;
}
interface Warming extends ToPlan {
  passes: number;
  elapsed: number;
  done: boolean;
}

/**
 * Warm up the contenders together and decide each one's rounds: how many passes make a round, and how many rounds
 * fit its budget. The warm-up is interleaved, in slices of a round's length, for the same reason the rounds are:
 * warmed one after another, the first contender then sat idle through the others' warm-ups, and the full
 * collections there let V8 drop its compiled code, so it paid for compiling again in its first recorded rounds. In
 * section 2 that was ours (far more functions than VS Code's validator, each run once per check): its first rounds
 * at 10 rules read several times its later ones, enough to move the median.
 */
async function planTogether(contenders: readonly ToPlan[]): Promise<Plan[]> {
  fullGc();
  const warming: Warming[] = contenders.map((c) => ({ ...c, passes: 0, elapsed: 0, done: false }));
  while (warming.some((w) => !w.done)) {
    for (const w of warming) {
      if (w.done) continue;
      const o = w.options;
      const slice = Math.max(o.minRoundMs, 10);
      const start = now();
      let spent = 0;
      do {
        consume(await w.run());
        w.passes++;
        spent = now() - start;
      } while (spent < slice && w.elapsed + spent < o.warmupMs);
      w.elapsed += spent;
      const warmedUp = w.elapsed >= o.warmupMs && w.passes >= (o.minWarmupPasses ?? 3);
      // A pass slower than `slowPassMs` ends the warm-up: a regression gets a slow figure, not an hour of bench.
      if (warmedUp || w.elapsed / w.passes > (o.slowPassMs ?? 2000)) w.done = true;
    }
  }
  return warming.map(({ name, run, unitsPerPass, options: o, passes, elapsed }) => {
    const perPass = Math.max(elapsed / passes, 1e-6);
    const passesPerRound = Math.max(1, Math.ceil(o.minRoundMs / perPass));
    let rounds = Math.min(o.rounds, Math.max(1, Math.floor((o.budgetMs ?? 12_000) / (perPass * passesPerRound))));
    if (rounds % 2 === 0) rounds--; // an odd count has a true median
    return { name, run, unitsPerPass, rounds, passesPerRound, cutShort: rounds < o.rounds, rates: [] };
  });
}

async function runRounds(plans: Plan[]): Promise<Measured[]> {
  const maxRounds = Math.max(...plans.map((p) => p.rounds));
  for (let round = 0; round < maxRounds; round++) {
    for (let k = 0; k < plans.length; k++) {
      const p = plans[(round + k) % plans.length]!;
      if (p.rates.length >= p.rounds) continue;
      minorGc();
      let acc = 0;
      const t0 = now();
      for (let i = 0; i < p.passesPerRound; i++) acc = (acc + (await p.run())) | 0;
      const t1 = now();
      consume(acc);
      p.rates.push((p.passesPerRound * p.unitsPerPass) / ((t1 - t0) / 1000));
    }
  }
  return plans.map((p) => {
    const rate = median(p.rates);
    return { name: p.name, rates: p.rates, rate, msPerUnit: 1000 / rate, passesPerRound: p.passesPerRound, spread: (Math.max(...p.rates) - Math.min(...p.rates)) / rate, cutShort: p.cutShort };
  });
}

/**
 * Time several synchronous contenders, interleaved. Per-contender overrides let a very slow one run fewer rounds.
 * (Awaiting a plain number between passes costs a microtask, the same for every contender and negligible next to
 * a pass over a thousand inputs.)
 */
export async function measureInterleaved(contenders: readonly Contender[], options: RoundOptions, overrides: Record<string, Partial<RoundOptions>> = {}): Promise<Measured[]> {
  return runRounds(await planTogether(contenders.map((c) => ({ name: c.name, run: c.pass, unitsPerPass: c.unitsPerPass, options: { ...options, ...overrides[c.name] } }))));
}

/** The same for operations that may be asynchronous (one operation per call), e.g. a language service. */
export async function measureAsyncInterleaved(contenders: readonly { name: string; run: () => Promise<number> | number }[], options: RoundOptions): Promise<Measured[]> {
  return runRounds(await planTogether(contenders.map((c) => ({ ...c, unitsPerPass: 1, options }))));
}
