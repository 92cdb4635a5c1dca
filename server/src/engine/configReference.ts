import { checkConfigText, type CheckOptions, type CheckResult } from "./checkConfig";
import { checkSourceText, isLanguageLoaded, readAgents, sourceLanguageOf, type SourceAgent, type SourceLanguage } from "./sources";
import { LineIndex } from "./text";
import { parseJsonc } from "./config/parse";
import { scenarioOf } from "./dryrun/scenario";

/**
 * A config named by a dry-run scenario's `config` (and, through the CLI, by a command's CONFIG): an
 * agent-sandbox.jsonc, or a TypeScript, JavaScript or Python file whose `createDeepAgent` / `create_deep_agent`
 * call is the config, `agent.ts` for a file with one call, `agent.ts:12` for the call on line 12.
 */
export interface ConfigReference {
  /** The file, without `:LINE`. */
  file: string;
  /** 1-based. */
  line?: number;
  /** Set when the file is source code. */
  language?: SourceLanguage;
}

/** `agent.ts:12` → the file and its line; `:LINE` is read only after a source file's name. */
export function configReference(reference: string): ConfigReference {
  const withLine = /^(.+):(\d+)$/.exec(reference);
  const language = withLine ? sourceLanguageOf(baseName(withLine[1]!)) : undefined;
  if (withLine && language) return { file: withLine[1]!, line: Number(withLine[2]), language };
  const own = sourceLanguageOf(baseName(reference));
  return own ? { file: reference, language: own } : { file: reference };
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

/** The call a reference names, or why none: no call, several and no line, or no call on the line. */
export function pickAgent(agents: readonly SourceAgent[], lines: LineIndex, reference: ConfigReference): { agent: SourceAgent } | { error: string; callLines: number[] } {
  const lineOf = (a: SourceAgent) => lines.positionAt(a.call.span.start).line + 1;
  const callLines = agents.map(lineOf);
  const callee = reference.language === "python" ? "create_deep_agent" : "createDeepAgent";
  if (agents.length === 0) return { error: `it has no call of ${callee} imported from deepagents`, callLines };
  const listed = callLines.length === 2 ? `${callLines[0]} and ${callLines[1]}` : callLines.join(", ");
  if (reference.line === undefined) {
    if (agents.length === 1) return { agent: agents[0]! };
    return { error: `it has ${agents.length} calls of ${callee}, on lines ${listed}: name one as ${baseName(reference.file)}:LINE`, callLines };
  }
  const line = reference.line - 1;
  // Nested calls (a subagent built by its own call inside the options): the innermost, which starts last.
  const covering = agents.filter((a) => lines.positionAt(a.call.span.start).line <= line && line <= lines.positionAt(a.call.span.end).line);
  const agent = covering.sort((a, b) => b.call.span.start - a.call.span.start)[0];
  if (!agent) return { error: `line ${reference.line} is on no call of ${callee}; ${agents.length === 1 ? "its call is on line" : "its calls are on lines"} ${listed}`, callLines };
  return { agent };
}

export interface ReferencedCheck extends CheckResult {
  /** For a source file: the call read, and every call's line. */
  agent?: SourceAgent;
  callLines?: number[];
  /** Why the named call could not be read (the model is then undefined). */
  error?: string;
}

/**
 * Checks the config a reference names, given its file's text: a config file as `checkConfigText` does; a source
 * file's call with every check, its findings those within the call. The source's grammar must be loaded (the
 * host loads it: loading is asynchronous), else the result says so and has no model.
 */
export function checkConfigReference(reference: ConfigReference, text: string, options: CheckOptions = {}): ReferencedCheck {
  if (!reference.language) return checkConfigText(text, options);
  const lines = new LineIndex(text);
  const refused = (error: string, callLines?: number[]): ReferencedCheck => ({
    findings: [{ code: "schema", severity: "error", message: `${error[0]!.toUpperCase()}${error.slice(1)}.`, span: { start: 0, end: 0 } }],
    model: undefined,
    lines,
    skipped: [],
    error,
    ...(callLines ? { callLines } : {}),
  });
  if (!isLanguageLoaded(reference.language)) return refused("its parser is not loaded");
  // The calls are read once to pick one, then that call alone is checked: its findings may lie outside the call
  // (on a list bound to a name above it), so they cannot be told apart by place.
  const picked = pickAgent(readAgents(text, reference.language), lines, reference);
  if ("error" in picked) return refused(picked.error, picked.callLines);
  const start = picked.agent.call.span.start;
  const result = checkSourceText(text, reference.language, options, (a) => a.call.span.start === start);
  const agent = result.agents.find((a) => a.call.span.start === start)!;
  return {
    findings: result.findings,
    model: agent.model,
    lines: result.lines,
    skipped: result.skipped,
    agent,
    callLines: result.agents.map((a) => result.lines.positionAt(a.call.span.start).line + 1),
  };
}

/**
 * The language of the source file a scenario's `config` names, or undefined (a config file, no `config`, a file
 * that does not parse): what a host loads before it checks the scenario.
 */
export function scenarioConfigLanguage(scenarioText: string): SourceLanguage | undefined {
  // Most scenarios name a config file: a text in which no string ends like a source file's name is not parsed
  // (the editor asks before every check of a scenario, on the thread that answers requests).
  if (!/\.(?:[mc]?ts|tsx|jsx?|mjs|cjs|pyi?)(?::\d+)?["']/.test(scenarioText)) return undefined;
  const config = scenarioOf(parseJsonc(scenarioText).root).config;
  return config === undefined ? undefined : configReference(config).language;
}
