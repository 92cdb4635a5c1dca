/**
 * The one seam between the engine and the exact rule analysis (analysis.ts): a plain `require`, run on first use.
 * Under tsx (tests, bench) it loads analysis.ts; in the bundles build.mjs turns this request into
 * `require("./analysis.js")`, a bundle of its own, so a host that never analyses never loads refa. The analysis
 * checks call it inside their `run`, never at load time.
 */
import type * as ExactAnalysis from "./analysis";

let loaded: typeof ExactAnalysis | undefined;

export function exactAnalysis(): typeof ExactAnalysis {
  return (loaded ??= require("./analysis") as typeof ExactAnalysis);
}
