/**
 * The one seam between the engine and the exact rule analysis (analysis.ts): a plain `require`, run on first use.
 * Under tsx (tests, bench) it loads analysis.ts; in the bundles build.mjs turns this request into
 * `require("./analysis.js")`, a bundle of its own, so a host that never analyses never loads refa.
 */
import type * as ExactAnalysis from "./analysis";
import type { Check } from "./checks/check";

let loaded: typeof ExactAnalysis | undefined;

export function exactAnalysis(): typeof ExactAnalysis {
  return (loaded ??= require("./analysis") as typeof ExactAnalysis);
}

type CheckName = "ruleShadowed" | "ruleRedundant" | "rulePartiallyShadowed" | "runtimeDivergence" | "dotfilesUnprotected";

/**
 * A check that stands for one of the analysis checks: every property is read from the real check, which is
 * loaded the first time any of them is read (checkConfig.ts reads them only when the analysis was asked for).
 */
export function lazyAnalysisCheck(name: CheckName): Check {
  return new Proxy({} as Check, {
    get: (_, property) => Reflect.get(exactAnalysis()[name], property),
    has: (_, property) => Reflect.has(exactAnalysis()[name], property),
    ownKeys: () => Reflect.ownKeys(exactAnalysis()[name]),
    getOwnPropertyDescriptor: (_, property) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(exactAnalysis()[name], property);
      // A proxy may not report a property as non-configurable when its target does not have it.
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
