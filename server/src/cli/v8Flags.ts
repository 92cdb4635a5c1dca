/**
 * Two V8 settings for the CLI's process only. They change when code is optimised and how fast the young heap grows,
 * never what anything computes. A CLI run is short and goes through many code paths once (parse, schema, some thirty
 * checks, two pattern compilers), which V8's defaults, tuned for long-running pages and servers, handle poorly.
 * Measured with `npm run bench` section 3 (1,000 rules, `--no-analysis`, wall time, medians;
 * `node --import tsx bench/cli.ts --cli A --cli B` compares two builds):
 *
 * - `--ticks-before-optimization=50` (V8: 3), set before the engine's bundle loads. With 3, most of the early
 *   optimisations are made on feedback that is not settled yet, thrown away (deoptimised) and made again, on the
 *   optimiser's thread and on the main one: 240 → 170 ms wall, 350 → 220 ms CPU. Long runs gain too, since code
 *   optimised once on settled feedback is not deoptimised again: the same config with the exact analysis 3.13 →
 *   3.05 s, a 20,000-rule file from bench/generate.ts 970 → 830 ms (CPU 4.65 → 4.27 s and 1.51 → 1.23 s;
 *   `/usr/bin/time`, medians of five). With optimisation off entirely (`--no-opt`) the analysis took 9.5 s: it is
 *   delayed, not turned off. (100 and 200 were within a few ms of 50 on 4 Dec, 25 no better.)
 * - `--semi-space-growth-factor=8` (V8: 2), set only when the exact rule analysis is about to run: a run of
 *   seconds that keeps most of what it allocates (its automata), where a young heap that grows in bigger steps
 *   copies the survivors fewer times: the 1,000-rule config with the analysis 4.26 → 3.93 s (medians of five,
 *   interleaved, 4 Dec). Not for the short runs: a bigger young heap is fresh memory, and on a host where the
 *   kernel's page faults are dear (a virtual machine: about 9 µs each there, by `perf stat` and the system time)
 *   touching it cost more than the scavenges it saves. With it from the start, `check --no-analysis` took 9,500
 *   page faults against 7,700 and 290 against 258 ms (medians of 31, interleaved, 4 Dec); on the host of 3 Dec it
 *   had saved 7 ms there (172 → 165).
 *
 * Only on the V8 they were measured on (Node 20's 11.x): another V8 may not know a flag and would print an error
 * for it. A flag the user set themselves (`node --flag=…`, `NODE_OPTIONS`) is left as they set it.
 */
import { setFlagsFromString } from "node:v8";

/** When a flag is set: as the CLI starts, or once the exact rule analysis is about to run. */
export type V8FlagPhase = "start" | "analysis";

export const CLI_V8_FLAGS: readonly { readonly name: string; readonly value: number; readonly phase: V8FlagPhase }[] = [
  { name: "ticks-before-optimization", value: 50, phase: "start" },
  { name: "semi-space-growth-factor", value: 8, phase: "analysis" },
];

/** The flags of `phase` to set in this process: none on another V8, and none the user chose (V8 reads `-` and `_` alike). */
export function cliV8Flags(v8Version: string, execArgv: readonly string[], nodeOptions: string | undefined, phase: V8FlagPhase = "start"): string[] {
  if (!/^11\./.test(v8Version)) return [];
  const given = [...execArgv, ...(nodeOptions ?? "").split(/\s+/)].map((arg) => arg.replace(/_/g, "-"));
  return CLI_V8_FLAGS.filter(({ name, phase: when }) => when === phase && !given.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`))).map(
    ({ name, value }) => `--${name}=${value}`,
  );
}

let analysisFlagsSet = false;
/** Sets the analysis phase's flags, once; only in the CLI's bundle (tests import main.ts into their own process). */
export function setAnalysisV8Flags(): void {
  if (analysisFlagsSet || !isCliBundle) return;
  analysisFlagsSet = true;
  for (const flag of cliV8Flags(process.versions.v8, process.execArgv, process.env.NODE_OPTIONS, "analysis")) setFlagsFromString(flag);
}

const isCliBundle = require.main === module;
// Only as the CLI's bundle (tests import main.ts from the sources, in their own process).
if (isCliBundle) for (const flag of cliV8Flags(process.versions.v8, process.execArgv, process.env.NODE_OPTIONS, "start")) setFlagsFromString(flag);
