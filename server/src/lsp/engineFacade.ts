/**
 * The server's door to the engine. Everything a hover, lens, completion or preview shows is an engine answer; this
 * file picks the engine function, hands it file access, and composes answers that several engine functions give
 * together (e.g. which sample files one rule decides = the rule list's own decision function run over the sample
 * workspace). Feature files import engine types and constants directly, and call engine functions that need no
 * composing (`applySafeFixes`, the parser); everything else goes through here. It is deliberately narrow so that
 * the engine can grow under it: when the engine gains a function for something composed here, the composition is
 * replaced by that call.
 */
import { dirname, resolve } from "node:path";
import { weakCache } from "../engine/caches";
import { relativeAccess, isConfigFileName, isDryRunFileName } from "../host/files";
import { scenarioCheckOptions } from "../host/workspace";
import { agentsOf, findAgent, rulesForAgent } from "../engine/agents/agents";
import { effectiveTools, policyOf, userToolsOf, type EffectiveTool } from "../engine/agents/effectiveTools";
import { promptPreview, renderPromptPreview } from "../engine/agents/promptPreview";
import { checkConfigText, mergeFindings, type CheckOptions } from "../engine/checkConfig";
import { checkDryRunText, type DryRunCheckResult } from "../engine/checkDryRun";
import type { ScenarioPhase } from "../engine/checks/scenarioCheck";
import { checkDeerFlowText } from "../engine/deerflow/checkDeerFlow";
import { deerFlowKindOf, type DeerFlowFileKind } from "../engine/deerflow/fileNames";
import type { SkippedAnalysis } from "../engine/analysis";
import { allRuleLists, type ConfigModel, type RuleListSpec, type RuleSpec } from "../engine/config/model";
import type { Finding, Severity } from "../engine/diagnostics";
import { explainDecision, type Explanation } from "../engine/explain";
import { CompiledRuleList } from "../engine/permissions/ruleList";
import { FILESYSTEM_TOOLS, OPERATIONS, RUNTIME_IDS, type Operation, type RuntimeId } from "../engine/runtime";
import { LineIndex } from "../engine/text";
import { checkSourceText, isLanguageLoaded, sourceLanguageOf, type SourceAgent, type SourceLanguage } from "../engine/sources";
import { fixAllInSource } from "../engine/sources/fixAll";
import { runResultsOfChecked, summarizeScenario, withRunResults, type ScenarioRunResults, type ScenarioSummary } from "./scenarioRun";

/**
 * A config or dry-run file, one of DeerFlow's own files checked in place (config.yaml, SKILL.md), or `source`: an
 * open TypeScript, JavaScript or Python document (server/src/engine/sources/), checked where it calls the runtime.
 */
export type FileKind = "config" | "dry-run" | DeerFlowFileKind | "source";

export function fileKindOf(fileName: string): FileKind | undefined {
  const base = fileName.split(/[\\/]/).at(-1) ?? fileName;
  if (isConfigFileName(base)) return "config";
  if (isDryRunFileName(base)) return "dry-run";
  return deerFlowKindOf(base);
}

/** Whether the file is JSONC (completion, formatting, folding and symbols read it with the JSONC scanner). */
export function isJsoncKind(kind: FileKind): boolean {
  return kind === "config" || kind === "dry-run";
}

export interface AnalysisSettings {
  severities: Readonly<Record<string, Severity | "off">>;
  /** Also run the exact rule-order analysis (the CLI's `--analysis`). */
  analysis?: boolean;
  /** The runtime assumed when a config does not name one (`undefined`: the format's default, deepagents-js). */
  defaultRuntime?: RuntimeId;
}

