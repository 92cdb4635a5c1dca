import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { CheckOptions } from "../engine/checkConfig";
import type { DynamicValue } from "../engine/config/dynamic";
import type { Finding } from "../engine/diagnostics";
import type { ConfigReference } from "../engine/configReference";
import type { SourceAgent, SourceLanguage } from "../engine/sources";
import type { LineIndex } from "../engine/text";
import { UsageError } from "./args";
import { later } from "./later";
import type { Io } from "./stdio";

/**
 * A CONFIG argument that names a source file: `FILE` (a TypeScript, JavaScript or Python file with one call of
 * `createDeepAgent` / `create_deep_agent`) or `FILE:LINE` (the call on that line, for a file with several). The
 * call is read statically (never run) into the model the equivalent agent-sandbox.jsonc gives.
 */
export type ConfigTarget = ConfigReference;

/**
 * Whether an argument may name a source file (`agent.py`, `agent.ts:12`), by its ending alone: the engine, which
 * knows the file names exactly, is loaded only then (a usage error on a config file never loads it).
 */
export function mayNameSource(argument: string): boolean {
  return /\.(?:[mc]?ts|tsx|jsx?|mjs|cjs|pyi?)(?::\d+)?$/.test(argument);
}

/**
 * `agent.ts:12` → the file and the line (engine/configReference.ts). A name that exists as written is a file name,
 * colon and all. A `:LINE` after a file that is not source code is a usage error.
 */
export function configTarget(argument: string): ConfigTarget {
  // A config file's name: nothing of the source front ends is loaded.
  if (!mayNameSource(argument) && !/:\d+$/.test(argument)) return { file: argument };
  const { configReference } = later.configReference();
  if (existsSync(argument)) {
    const language = later.sources().sourceLanguageOf(basename(argument));
    return language ? { file: argument, language } : { file: argument };
  }
  const reference = configReference(argument);
  const withLine = /^(.+):(\d+)$/.exec(argument);
  if (withLine && reference.line === undefined) throw new UsageError(`${argument}: a :LINE picks one call in a source file (.ts, .tsx, .js, .mjs, .cjs, .py); ${withLine[1]} is not one`);
  if (reference.line !== undefined && reference.line < 1) throw new UsageError(`${argument}: lines are numbered from 1`);
  return reference;
}

/**
 * Runs `run` once the parser of `target`'s language is loaded (at once for a config file, which needs none). Grammars
 * load asynchronously; reading and checking the file is then synchronous, as for a config.
 */
export function afterGrammar<T>(target: ConfigTarget | undefined, run: () => T): T | Promise<T> {
  if (!target?.language) return run();
  const { loadLanguage, isLanguageLoaded } = later.sources();
  if (isLanguageLoaded(target.language)) return run();
  return loadLanguage(target.language, later.grammarFiles().grammarFiles).then(run);
}

export interface PickedCall {
  agent: SourceAgent;
  /** The whole file's findings on this call (every check, at the source's spans). */
  findings: Finding[];
  lines: LineIndex;
  /** `FILE:LINE` of the call, as shown to the user. */
  shown: string;
}

/**
 * The call a source CONFIG names: the only one in the file, or the one on `line` (whose span covers it; of nested
 * calls, the innermost). No call, several without a line, or none on the line: a usage error that lists the
 * calls as FILE:LINE, so the next command can be typed from it.
 */
export function pickCall(target: ConfigTarget, text: string, options: CheckOptions): PickedCall {
  const { displayPath } = later.files();
  const shownFile = displayPath(target.file);
  const result = later.configReference().checkConfigReference(target, text, options);
  const calls = result.callLines?.length ? ` (${result.callLines.map((l) => `${shownFile}:${l}`).join(", ")})` : "";
  if (!result.agent) throw new UsageError(`${shownFile}: ${result.error ?? "no call could be read"}${calls}`);
  const line = result.lines.positionAt(result.agent.call.span.start).line + 1;
  return { agent: result.agent, findings: result.findings, lines: result.lines, shown: `${shownFile}:${line}` };
}

/**
 * What the command leaves out, said once on stderr: the values the file computes at run time. The answer on stdout
 * keeps its contract, and is the answer without them.
 */
export function noteDynamic(io: Io, shown: string, dynamic: readonly DynamicValue[] | undefined): void {
  if (!dynamic?.length) return;
  const list = [...dynamic].sort((a, b) => a.span.start - b.span.start).map((d) => `${d.what} (${d.expression})`).join("; ");
  io.err(`agent-sandbox: note: ${shown}: not analysed, as only running the code would tell: ${list}; the answer leaves ${dynamic.length === 1 ? "it" : "them"} out\n`);
}

/** See engine/configReference.ts. */
export function scenarioConfigLanguage(scenarioText: string): SourceLanguage | undefined {
  return later.configReference().scenarioConfigLanguage(scenarioText);
}

/** Runs `run` once the grammars of `languages` are loaded; a grammar that cannot be loaded is exit 2. */
export function afterGrammars(languages: Iterable<SourceLanguage | undefined>, io: Io, run: () => number): number | Promise<number> {
  const { loadLanguage, isLanguageLoaded } = later.sources();
  const needed = [...new Set(languages)].filter((l): l is SourceLanguage => l !== undefined && !isLanguageLoaded(l));
  if (needed.length === 0) return run();
  return Promise.all(needed.map((l) => loadLanguage(l, later.grammarFiles().grammarFiles))).then(run, (error: Error) => {
    io.err(`agent-sandbox: cannot load the parser for source files: ${error.message}\n`);
    return 2;
  });
}
