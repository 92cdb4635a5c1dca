/**
 * V8 settings for the CLI's process only. They change when code is optimised and how fast the young heap grows,
 * never what anything computes. A CLI run is short and goes through many code paths once (parse, schema, some thirty
 * checks, two pattern compilers), which V8's defaults, tuned for long-running pages and servers, handle poorly.
 * Measured with `npm run bench` section 3 (1,000 rules, `--no-analysis`, wall time, medians;
 * `node --import tsx bench/cli.ts --cli A --cli B` compares two builds, interleaved, `--rules N` on other sizes):
 *
 * - `--ticks-before-optimization=50` (V8: 3), set before the engine's bundle loads. With 3, most of the early
 *   optimisations are made on feedback that is not settled yet, thrown away (deoptimised) and made again, on the
 *   optimiser's thread and on the main one: 240 → 170 ms wall, 350 → 220 ms CPU. Long runs gain too, since code
 *   optimised once on settled feedback is not deoptimised again: the same config with the exact analysis 3.13 →
 *   3.05 s, a 20,000-rule file from bench/generate.ts 970 → 830 ms (CPU 4.65 → 4.27 s and 1.51 → 1.23 s;
 *   `/usr/bin/time`, medians of five). (100 and 200 were within a few ms of 50, 25 no better.)
 * - `--no-turbofan` at start, `--turbofan` once the run turns out long ("long": the exact analysis is about to run,
 *   or the inputs checked pass `LONG_RUN_CHARACTERS`). In a short run the optimiser's compiles cost more than the
 *   optimised code gives back before the process ends: at 1,000 rules 155 → 144 ms above Node's start-up, faster in
 *   30 of 31 rounds, and 60 ms less CPU time. Without it past the crossover, between 1,000 and 2,000 rules
 *   (115 and 230 KB): 2,000 rules +5 ms, 3,000 +10, 5,000 and 10,000 +34 (medians of nine); the exact analysis took
 *   9.5 s instead of 3 to 4. Set back to what the bundles were loaded under before the compile cache writes its data
 *   at exit (see `enterPhase`).
 * - `--semi-space-growth-factor=8` (V8: 2), set only when the exact rule analysis is about to run: a run of
 *   seconds that keeps most of what it allocates (its automata), where a young heap that grows in bigger steps
 *   copies the survivors fewer times: the 1,000-rule config with the analysis 4.26 → 3.93 s (medians of five,
 *   interleaved). Not for the short runs: a bigger young heap is fresh memory, and on a host where the
 *   kernel's page faults are dear (a virtual machine: about 9 µs each there, by `perf stat` and the system time)
 *   touching it cost more than the scavenges it saves. With it from the start, `check --no-analysis` took 9,500
 *   page faults against 7,700 and 290 against 258 ms (medians of 31, interleaved); on another host it
 *   had saved 7 ms there (172 → 165).
 *
 * What they are worth together, against V8's own values given on Node's command line (which this module then
 * leaves alone), measured with `node --import tsx bench/cliMachinery.ts --runs 15`: the built CLI, CPU time (user
 * + system of the process), medians of 15 interleaved rounds, load average 20 to 26 on 2 cores. Without them the
 * example's `check` (the analysis included: mostly start-up) takes 460 ms of CPU instead of 320 (1.44×), `check
 * --no-analysis` of 1,000 rules 270 instead of 200 (1.35×), and `check` of 200 rules with the analysis 5.0 s
 * instead of 4.4 (1.14×); no more CPU time with the flags in 15, 15 and 13 of the 15 rounds (CPU time is counted in 10 ms ticks).
 *
 * Only on the V8 they were measured on (Node 20's 11.x): another V8 may not know a flag and would print an error
 * for it. A flag the user set themselves (`node --flag=…`, `NODE_OPTIONS`, or a flag that says the same, such as
 * `--no-opt` for `--turbofan`) is left as they set it, in every phase.
 */
import { setFlagsFromString } from "node:v8";

/**
 * When a flag is set: as the CLI starts; once the run turns out long (a large input, or the exact analysis); or once
 * the exact analysis is about to run.
 */
export type V8FlagPhase = "start" | "long" | "analysis";

