import { TooManyNodesError } from "refa";

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

/** Thrown when a budget runs out; carries what ran out, for the `skipped` list. */
export class BudgetExceeded extends Error {
  constructor(readonly what: "time" | "states", readonly limit: number) {
    super(what === "time" ? `took longer than ${limit} ms` : `needed more than ${limit} automaton states`);
  }
}

/** Thrown when a pattern's regular expression uses a construct that cannot be turned into an automaton exactly. */
export class NotAnalysable extends Error {}

export class Budget {
  private readonly deadline: number;
  private states = 0;
  private ticks = 0;

  constructor(readonly limits: BudgetLimits, private readonly now: () => number = performance.now.bind(performance)) {
    this.deadline = now() + limits.milliseconds;
  }

  /** Count `n` new states; throws when over the size or (checked every few calls) the time limit. */
  spend(n = 1): void {
    this.states += n;
    if (this.states > this.limits.states) throw new BudgetExceeded("states", this.limits.states);
    if ((++this.ticks & 63) === 0) this.checkTime();
  }

  checkTime(): void {
    if (this.now() > this.deadline) throw new BudgetExceeded("time", this.limits.milliseconds);
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