export interface Analysis {
  kind: FileKind;
  text: string;
  /** Positions in the document's own text. */
  lines: LineIndex;
  findings: Finding[];
  model: ConfigModel | undefined;
  /** Absolute paths the check read or looked for (`systemPromptFile`, skills, ...): a change to any re-checks. */
  dependencies: Set<string>;
  durationMs: number;
  /** Set when the runtime came from the `defaultRuntime` setting rather than the file. */
  runtimeFromSetting?: RuntimeId;
  /** For a source file: every `createDeepAgent` / `create_deep_agent` call in it, read (`model` is the first's). */
  agents?: SourceAgent[];
  /** For a source file: the grammar it is read with (its comments are `#` in Python, `//` otherwise). */
  language?: SourceLanguage;
  /** What the exact rule analysis left undecided (budget), for the language status. */
  skipped: readonly SkippedAnalysis[];
  /**
   * The editor's two phases (server.ts): `pending` when these findings are every check's but the exact rule
   * analysis's, which runs in the background (exactPhase.ts); `done` once they are complete. Absent when the
   * analysis was not asked for, or there is nothing for it to analyse (no model).
   */
  exact?: "pending" | "done";
  /**
   * A dry-run scenario's part the worker does while `exact` is `pending`: `checks-and-run` (a large scenario: its
   * static checks, then its run) or `run` (analyzeFirstPhase).
   */
  scenarioPending?: "checks-and-run" | "run";
  /** A dry-run scenario's steps, with their results once it ran (scenarioRun.ts). */
  scenario?: ScenarioSummary;
  /** A dry-run scenario's config as it read it, by absolute path (`null`: it could not be read). */
  readTexts?: Record<string, string | null>;
}

/**
 * File access relative to the config file, exactly as the CLI gives it (so the parity test compares like with
 * like), recording every path asked for so that watchers can invalidate the result.
 */
function recordingAccess(fsPath: string, dependencies: Set<string>, openText?: OpenText, texts?: Record<string, string | null>): Pick<CheckOptions, "fileExists" | "readFile" | "listDirectory"> {
  const base = dirname(fsPath);
  const disk = relativeAccess(fsPath);
  const access: Record<string, unknown> = { ...disk };
  // A file open in the editor is read as the editor has it (a scenario runs against its config's unsaved edits);
  // what was read is kept, so that an edit elsewhere that leaves it as it was re-runs nothing.
  access.readFile = (relativePath: string) => {
    const path = resolve(base, relativePath);
    const text = openText?.(path) ?? disk.readFile(relativePath);
    if (texts) texts[path] = text ?? null;
    return text;
  };
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(access)) {
    if (typeof fn !== "function") continue;
    out[name] = (relativePath: string, ...rest: unknown[]) => {
      dependencies.add(resolve(base, relativePath));
      return (fn as (...a: unknown[]) => unknown)(relativePath, ...rest);
    };
  }
  return out as Pick<CheckOptions, "fileExists" | "readFile" | "listDirectory">;
}

/** The editor's text of a file open in it, by absolute path (`undefined`: not open, read it from disk). */
export type OpenText = (fsPath: string) => string | undefined;

/** The language ids package.json contributes. */
export function fileKindOfLanguage(languageId: string): FileKind | undefined {
  return languageId === "agent-sandbox" ? "config" : languageId === "agent-sandbox-dryrun" ? "dry-run" : undefined;
}

/** Check one file. `fsPath` anchors relative inputs (`systemPromptFile`, skills); an unsaved file has none on disk. */
export function analyze(fsPath: string, text: string, settings: AnalysisSettings, kind: FileKind = fileKindOf(fsPath) ?? "config", analysisOnly = false, openText?: OpenText): Analysis {
  if (kind === "dry-run") return analyzeScenario(fsPath, text, settings, analysisOnly ? "run" : undefined, openText).analysis;
  const started = performance.now();
  const dependencies = new Set<string>();
  if (kind === "deerflow-config" || kind === "skill") {
    // DeerFlow's own files: a config.yaml only when it looks like DeerFlow's (no diagnostic in another program's).
    // Fixes are verified when a quick fix is asked for (codeActions.ts), not at every pause in typing.
    const result = checkDeerFlowText(text, kind, { ...recordingAccess(fsPath, dependencies), severities: settings.severities, verifyFixes: false });
    return { kind, text, lines: result.lines, findings: result.findings, model: result.model, dependencies, durationMs: performance.now() - started, skipped: [] };
  }
  if (kind === "source") {
    // Read only once the host loaded the file's grammar (configStore.ts, when the text names the runtime); the
    // exact analysis runs here too, in one phase: a source file's rule lists are small.
    const language = sourceLanguageOf(fsPath);
    if (!language || !isLanguageLoaded(language)) return { kind, text, lines: new LineIndex(text), findings: [], model: undefined, dependencies, durationMs: performance.now() - started, skipped: [] };
    const result = checkSourceText(text, language, sourceCheckOptions(fsPath, settings, dependencies));
    return { kind, text, lines: result.lines, findings: result.findings, model: result.agents[0]?.model, agents: result.agents, language, dependencies, durationMs: performance.now() - started, skipped: [] };
  }
  const options: CheckOptions = {
    ...recordingAccess(fsPath, dependencies),
    severities: settings.severities,
    ...(settings.defaultRuntime && RUNTIME_IDS.includes(settings.defaultRuntime) ? { defaultRuntime: settings.defaultRuntime } : {}),
    ...(settings.analysis ? { analysis: true } : {}),
    ...(analysisOnly ? { analysisOnly: true } : {}),
  };
  const result = checkConfigText(text, options);
  const analysis: Analysis = { kind, text, lines: result.lines, findings: result.findings, model: result.model, dependencies, durationMs: performance.now() - started, skipped: result.skipped };
  if (options.defaultRuntime && options.defaultRuntime !== "deepagents-js" && result.model && !result.model.runtimeNode) analysis.runtimeFromSetting = options.defaultRuntime;
  return analysis;
}

