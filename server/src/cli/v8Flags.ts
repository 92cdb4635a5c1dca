/**
 * Two V8 settings for the CLI's process only, set before the engine's bundle loads. They change when code is
 * optimised and how fast the young heap grows, never what anything computes. A CLI run is short and goes through
 * many code paths once (parse, schema, some thirty checks, two pattern compilers), which V8's defaults, tuned for
 * long-running pages and servers, handle poorly. Measured with `npm run bench` section 3 (1,000 rules,
 * `--no-analysis`, wall time, medians; `node --import tsx bench/cli.ts --cli A --cli B` compares two builds):
 *
 * - `--ticks-before-optimization=50` (V8: 3). With 3, most of the early optimisations are made on feedback that is
 *   not settled yet, thrown away (deoptimised) and made again, on the optimiser's thread and on the main one:
 *   240 → 170 ms wall, 350 → 220 ms CPU. Long runs gain too, since code optimised once on settled feedback is not
 *   deoptimised again: the same config with the exact analysis 3.13 → 3.05 s, a 20,000-rule file from
 *   bench/generate.ts 970 → 830 ms (CPU 4.65 → 4.27 s and 1.51 → 1.23 s; `/usr/bin/time`, medians of five). With optimisation off entirely (`--no-opt`) the analysis took 9.5 s: it is
 *   delayed, not turned off.
 * - `--semi-space-growth-factor=8` (V8: 2). Nearly everything a check allocates lives until the end (the parse
 *   tree, compiled patterns), so each young collection copies it again while the young heap grows step by step
 *   from 1 MB: ten scavenges become six, 172 → 165 ms.
 *
 * Only on the V8 they were measured on (Node 20's 11.x): another V8 may not know a flag and would print an error
 * for it. A flag the user set themselves (`node --flag=…`, `NODE_OPTIONS`) is left as they set it.
 */
import { setFlagsFromString } from "node:v8";

export const CLI_V8_FLAGS: readonly { readonly name: string; readonly value: number }[] = [
  { name: "ticks-before-optimization", value: 50 },
  { name: "semi-space-growth-factor", value: 8 },
];

/** The flags to set in this process: none on another V8, and none the user chose (V8 reads `-` and `_` alike). */
export function cliV8Flags(v8Version: string, execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  if (!/^11\./.test(v8Version)) return [];
  const given = [...execArgv, ...(nodeOptions ?? "").split(/\s+/)].map((arg) => arg.replace(/_/g, "-"));
  return CLI_V8_FLAGS.filter(({ name }) => !given.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`))).map(({ name, value }) => `--${name}=${value}`);
}

// Only as the CLI's bundle (tests import main.ts from the sources, in their own process).
if (require.main === module) for (const flag of cliV8Flags(process.versions.v8, process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString(flag);