export interface CliV8Flag {
  readonly name: string;
  readonly value: number | boolean;
  readonly phase: V8FlagPhase;
  /** For a flag set after start: its value before (V8's default, or what the start phase set), put back at exit. */
  readonly before?: number | boolean;
  /** Other flags that say the same (a user who set any of them set this one). */
  readonly aliases?: readonly string[];
}

export const CLI_V8_FLAGS: readonly CliV8Flag[] = [
  { name: "ticks-before-optimization", value: 50, phase: "start" },
  // `--max-opt` would do, but V8 turns `--turbofan` off with it for good (a flag implication that no later
  // `--max-opt` undoes): the optimiser is switched by name.
  { name: "turbofan", value: false, phase: "start", aliases: ["opt", "max-opt"] },
  { name: "turbofan", value: true, phase: "long", before: false, aliases: ["opt", "max-opt"] },
  { name: "semi-space-growth-factor", value: 8, phase: "analysis", before: 2 },
];

/** How V8 reads the flag `name` set to `value`. */
function spelled(name: string, value: number | boolean): string {
  return typeof value === "boolean" ? `--${value ? "" : "no-"}${name}` : `--${name}=${value}`;
}

/**
 * Inputs (config and dry-run text, summed over the files and `--fix`'s re-checks) longer than this make a run long:
 * past about 1,700 rules of bench/generate.ts (115 characters each) a run gains from optimised code more than the
 * optimiser costs it.
 */
export const LONG_RUN_CHARACTERS = 200_000;

/** The flags of `phase` to set in this process: none on another V8, and none the user chose (V8 reads `-` and `_` alike). */
export function cliV8Flags(v8Version: string, execArgv: readonly string[], nodeOptions: string | undefined, phase: V8FlagPhase = "start"): string[] {
  return flagsOf(v8Version, execArgv, nodeOptions, phase).map(({ name, value }) => spelled(name, value));
}

function flagsOf(v8Version: string, execArgv: readonly string[], nodeOptions: string | undefined, phase: V8FlagPhase): CliV8Flag[] {
  if (!/^11\./.test(v8Version)) return [];
  const given = [...execArgv, ...(nodeOptions ?? "").split(/\s+/)].map((arg) => arg.replace(/_/g, "-"));
  const chosen = (name: string) => given.some((arg) => arg === `--${name}` || arg === `--no-${name}` || arg === `--no${name}` || arg.startsWith(`--${name}=`));
  return CLI_V8_FLAGS.filter(({ name, phase: when, aliases = [] }) => when === phase && ![name, ...aliases].some(chosen));
}

const isCliBundle = require.main === module;
const phasesSet = new Set<V8FlagPhase>();
let charactersChecked = 0;

/** Sets a later phase's flags, once; only in the CLI's bundle (tests import main.ts into their own process). */
function enterPhase(phase: Exclude<V8FlagPhase, "start">): void {
  if (phasesSet.has(phase) || !isCliBundle) return;
  phasesSet.add(phase);
  const flags = flagsOf(process.versions.v8, process.execArgv, process.env.NODE_OPTIONS, phase);
  if (flags.length === 0) return;
  for (const { name, value } of flags) setFlagsFromString(spelled(name, value));
  // Put back before the compile cache writes its data at exit (compileCache.ts, whose listener was added first,
  // hence `prepend`): V8 stamps cached code with a hash of the flags, and code cached under this phase's flags
  // would be refused by the next run, which loads the bundles under the start phase's. (Before this, every `check`
  // with the analysis compiled engine.js afresh and wrote its cache again.)
  process.prependOnceListener("exit", () => {
    for (const { name, before } of flags) if (before !== undefined) setFlagsFromString(spelled(name, before));
  });
}

/** The exact rule analysis is about to run: a run of seconds. */
export function setAnalysisV8Flags(): void {
  enterPhase("long");
  enterPhase("analysis");
}

/** Counts the characters of an input about to be checked; past `LONG_RUN_CHARACTERS` in all, the run is long. */
export function noteInputCharacters(count: number): void {
  charactersChecked += count;
  if (charactersChecked > LONG_RUN_CHARACTERS) enterPhase("long");
}

// Only as the CLI's bundle (tests import main.ts from the sources, in their own process).
if (isCliBundle) for (const flag of cliV8Flags(process.versions.v8, process.execArgv, process.env.NODE_OPTIONS, "start")) setFlagsFromString(flag);