function sourceCheckOptions(fsPath: string, settings: AnalysisSettings, dependencies = new Set<string>()): CheckOptions {
  return { ...recordingAccess(fsPath, dependencies), severities: settings.severities, ...(settings.analysis ? { analysis: true } : {}) };
}

/**
 * A source file's text with every safe fix applied, each round re-checked (engine/sources/fixAll.ts), checked as
 * `analyze` checks it. The text as it is when the file's grammar is not loaded (it has no findings then).
 */
export function fixAllOfSource(fsPath: string, text: string, settings: AnalysisSettings): string {
  const language = sourceLanguageOf(fsPath);
  if (!language || !isLanguageLoaded(language)) return text;
  return fixAllInSource(text, language, sourceCheckOptions(fsPath, settings)).text;
}

/**
 * The editor's first phase: every check but the exact rule analysis, which `settings` may ask for; then the result
 * says `exact: "pending"` and the server completes it in the background (`completeWith`). Without the analysis,
 * or without a model to analyse, this is `analyze` itself.
 */
export function analyzeFirstPhase(fsPath: string, text: string, settings: AnalysisSettings, kind: FileKind = fileKindOf(fsPath) ?? "config", openText?: OpenText): Analysis {
  if (kind === "dry-run") return scenarioFirstPhase(fsPath, text, settings, openText);
  if (!settings.analysis || kind !== "config") return analyze(fsPath, text, settings, kind);
  const first = analyze(fsPath, text, { ...settings, analysis: false }, kind);
  return first.model ? { ...first, exact: "pending" } : first;
}

/**
 * A scenario whose text and its config's together are at least this long is large: its static checks (the config's
 * own check among them, and one pass over every step) run in the worker thread too, and the thread that answers
 * requests only parses it and checks its shape. A smaller one is checked statically at once (a few milliseconds),
 * so that its findings never wait behind another file's analysis in the worker.
 */
export const SCENARIO_STATIC_OFF_THREAD_CHARS = 64 * 1024;

/**
 * A dry-run scenario in the editor's phases: at once, its static checks (`static`: the config, agent, role, tools,
 * arguments), or for a large one its syntax and shape alone (`shape`); then in the worker thread (a 10,000-step
 * scenario or a large config must not hold up the thread that answers requests) the large one's static checks
 * (`checks`), and the run and the expectations it fails (`run`). Without a phase, all of them (what `check` gives).
 * The scenario's config is a dependency: an edit of it re-checks and re-runs the scenario.
 */
