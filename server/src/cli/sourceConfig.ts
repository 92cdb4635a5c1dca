import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { DynamicValue } from "../engine/config/dynamic";
import type { Finding } from "../engine/diagnostics";
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
export interface ConfigTarget {
  /** The file, without `:LINE`. */
  file: string;
  /** 1-based, as editors and compilers number lines. */
  line?: number;
  /** Set when the file is source code. */
  language?: SourceLanguage;
}

/**
 * `agent.ts:12` → the file and the line. A name that exists as written is a file name, colon and all; `:LINE` is
 * taken off only when the rest is a source file's name.
 */
export function configTarget(argument: string): ConfigTarget {
  const { sourceLanguageOf } = later.sources();
  const withLine = /^(.+):(\d+)$/.exec(argument);
  if (withLine && !existsSync(argument)) {
    const file = withLine[1]!;
    const language = sourceLanguageOf(basename(file));
    if (!language) throw new UsageError(`${argument}: a :LINE picks one call in a source file (.ts, .tsx, .js, .mjs, .cjs, .py); ${file} is not one`);
    const line = Number(withLine[2]);
    if (line < 1) throw new UsageError(`${argument}: lines are numbered from 1`);
    return { file, line, language };
  }
  const language = sourceLanguageOf(basename(argument));
  return language ? { file: argument, language } : { file: argument };
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
 * calls' lines, so the next command can be typed from it.
 */
export function pickCall(target: ConfigTarget, text: string, options: { readFile?: (p: string) => string | undefined; fileExists?: (p: string) => boolean; listDirectory?: (p: string) => string[] | undefined }): PickedCall {
  const { checkSourceText } = later.sources();
  const { displayPath } = later.files();
  const shownFile = displayPath(target.file);
  const result = checkSourceText(text, target.language!, options);
  const { agents, lines } = result;
  const lineOf = (a: SourceAgent) => lines.positionAt(a.call.span.start).line + 1;
  const listed = () => agents.map((a) => `${shownFile}:${lineOf(a)}`).join(", ");
  if (agents.length === 0) {
    throw new UsageError(`${shownFile} has no call of ${target.language === "python" ? "create_deep_agent" : "createDeepAgent"} imported from deepagents (nothing to read)`);
  }
  let agent: SourceAgent | undefined;
  if (target.line === undefined) {
    if (agents.length > 1) throw new UsageError(`${shownFile} has ${agents.length} calls, on lines ${agents.map(lineOf).join(", ")}: name one as FILE:LINE (${listed()})`);
    agent = agents[0];
  } else {
    const line = target.line - 1;
    const covering = agents.filter((a) => lines.positionAt(a.call.span.start).line <= line && line <= lines.positionAt(a.call.span.end).line);
    // Nested calls (a subagent built by its own call inside the options): the innermost, which starts last.
    agent = covering.sort((a, b) => b.call.span.start - a.call.span.start)[0];
    if (!agent) throw new UsageError(`${shownFile}:${target.line} is on no call; the file's calls are on lines ${agents.map(lineOf).join(", ")} (${listed()})`);
  }
  const span = agent!.call.span;
  const findings = result.findings.filter((f) => f.span.start >= span.start && f.span.end <= span.end);
  return { agent: agent!, findings, lines, shown: `${shownFile}:${lineOf(agent!)}` };
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
