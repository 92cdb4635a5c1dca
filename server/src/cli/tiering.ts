/**
 * How soon V8 optimises a hot function, for the CLI's process only.
 *
 * By default V8 hands a function to its optimising compiler (TurboFan) after three rounds of its interrupt budget.
 * A CLI run is short and goes through many different code paths once (parse, schema, some thirty checks, two
 * pattern compilers), so most of those early optimisations are made on feedback that is not settled yet, thrown
 * away (deoptimised) and made again, on the optimiser's background thread and on the main one. On a 2-core machine
 * that was most of the CLI's time above Node's start-up (`npm run bench`, section 3; 1,000 rules, `--no-analysis`):
 *
 *   ticks before optimisation   wall      CPU (all threads)
 *   3 (V8's default)            230 ms    340–400 ms
 *   50                          180 ms    220 ms
 *
 * Long runs gain too, since a function optimised once on settled feedback is not deoptimised again: the same config
 * with the exact analysis 3.13 s → 3.05 s, a 20,000-rule file 970 → 830 ms (wall, medians of five; CPU 4.65 →
 * 4.27 s and 1.51 → 1.23 s). With optimisation off entirely (`--no-opt`) the analysis took 9.5 s: it is delayed,
 * not turned off.
 *
 * V8 flags are set before the engine's bundle loads. They change when code is optimised, never what it computes.
 * Only on the V8 this was measured on (Node 20's 11.x): another V8 may not know the flag and would print an error
 * for it. Nothing is changed when the user set the flag themselves (`node --ticks-before-optimization=…`,
 * `NODE_OPTIONS`).
 */
import { setFlagsFromString } from "node:v8";

export const TICKS_BEFORE_OPTIMIZATION = 50;
const FLAG = "--ticks-before-optimization";

/** Whether this process should get the CLI's tiering: a measured V8, and no choice of the user's to respect. */
export function tieringApplies(v8Version: string, execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  if (!/^11\./.test(v8Version)) return false;
  const chosen = (arg: string) => arg === FLAG || arg.startsWith(`${FLAG}=`) || arg.startsWith("--ticks_before_optimization");
  return !execArgv.some(chosen) && !(nodeOptions ?? "").split(/\s+/).some(chosen);
}

// Only as the CLI's bundle (tests import main.ts from the sources, in their own process).
if (require.main === module && tieringApplies(process.versions.v8, process.execArgv, process.env.NODE_OPTIONS)) {
  setFlagsFromString(`${FLAG}=${TICKS_BEFORE_OPTIMIZATION}`);
}