function analyzeScenario(
  fsPath: string,
  text: string,
  settings: AnalysisSettings,
  phase: ScenarioPhase | undefined,
  openText: OpenText | undefined,
  onStaticChecked?: (checked: { findings: Finding[]; runnable: boolean; dependencies: string[]; durationMs: number }) => void,
  summarize = true,
): { analysis: Analysis; result: DryRunCheckResult } {
  const started = performance.now();
  const dependencies = new Set<string>();
  const readTexts: Record<string, string | null> = {};
  const readFile = recordingAccess(fsPath, dependencies, openText, readTexts).readFile;
  const result = checkDryRunText(text, {
    ...scenarioCheckOptions(fsPath, readFile),
    severities: settings.severities,
    ...(phase ? { phase } : {}),
    ...(onStaticChecked ? { onStaticChecked: (findings: Finding[], runnable: boolean) => onStaticChecked({ findings, runnable, dependencies: [...dependencies], durationMs: performance.now() - started }) } : {}),
  });
  if (phase === "shape" && result.scenario?.config !== undefined) {
    // Read, not checked: the config is a dependency from the first phase on, and its text (the editor's, when it is
    // open) goes to the worker with the job.
    readFile?.(result.scenario.config);
  }
  const analysis: Analysis = { kind: "dry-run", text, lines: result.lines, findings: result.findings, model: undefined, dependencies, durationMs: performance.now() - started, skipped: [], readTexts };
  // The steps as the shape part read them are the same in every part; only a run adds results. The worker's part
  // sends its run's results alone (analyzeScenarioPart): it summarizes no step.
  if (summarize && (phase !== "checks" || result.run)) {
    const scenario = summarizeScenario(result, fsPath);
    if (scenario) analysis.scenario = scenario;
  }
  return { analysis, result };
}

/**
 * The editor's first phase of a scenario: its shape and, unless it is large, its static checks; `exact: "pending"`
 * when the worker has more to do (a large scenario's static checks, or the run of one that can run).
 */
function scenarioFirstPhase(fsPath: string, text: string, settings: AnalysisSettings, openText: OpenText | undefined): Analysis {
  const shape = analyzeScenario(fsPath, text, settings, "shape", openText);
  const read = shape.analysis.readTexts ?? {};
  const configChars = Object.values(read).reduce((n, t) => n + (t?.length ?? 0), 0);
  // A file that does not parse (or is refused: too large, too deep) has only its syntax findings: nothing more to do.
  if (!shape.result.scenario) return shape.analysis;
  if (text.length + configChars >= SCENARIO_STATIC_OFF_THREAD_CHARS) return { ...shape.analysis, exact: "pending", scenarioPending: "checks-and-run" };
  const { analysis, result } = analyzeScenario(fsPath, text, settings, "static", openText);
  // Only a scenario that can run has a run to wait for (one that cannot is complete with its static findings).
  return result.runnable ? { ...analysis, exact: "pending", scenarioPending: "run" } : analysis;
}

/**
 * A scenario's part in the worker thread (exactJob.ts): a large one's static checks and run (what the static checks
 * found handed to `onStaticChecked` before it runs), or a small one's run. Its steps are the first phase's (the same
 * text): only the run's results, by step id, go back with the findings.
 */
export function analyzeScenarioPart(
  fsPath: string,
  text: string,
  settings: AnalysisSettings,
  part: NonNullable<Analysis["scenarioPending"]>,
  openText?: OpenText,
  onStaticChecked?: (checked: { findings: Finding[]; runnable: boolean; dependencies: string[]; durationMs: number }) => void,
): { analysis: Analysis; scenarioRun?: ScenarioRunResults } {
  const { analysis, result } = analyzeScenario(fsPath, text, settings, part, openText, onStaticChecked, false);
  const scenarioRun = runResultsOfChecked(result);
  return scenarioRun ? { analysis, scenarioRun } : { analysis };
}

/** What the second phase sends back: the exact analysis's findings of the same text (the rest are the first phase's). */
export interface SecondPhaseResult {
  findings: Finding[];
  skipped: SkippedAnalysis[];
  dependencies: string[];
  durationMs: number;
  /** A dry-run scenario's run: its results, to join the first phase's steps. */
  scenarioRun?: ScenarioRunResults;
  /** A large scenario's static checks, done before it runs: whether it can run (then its run follows). */
  runnable?: boolean;
}

/**
 * The first phase's analysis completed with the second phase's findings. The model, lines and text are the first
 * phase's (the same text, so every span agrees); the findings are exactly what `analyze` with the analysis gives,
 * which is what `check` prints (the parity test holds the two together).
 */
