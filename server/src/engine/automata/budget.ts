import { TooManyNodesError } from "refa";
import { throwIfCancelled } from "../cancellation";

/**
 * Time and size limits for the exact analysis. A pathological pattern (a huge brace expansion, deeply nested
 * extglobs) can make an automaton explode; the analysis then stops for that pattern or rule and says so, rather
 * than guess (diagnostics.md: "reports nothing rather than something wrong").
 */
export interface BudgetLimits {
  /** Wall-clock milliseconds one unit of work (one pattern, or one rule's question) may take. */
  readonly milliseconds: number;
  /** Automaton states one construction may create. */
  readonly states: number;
}

export const DEFAULT_PATTERN_BUDGET: BudgetLimits = { milliseconds: 250, states: 20_000 };
export const DEFAULT_RULE_BUDGET: BudgetLimits = { milliseconds: 500, states: 40_000 };
/** The walk over every rule at once: sized so realistic configs (hundreds of rules) fit with room to spare. */
export const DEFAULT_PRODUCT_BUDGET: BudgetLimits = { milliseconds: 4000, states: 300_000 };

/** Thrown when a budget runs out; carries what ran out, for the `skipped` list. */
export class BudgetExceeded extends Error {
  constructor(what: "time" | "states" | "work", limit: number);
  /** `size`: the characters the regular expression has. */
  constructor(what: "characters", limit: number, size: number);
  constructor(readonly what: "time" | "states" | "characters" | "work", readonly limit: number, size?: number) {
    super(
      what === "time"
        ? `took longer than ${limit} ms`
        : what === "states"
          ? `needed more than ${limit} automaton states`
          : what === "work"
            ? `was not reached: the exact analysis of this file had done the ${limit.toLocaleString("en")} steps of work it may do`
            : `would be read from a regular expression of ${size!.toLocaleString("en")} characters, over the ${limit.toLocaleString("en")} the analysis reads`,
    );
  }
}

/**
 * The work the exact analysis may do on one file, counted in steps (an automaton state built, a state of a walk
 * over several automata times the automata it steps), never timed: what is analysed, and so every finding, then
 * depends on the file alone, not on the machine or how busy it is. Every `Budget` of the file's analysis charges it
 * besides its own limits; once it is spent, each further piece of work stops with `BudgetExceeded("work")` and the
 * analysis lists what it did not reach under `skipped`. Any check that builds or walks automata can be given one.
 */
export class WorkAllowance {
  private used = 0;

  constructor(readonly steps: number) {}

  get spent(): number {
    return this.used;
  }

  get exhausted(): boolean {
    return this.used > this.steps;
  }

  /** Count `steps`; throws once the allowance is spent. */
  charge(steps: number): void {
    this.used += steps;
    if (this.used > this.steps) throw new BudgetExceeded("work", this.steps);
  }
}

/** Thrown when a pattern's regular expression uses a construct that cannot be turned into an automaton exactly. */
export class NotAnalysable extends Error {}

/**
 * Milliseconds of CPU time this process has used: a budget measures the work done, not how busy the machine is.
 * Reading it is a system call, so between readings (at most every 50 ms of wall time: a config's patterns, each
 * compiled within its own budget, would otherwise read it thousands of times) it is estimated from the wall
 * clock, which can only overestimate it; `precise` reads it (falls back to wall time where there is no `process`).
 */
let lastWall = -Infinity;
let lastCpu = 0;
function processTime(precise = false): number {
  const wall = performance.now();
  if (typeof process === "undefined" || typeof process.cpuUsage !== "function") return wall;
  if (precise || wall - lastWall > 50) {
    const u = process.cpuUsage();
    lastCpu = (u.user + u.system) / 1000;
    lastWall = wall;
    return lastCpu;
  }
  return lastCpu + (wall - lastWall);
}

/**
 * CPU time shared by many units of work, each with its own `Budget`: a rule list analysed rule by rule (when the
 * walk over all its rules does not fit) asks hundreds of questions, each within its rule's limit, and without a
 * limit on their sum a long list of overlapping rules took minutes. Only the time spent inside `run` counts.
 */
export class Allowance {
  private spent = 0;

  constructor(readonly milliseconds: number, private readonly now: (precise?: boolean) => number = processTime) {}

  get exhausted(): boolean {
    return this.spent > this.milliseconds;
  }

  run<T>(work: () => T): T {
    const start = this.now(true);
    try {
      return work();
    } finally {
      this.spent += this.now(true) - start;
    }
  }
}

/** What a list analysed rule by rule may take in all (a rule's own limit is `DEFAULT_RULE_BUDGET`). */
export const DEFAULT_LIST_MILLISECONDS = 5000;

export class Budget {
  private readonly deadline: number;
  private states = 0;
  private ticks = 0;

  /** `allowance`: the whole file's analysis, which this piece of work is part of (charged for every state). */
  constructor(readonly limits: BudgetLimits, private readonly now: (precise?: boolean) => number = processTime, readonly allowance?: WorkAllowance) {
    this.deadline = now() + limits.milliseconds;
  }

  /** Count `n` new states; throws when over the size, the file's allowance or (checked every few calls) the time limit. */
  spend(n = 1): void {
    this.states += n;
    this.allowance?.charge(n);
    if (this.states > this.limits.states) throw new BudgetExceeded("states", this.limits.states);
    // Reading the clock is a system call: look every few thousand states.
    if ((++this.ticks & 4095) === 0) this.checkTime();
  }

  /** Also where an analysis nobody waits for stops (cancellation.ts). */
  checkTime(): void {
    throwIfCancelled();
    if (this.now() > this.deadline && this.now(true) > this.deadline) throw new BudgetExceeded("time", this.limits.milliseconds);
  }

  /** Count steps of work that create no state (a walk's step over many automata): only the file's allowance cares. */
  work(steps: number): void {
    this.allowance?.charge(steps);
  }

  /** States counted so far (for a result kept with what it cost, to count it again when reused). */
  get statesSpent(): number {
    return this.states;
  }

  /** What refa's node factories may still create. */
  get remainingStates(): number {
    return Math.max(1, this.limits.states - this.states);
  }

  /** Run a refa operation, turning its `TooManyNodesError` into `BudgetExceeded`. */
  run<T>(operation: () => T): T {
    this.checkTime();
    try {
      return operation();
    } catch (error) {
      if (error instanceof TooManyNodesError) throw new BudgetExceeded("states", this.limits.states);
      throw error;
    } finally {
      this.checkTime();
    }
  }
}
