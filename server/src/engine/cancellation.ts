/**
 * Stopping an exact analysis nobody waits for any more. The editor runs the analysis in a worker thread, one job at
 * a time; when the user types on, the running job's result is stale, and before this the worker finished it anyway
 * (seconds, for a first analysis of a 1,000-rule file) before it could start on the text the user now has.
 *
 * The analysis is synchronous, so it is stopped from inside: every budget check of the automata (budget.ts, every
 * few thousand product states and around every automaton construction) also asks the host's `isCancelled`, and
 * when it says yes throws `AnalysisCancelled`, which every layer lets through (the checks' error guard included).
 * Nothing half-done is kept: results are cached only once complete, and the per-config results a stopped walk was
 * filling are dropped (`onCancelled`); compiled patterns, each complete, stay.
 */

/** Thrown out of an analysis whose host said it is no longer wanted. */
export class AnalysisCancelled extends Error {
  constructor() {
    super("the analysis was cancelled");
  }
}

let isCancelled: (() => boolean) | undefined;
const cleanups: (() => void)[] = [];

/**
 * Runs `work` (synchronous) so that it stops with `AnalysisCancelled` at its next budget check once `cancelled()`
 * returns true. Not nested: a host runs one analysis at a time.
 */
export function runCancellable<T>(cancelled: () => boolean, work: () => T): T {
  const outer = isCancelled;
  isCancelled = cancelled;
  try {
    return work();
  } catch (error) {
    if (error instanceof AnalysisCancelled) for (const cleanup of cleanups) cleanup();
    throw error;
  } finally {
    isCancelled = outer;
  }
}

/** Called by the analysis where it may stop (its budget checks). */
export function throwIfCancelled(): void {
  if (isCancelled?.()) throw new AnalysisCancelled();
}

/** What to forget when an analysis was stopped: caches a stopped computation may have left partly filled. */
export function onCancelled(cleanup: () => void): void {
  cleanups.push(cleanup);
}