export function completeWith(first: Analysis, result: SecondPhaseResult): Analysis {
  const { scenarioPending: _done, ...rest } = first;
  return {
    ...rest,
    // The second phase ran the analysis alone (exactJob.ts): its findings join the first phase's, in the order the
    // whole check gives them; what the first phase's checks left unfinished stays listed too.
    findings: mergeFindings(first.findings, result.findings),
    skipped: [...first.skipped, ...result.skipped],
    dependencies: new Set([...first.dependencies, ...result.dependencies]),
    durationMs: result.durationMs,
    exact: "done",
    ...(result.scenarioRun && first.scenario ? { scenario: withRunResults(first.scenario, result.scenarioRun) } : {}),
  };
}

/** The second phase could not run (the worker ran out of memory, or crashed): said as the engine says a failed check. */
export function failedSecondPhase(first: Analysis, error: string): Analysis {
  const reason = error.split("\n")[0]!.replace(/^Error: /, "");
  const finding: Finding = {
    code: "internal-error",
    severity: "error",
    message: "The exact rule analysis failed on this file; please report it.",
    detail: `It failed with: ${reason}`,
    span: { start: 0, end: 0 },
  };
  const { scenarioPending: _done, ...rest } = first;
  return { ...rest, findings: [finding, ...first.findings], exact: "done" };
}

/**
 * The call of a source file meant by a line (0-based): the one that holds it, else the last one that starts before
 * it, else the first (protocol.ts `line`). Without a line, the first call.
 */
export function sourceAgentAt(analysis: Analysis, line: number | undefined): SourceAgent | undefined {
  const agents = analysis.agents ?? [];
  if (line === undefined || !Number.isFinite(line)) return agents[0];
  const lineOf = (offset: number) => analysis.lines.positionAt(offset).line;
  const holding = agents.find((a) => lineOf(a.call.span.start) <= line && line <= lineOf(a.call.span.end));
  if (holding) return holding;
  return agents.filter((a) => lineOf(a.call.span.start) <= line).at(-1) ?? agents[0];
}

// ---------------------------------------------------------------------------------------------------------------
// Agents, roles, effective tools, prompt preview, explain
// ---------------------------------------------------------------------------------------------------------------

export function agentNames(model: ConfigModel): string[] {
  return agentsOf(model).map((a) => a.name);
}

export function roleNames(model: ConfigModel): string[] {
  return policyOf(model)?.roles ?? [];
}

/** The rules of an agent that cover an operation (first match wins among them), and why that list applies. */
export function rulesCovering(model: ConfigModel, agent: string, operation: Operation): { rules: RuleSpec[]; why: string } | undefined {
  const ref = findAgent(model, agent);
  if (!ref) return undefined;
  const governing = rulesForAgent(model, ref);
  return { rules: (governing.list?.rules ?? []).filter((r) => model.runtime.operationsCover(r.input.operations, operation)), why: governing.why };
}

/** The model of the config a dry-run scenario names (relative to the scenario), for its completions. */
export function scenarioConfigModel(scenarioPath: string, configPath: string): ConfigModel | undefined {
  const text = relativeAccess(scenarioPath).readFile(configPath);
  return text === undefined ? undefined : analyze(resolve(dirname(scenarioPath), configPath), text, { severities: {} }, "config").model;
}

export interface ToolTable {
  agent: string;
  role: string | null;
  tools: EffectiveTool[];
}

/** Effective tools of one agent (or all), with no role and then one table per role when there is authorization. */
export function effectiveToolTables(model: ConfigModel, agent?: string, role?: string | null): ToolTable[] {
  const agents = agent === undefined ? agentNames(model) : [agent];
  const roles: (string | null)[] = role === undefined ? [null, ...roleNames(model)] : [role];
  const tables: ToolTable[] = [];
  for (const a of agents) {
    for (const r of roles) {
      const tools = effectiveTools(model, a, r);
      if (tools) tables.push({ agent: a, role: r, tools });
    }
  }
  return tables;
}

/**
 * One agent's effective tools as markdown: the visible ones first, in a table, then the hidden ones grouped by
 * why they are hidden. A refused middleware hides all eight filesystem tools for one reason: said once, under
 * the tools it hides, rather than once per tool above the few tools the agent does have.
 */
