/**
 * The dry-run scenarios that name a source file's call as their `config` (`"config": "./src/agent.ts"` for a file
 * with one call, or `"./src/agent.ts:42"` for the call on line 42): the call's "Dry run" lenses, and the sample workspace
 * its capability map shows (a call has none of its own; the scenario's `workspace` key gives one).
 */
import { basename, dirname, resolve } from "node:path";
import { parseJsonc } from "../engine/config/parse";
import { scenarioOf } from "../engine/dryrun/scenario";
import { sourceLanguageOf } from "../engine/sources";
import type { SourceSampleWorkspace } from "./customRequests";
import type { SourceAgent } from "../engine/sources";
import type { Analysis } from "./engineFacade";
import { registeredMap } from "../engine/caches";

/** What one scenario file names. */
export interface ScenarioOfSource {
  /** The scenario file. */
  uri: string;
  /** Its file name, for the lens. */
  name: string;
  /** The source file it names, absolute. */
  source: string;
  /** The 1-based line its `config` names (`:42`: the call that covers it); absent: the file's only call. */
  line?: number;
  /** Its `workspace`, when it has one with a root (relative to the source file, as a config's is to the config). */
  workspace?: SourceSampleWorkspace;
}

const parsed = registeredMap("lsp/sourceScenarios.parsed", "one per scenario file of the workspace, forgotten when the file goes", new Map<string, { text: string; names: ScenarioOfSource | undefined }>());

/** What a scenario file names, when its `config` is a source file (parsed once per text). */
export function scenarioOfSource(uri: string, scenarioPath: string, text: string): ScenarioOfSource | undefined {
  const cached = parsed.get(uri);
  if (cached?.text === text) return cached.names;
  const names = read(uri, scenarioPath, text);
  parsed.set(uri, { text, names });
  return names;
}

/** Forget a scenario file that is gone. */
export function forgetScenario(uri: string): void {
  parsed.delete(uri);
}

function read(uri: string, scenarioPath: string, text: string): ScenarioOfSource | undefined {
  const root = parseJsonc(text).root;
  if (!root) return undefined;
  const scenario = scenarioOf(root);
  const match = scenario.config === undefined ? null : /^(.*?)(?::(\d+))?$/.exec(scenario.config);
  if (!match || !sourceLanguageOf(match[1]!)) return undefined;
  const source = resolve(dirname(scenarioPath), match[1]!);
  const names: ScenarioOfSource = { uri, name: basename(scenarioPath), source };
  if (match[2] !== undefined) names.line = Number(match[2]);
  const ws = scenario.workspace;
  if (ws?.root !== undefined) names.workspace = { root: ws.root, mountAt: ws.mountAt ?? "/workspace" };
  return names;
}

/**
 * Whether a scenario names `agent`, a call of the source file `analysis`: with a line, the innermost call that
 * covers it (a subagent built by its own call inside the options starts last); without one, the file's only call
 * (a file with several calls needs the line). As the scenario checks pick the call they run.
 */
export function namesCall(scenario: ScenarioOfSource, analysis: Analysis, agent: SourceAgent): boolean {
  const agents = analysis.agents ?? [];
  if (scenario.line === undefined) return agents.length === 1 && agents[0] === agent;
  const line = scenario.line - 1;
  const lineOf = (offset: number) => analysis.lines.positionAt(offset).line;
  const covering = agents.filter((a) => lineOf(a.call.span.start) <= line && line <= lineOf(a.call.span.end));
  return covering.sort((a, b) => b.call.span.start - a.call.span.start)[0] === agent;
}
