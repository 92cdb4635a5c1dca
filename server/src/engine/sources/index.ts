import { checkBuiltModel, type CheckOptions } from "../checkConfig";
import type { DynamicValue } from "../config/dynamic";
import { buildModel, type ConfigModel } from "../config/model";
import type { Finding, Skipped } from "../diagnostics";
import type { RuntimeId } from "../runtime";
import { sourceDynamic } from "../checks/source/sourceDynamic";
import { finishFindings, IGNORE_MARKER } from "../suppressions";
import { LineIndex, type Span } from "../text";
import type { AgentCall } from "./calls";
import { DEEPAGENTS_JS, DEEPAGENTS_PY } from "./dialects";
import { sourceFixRenderer } from "./fixRenderer";
import { pythonCalls } from "./python";
import { toConfig, type SourceConfig } from "./toConfig";
import { withTree, type SourceLanguage, type SyntaxTree } from "./treeSitter";
import { typeScriptCalls } from "./typescript";

export { loadLanguage, isLanguageLoaded, WASM_FILES, type GrammarFiles, type SourceLanguage } from "./treeSitter";

/**
 * The source front ends: `createDeepAgent({...})` in TypeScript/JavaScript and `create_deep_agent(...)` in Python,
 * read statically into the config model a JSONC file gives (toConfig.ts), and checked by the same checks. The
 * runtime is the language's: deepagents-js for TypeScript and JavaScript, deepagents-py for Python.
 *
 * A host first loads the file's language (`loadLanguage`, asynchronous, once), then checks synchronously.
 */

/** The grammar for a file name, or undefined when the file is not source this product reads. */
export function sourceLanguageOf(fileName: string): SourceLanguage | undefined {
  if (/\.(ts|mts|cts)$/.test(fileName) && !/\.d\.[mc]?ts$/.test(fileName)) return "typescript";
  // TSX is a superset of JavaScript's syntax (JSX included), so one grammar reads .tsx, .js, .jsx, .mjs and .cjs.
  if (/\.(tsx|js|jsx|mjs|cjs)$/.test(fileName)) return "tsx";
  if (/\.pyi?$/.test(fileName)) return "python";
  return undefined;
}

export function runtimeOfLanguage(language: SourceLanguage): RuntimeId {
  return language === "python" ? "deepagents-py" : "deepagents-js";
}

/**
 * Whether a file may call the runtime at all: every call this product reads is of a name imported from the
 * `deepagents` package, so a file that never spells it is not parsed (a folder of thousands of source files costs
 * a substring search each). Over `MAX_SOURCE_CHARACTERS`, a file is not read either.
 */
export function mayCallRuntime(text: string): boolean {
  return text.length <= MAX_SOURCE_CHARACTERS && text.includes("deepagents") && !looksBinary(text);
}

/**
 * A NUL, or more than a few control characters other than whitespace: not source code (and tree-sitter's error
 * recovery would spend seconds on it).
 */
function looksBinary(text: string): boolean {
  if (text.includes("\u0000")) return true;
  let count = 0;
  const control = /[\u0001-\u0008\u000e-\u001a\u001c-\u001f]/g;
  while (control.exec(text)) if (++count > 16) return true;
  return false;
}

/** Source files larger than this are not parsed: no file that configures an agent is this large. */
export const MAX_SOURCE_CHARACTERS = 4 * 1024 * 1024;

export interface SourceAgent {
  call: AgentCall;
  config: SourceConfig;
  model: ConfigModel;
}

/** Every agent call in the file, read into a model (the language must be loaded). */
export function readAgents(text: string, language: SourceLanguage): SourceAgent[] {
  return readSource(text, language).agents;
}

/**
 * The agent calls of a file, and its comments when it has a suppression comment (`agent-sandbox-ignore`), as spans
 * in file order: the parser tells a comment from a string that looks like one.
 */