export function renderToolTable(table: ToolTable, options: { heading?: boolean } = {}): string {
  const out: string[] = [];
  const visible = table.tools.filter((t) => t.visible);
  if (options.heading !== false) out.push(`**${table.agent}**${table.role === null ? "" : ` as role \`${table.role}\``}: ${visible.length} of ${table.tools.length} tools visible`, "");
  if (visible.length > 0) {
    out.push("| visible tool | kind |", "| --- | --- |");
    for (const t of visible) out.push(`| \`${t.name}\` | ${t.kind} |`);
  } else out.push("No tool is visible.");
  const hidden = hiddenByReason(table.tools);
  if (hidden.length > 0) {
    out.push("", "Hidden:", "");
    for (const group of hidden) out.push(`- ${group.tools.map((t) => `\`${t}\``).join(", ")} (${group.hiddenBy}): ${escapeMarkdown(group.reason)}`);
  }
  return out.join("\n");
}

/** The hidden tools grouped by step and reason, each group where its first tool comes in the table. */
export function hiddenByReason(tools: readonly EffectiveTool[]): { hiddenBy: string; reason: string; tools: string[] }[] {
  const groups = new Map<string, { hiddenBy: string; reason: string; tools: string[] }>();
  for (const t of tools) {
    if (t.visible) continue;
    const hiddenBy = t.hiddenBy ?? "configuration";
    const reason = t.reason ?? "";
    const key = JSON.stringify([hiddenBy, reason]);
    const group = groups.get(key);
    if (group) group.tools.push(t.name);
    else groups.set(key, { hiddenBy, reason, tools: [t.name] });
  }
  return [...groups.values()];
}

export function renderToolTables(tables: readonly ToolTable[]): string {
  return tables.map((t) => renderToolTable(t)).join("\n\n");
}

/** A reason as literal text in a markdown list item: it holds the runtime's own words, which may hold anything. */
function escapeMarkdown(text: string): string {
  return text.replace(/\r?\n/g, " ").replace(/[\\`*_[\]<>|#]/g, (c) => `\\${c}`);
}

export function promptPreviewMarkdown(model: ConfigModel, fsPath: string, agent: string, role: string | null): string | undefined {
  const access = relativeAccess(fsPath);
  const preview = promptPreview(model, agent, role, access.readFile, { listDirectory: access.listDirectory });
  return preview ? renderPromptPreview(preview) : undefined;
}

export function explain(model: ConfigModel, agent: string, operation: Operation, path: string): { ok: true; explanation: Explanation; rule?: RuleSpec; patternIndex?: number } | { ok: false; error: string } {
  const answer = explainDecision(model, agent, operation, path);
  if (!answer.ok) return answer;
  const ref = findAgent(model, agent)!;
  const e = answer.explanation;
  const rule = e.rule ? rulesForAgent(model, ref).list?.rules[e.rule.index] : undefined;
  const patternIndex = rule && Array.isArray(rule.input.paths) ? rule.input.paths.indexOf(e.rule!.pattern) : -1;
  return { ok: true, explanation: e, ...(rule ? { rule } : {}), ...(patternIndex >= 0 ? { patternIndex } : {}) };
}

// ---------------------------------------------------------------------------------------------------------------
// Rules, patterns and the sample workspace
// ---------------------------------------------------------------------------------------------------------------

/** The rule list and rule whose object contains an offset. */
export function ruleAt(model: ConfigModel, offset: number): { list: RuleListSpec; rule: RuleSpec } | undefined {
  for (const list of allRuleLists(model)) {
    if (offset < list.node.offset || offset > list.node.offset + list.node.length) continue;
    for (const rule of list.rules) if (offset >= rule.node.offset && offset <= rule.node.offset + rule.node.length) return { list, rule };
  }
  return undefined;
}

/** The agents whose filesystem tools a rule list governs. */
export function agentsGovernedBy(model: ConfigModel, list: RuleListSpec): string[] {
  return agentsOf(model).filter((a) => rulesForAgent(model, a).list === list).map((a) => a.name);
}

/**
 * The sample workspace as virtual tool paths (`workspace.mountAt` + the file's path under `workspace.root`),
 * which is how the dry run sees it (config-format.md "Dry-run scenarios").
 */
export interface SampleWorkspace {
  mountAt: string;
  files: string[];
  folders: string[];
  truncated: boolean;
}

export function toVirtualPath(mountAt: string, relative: string): string {
  const mount = mountAt.endsWith("/") ? mountAt.slice(0, -1) : mountAt;
  return `${mount}/${relative}`;
}

/** The operations a rule's `operations` covers, as the runtime reads it (a string is a substring test, docs/reference/paths.md V19). */
export function operationsOf(model: ConfigModel, rule: RuleSpec): Operation[] {
  return OPERATIONS.filter((op) => model.runtime.operationsCover(rule.input.operations, op));
}

export interface RuleSampleDecisions {
  operation: Operation;
  /** Sample files this rule decides (it is the first match) for that operation. */
  decided: string[];
}

/**
 * Rule lists compiled for hovers, per list of a model (a model is never changed: a new text is a new model).
 * Compiling a 1,000-rule list costs tens of milliseconds; hovering over its rules one after another should not.
 */
const compiledForHovers = weakCache<RuleListSpec, CompiledRuleList>("lsp/engineFacade.compiledForHovers");

/** Which sample files a rule decides: the rule's own list, compiled by the engine, run over every sample file. */
export function sampleFilesDecidedBy(model: ConfigModel, list: RuleListSpec, rule: RuleSpec, sample: SampleWorkspace): RuleSampleDecisions[] {
  let compiled = compiledForHovers.get(list);
  if (!compiled) {
    compiled = new CompiledRuleList(model.runtime, list.rules.map((r) => r.input));
    compiledForHovers.set(list, compiled);
  }
  const out: RuleSampleDecisions[] = [];
  for (const operation of operationsOf(model, rule)) {
    const decided: string[] = [];
    for (const file of sample.files) {
      const canonical = model.runtime.canonicalToolPath(file, true);
      if (canonical.ok && compiled.decide(operation, canonical.path).ruleIndex === rule.index) decided.push(file);
    }
    out.push({ operation, decided });
  }
  return out;
}

export interface PatternFacts {
  /** Set when the runtime's matcher cannot use the pattern at all. */
  unusable?: string;
  /** Literal text every matching path starts with. */
  literalPrefix: string;
  /** The pattern has no glob syntax left after its literal prefix: it names one path. */
  exact: boolean;
  matchedFiles: string[];
  matchedFolders: string[];
}

export function patternFacts(model: ConfigModel, pattern: string, sample: SampleWorkspace | undefined): PatternFacts {
  const compiled = model.runtime.compilePattern(pattern);
  const facts: PatternFacts = { literalPrefix: compiled.literalPrefix, exact: compiled.literalPrefix === pattern, matchedFiles: [], matchedFolders: [] };
  if (compiled.unusable) {
    facts.unusable = compiled.unusable;
    return facts;
  }
  if (sample) {
    const matches = (p: string) => {
      const canonical = model.runtime.canonicalToolPath(p, true);
      return canonical.ok && compiled.matches(canonical.path);
    };
    facts.matchedFiles = sample.files.filter(matches);
    facts.matchedFolders = sample.folders.filter(matches);
  }
  return facts;
}

// ---------------------------------------------------------------------------------------------------------------
// Tools
// ---------------------------------------------------------------------------------------------------------------

/** The eight built-in filesystem tools (the runtimes' registration order). */
export const BUILTIN_TOOLS: readonly string[] = FILESYSTEM_TOOLS;

/** User tool names the file declares (top level and subagents), in file order, without duplicates. */
export function declaredUserTools(model: ConfigModel): string[] {
  const names = new Set<string>();
  for (const a of agentsOf(model)) for (const t of userToolsOf(model, a)) if (t.value) names.add(t.value);
  return [...names];
}

/** The description the prompt preview gives a tool for an agent (the engine's own words), if the tool is visible. */
export function toolDescription(model: ConfigModel, fsPath: string, agent: string, tool: string): string | undefined {
  const access = relativeAccess(fsPath);
  return promptPreview(model, agent, null, access.readFile, { listDirectory: access.listDirectory })?.tools.find((t) => t.name === tool)?.description;
}