function readSource(text: string, language: SourceLanguage): { agents: SourceAgent[]; comments?: Span[] } {
  if (!mayCallRuntime(text)) return { agents: [] };
  const read = withTree(language, text, (tree) => ({
    calls: language === "python" ? pythonCalls(tree, text) : typeScriptCalls(tree, text),
    comments: text.includes(IGNORE_MARKER) ? commentSpans(tree) : undefined,
  }));
  const calls = read?.calls ?? [];
  const dialect = language === "python" ? DEEPAGENTS_PY : DEEPAGENTS_JS;
  const agents = calls.map((call) => {
    const config = toConfig(call.options, call.options.span, dialect);
    for (const spread of call.unknownSpreads) {
      config.dynamic.push({ what: "options", field: "options", expression: spread.kind === "dynamic" || spread.kind === "call" ? spread.expression : "…", span: spread.span });
    }
    const model = buildModel(config.root, runtimeOfLanguage(language));
    if (config.dynamic.length) model.dynamic = config.dynamic;
    return { call, config, model };
  });
  return { agents, ...(read?.comments ? { comments: read.comments } : {}) };
}

function commentSpans(tree: SyntaxTree): Span[] {
  const spans: Span[] = [];
  for (const node of tree.rootNode.descendantsOfType("comment")) if (node) spans.push({ start: node.startIndex, end: node.endIndex });
  return spans.sort((a, b) => a.start - b.start);
}

export interface SourceCheckResult {
  findings: Finding[];
  agents: SourceAgent[];
  lines: LineIndex;
  skipped: Skipped[];
}

/**
 * Every check on every agent call in the file, findings at their source spans, their fixes rendered in the file's
 * own syntax (fixRenderer.ts; a fix it cannot write there is not offered).
 */
export function checkSourceText(text: string, language: SourceLanguage, options: CheckOptions = {}, only?: (agent: SourceAgent) => boolean): SourceCheckResult {
  const lines = new LineIndex(text);
  const { agents: all, comments } = readSource(text, language);
  // `only`: the findings of some calls (a host that names one call as a config); `agents` still lists every call.
  const agents = only ? all.filter(only) : all;
  const findings: Finding[] = [];
  const skipped: Skipped[] = [];
  const renderer = sourceFixRenderer(text, language === "python" ? "python" : "typescript", language === "python" ? DEEPAGENTS_PY : DEEPAGENTS_JS);
  for (const agent of agents) {
    const result = checkBuiltModel(agent.model, text, { ...options, verifyFixes: false }, renderer);
    for (const f of result.findings) {
      if (f.fixes?.length === 0) delete f.fixes;
      findings.push(f);
    }
    skipped.push(...result.skipped);
    const note = dynamicFinding(agent.config.dynamic);
    if (note) findings.push(note);
  }
  // Never the JSONC scanner's comments: it would take a `//` inside a string of this language for one.
  return { findings: finishFindings(findings, text, lines, options.severities, comments ?? []), agents: all, lines, skipped };
}

/** One information finding per call that has dynamic values: what was not read, and why nothing is said of it. */
function dynamicFinding(values: readonly DynamicValue[]): Finding | undefined {
  // Messages are plain text: a template literal's backticks become quotes.
  const dynamic = values.map((d) => ({ ...d, expression: d.expression.replace(/`/g, "'") }));
  const [first, ...others] = dynamic;
  if (!first) return undefined;
  const more = others.length === 0 ? "" : ` and ${others.length} more value${others.length === 1 ? "" : "s"}`;
  let message = `${capitalised(first.what)} ${plural(first.what) ? "come" : "comes"} from ${first.expression}${more}: not analysed.`;
  // An expression with its own sentence ends (`a ? b : c`, a prompt's text) would read as several sentences.
  const plainText = message.replace(/"(?:[^"\\]|\\.)*"/g, "Q");
  if (message.split(/\s+/).length > 19 || /[.!?]\s/.test(plainText.slice(0, -1))) message = `A value of this agent comes from code${more}: not analysed.`;
  const list = dynamic.map((d) => `${d.what}: ${d.expression}`).join("; ");
  return {
    code: sourceDynamic.code,
    severity: sourceDynamic.severity,
    message,
    detail: `Only what the file spells out is read, never run. Not read: ${list}. The checks that would need these values report nothing for this agent.`,
    span: first.span,
    ...(others.length ? { related: others.map((d) => ({ message: `${d.what} come from ${d.expression}`, span: d.span })) } : {}),
  };
}

function plural(what: string): boolean {
  const head = what.split(/ (?:of|in) /)[0]!;
  return /(permissions|skills|subagents|tools|routes|options)$/.test(head);
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
