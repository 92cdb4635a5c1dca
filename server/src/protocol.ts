/**
 * The custom requests and notifications between the VS Code client and the language server, declared once and
 * imported by both sides (vscode-eslint's shared-protocol pattern). Only types and method names live here: no
 * editor API, no engine code, so either bundle can import it.
 */
import { NotificationType, RequestType } from "vscode-languageserver-protocol";
import type { Location, Range } from "vscode-languageserver-protocol";

export { Commands } from "./commands";

/** Arguments the server puts in a code lens or hover link; every command also works without them (pickers). */
export interface AgentCommandArgs {
  /** A config file, or a source file that calls the runtime. */
  uri: string;
  agent?: string;
  role?: string | null;
  /**
   * For a source file (TypeScript, JavaScript, Python): a 0-based line of the `createDeepAgent` / `create_deep_agent`
   * call meant, when the file has several; the call that holds the line, else the last one before it, else the
   * first. Omitted: the file's first call. A config file ignores it.
   */
  line?: number;
}

export interface AgentsParams {
  uri: string;
  /**
   * For a source file (TypeScript, JavaScript, Python): a 0-based line of the `createDeepAgent` / `create_deep_agent`
   * call meant, when the file has several; the call that holds the line, else the last one before it, else the
   * first. Omitted: the file's first call. A config file ignores it.
   */
  line?: number;
}
/** The agents and roles of a config, for pickers. `available: false` when the file is not a readable config. */
export interface AgentsResult {
  available: boolean;
  reason?: string;
  agents: string[];
  /** Role names when the config has authorization (in file order), else empty. */
  roles: string[];
  /** `workspace.mountAt`, to prefill path inputs. */
  mountAt?: string;
}
export const AgentsRequest = new RequestType<AgentsParams, AgentsResult, void>("agentSandbox/agents");

export interface EffectiveToolsParams {
  uri: string;
  /**
   * For a source file (TypeScript, JavaScript, Python): a 0-based line of the `createDeepAgent` / `create_deep_agent`
   * call meant, when the file has several; the call that holds the line, else the last one before it, else the
   * first. Omitted: the file's first call. A config file ignores it.
   */
  line?: number;

  /** Omitted: every agent. */
  agent?: string;
  /** Omitted: no role, plus one entry per role when the config has authorization. `null`: no role only. */
  role?: string | null;
}
export interface EffectiveToolRow {
  name: string;
  visible: boolean;
  kind: string;
  hiddenBy?: string;
  reason?: string;
  /** A filesystem tool's path-rule operation (`execute` and user tools have none). */
  operation?: "read" | "write";
}
export interface EffectiveToolsResult {
  available: boolean;
  reason?: string;
  tables: { agent: string; role: string | null; tools: EffectiveToolRow[] }[];
  /** The same as markdown, for a read-only preview document. */
  markdown: string;
}
export const EffectiveToolsRequest = new RequestType<EffectiveToolsParams, EffectiveToolsResult, void>("agentSandbox/effectiveTools");

export interface PromptPreviewParams {
  uri: string;
  /**
   * For a source file (TypeScript, JavaScript, Python): a 0-based line of the `createDeepAgent` / `create_deep_agent`
   * call meant, when the file has several; the call that holds the line, else the last one before it, else the
   * first. Omitted: the file's first call. A config file ignores it.
   */
  line?: number;

  agent: string;
  role: string | null;
}
export interface PromptPreviewResult {
  available: boolean;
  reason?: string;
  markdown: string;
}
export const PromptPreviewRequest = new RequestType<PromptPreviewParams, PromptPreviewResult, void>("agentSandbox/promptPreview");

export interface ExplainParams {
  uri: string;
  /**
   * For a source file (TypeScript, JavaScript, Python): a 0-based line of the `createDeepAgent` / `create_deep_agent`
   * call meant, when the file has several; the call that holds the line, else the last one before it, else the
   * first. Omitted: the file's first call. A config file ignores it.
   */
  line?: number;

  agent: string;
  operation: "read" | "write";
  path: string;
}
export interface ExplainResult {
  available: boolean;
  reason?: string;
  decision?: "allow" | "deny" | "interrupt" | "error";
  summary?: string;
  /** The deciding rule's place in the file, to jump to (absent when the default decided or the path was rejected). */
  rule?: { index: number; pattern: string; mode: string; location: Location; patternRange?: Range };
  /** The engine's answer as the CLI's `explain --format json` prints it. */
  explanation?: unknown;
}
export const ExplainRequest = new RequestType<ExplainParams, ExplainResult, void>("agentSandbox/explain");

/** Sent after every check of an open document: the language status item and open previews follow it. */
export interface DidCheckParams {
  uri: string;
  version: number;
  /** "deepagents-js 1.14.1"; absent for dry-run files and files that do not parse. */
  runtime?: string;
  kind: "config" | "dry-run" | "deerflow-config" | "skill" | "source";
  durationMs: number;
  counts: { errors: number; warnings: number; information: number; hints: number };
  /** What the exact rule analysis did not decide within its budget (its checks stay silent there), said once. */
  skipped?: { what: string; why: string; checks: readonly string[] }[];
  /**
   * With the exact rule analysis on (`agentSandbox.ruleAnalysis`), diagnostics come in two phases: `pending` while
   * only the other checks' findings are in (the analysis runs in the background), `done` once its findings are in
   * too (pull clients are then asked to pull again). Absent when the analysis is off. A dry-run scenario has the
   * same two phases: its run is the second (absent when it cannot run).
   */
  analysis?: "pending" | "done";
}
export const DidCheckNotification = new NotificationType<DidCheckParams>("agentSandbox/didCheck");

export interface CapabilityMapParams {
  /**
   * The config file, or a source file that calls the runtime: its sample workspace is then the `workspace` of a
   * dry-run scenario that names the call as its `config` (a call has no sample workspace of its own).
   */
  uri: string;
  /**
   * For a source file (TypeScript, JavaScript, Python): a 0-based line of the `createDeepAgent` / `create_deep_agent`
   * call meant, when the file has several; the call that holds the line, else the last one before it, else the
   * first. Omitted: the file's first call. A config file ignores it.
   */
  line?: number;

  /** Default `main`. */
  agent?: string;
  /** Default: no role. */
  role?: string | null;
  /** Entries listed at most (the server caps it too); the answer says `truncated` when the workspace had more. */
  maxEntries?: number;
}
/** One sample file or folder: the engine's map entry (the CLI's `map --format json`, plus the deciding patterns). */
export interface CapabilityMapEntry {
  /** The virtual path, under `mountAt`. */
  path: string;
  kind: "file" | "dir";
  read: "allow" | "deny" | "interrupt" | "error";
  write: "allow" | "deny" | "interrupt" | "error";
  readRule: number | null;
  writeRule: number | null;
  readPattern?: string;
  writePattern?: string;
}
/**
 * The capability map of a config's sample workspace for one agent and role. `available: false` (with the reason)
 * when the file is no readable config, names no sample workspace, or the agent or role does not exist.
 */
export interface CapabilityMapResult {
  available: boolean;
  reason?: string;
  agent: string;
  role: string | null;
  /** Every agent and role of the config, for the pickers (also when the chosen one does not exist). */
  agents: string[];
  roles: string[];
  /** `workspace.mountAt`: entries' paths start with it. */
  mountAt: string;
  /** `workspace.root` on disk, as a file URI: an entry's file is this folder plus the path after `mountAt`. */
  rootUri?: string;
  /** The agent's visible tools that path rules decide as each operation, for this role (none: it cannot, whatever the rules say). */
  tools: { read: string[]; write: string[] };
  entries: CapabilityMapEntry[];
  truncated?: boolean;
}
export const CapabilityMapRequest = new RequestType<CapabilityMapParams, CapabilityMapResult, void>("agentSandbox/capabilityMap");
/** A scenario file (`*.dryrun.jsonc`) to run, for Test Explorer and the Dry run lens of a source file's call. */
export interface ScenarioRunParams {
  uri: string;
}
/** One step of a scenario, with its result when the run reached it; a `task` step holds its subagent's steps. */
export interface ScenarioStepRun {
  /** The step's place in the file, stable while steps are only edited: `"3"`, `"10/1"` (the second step of step 10's task). */
  id: string;
  /** `read_file /workspace/.env` */
  label: string;
  tool: string;
  /** The step's object in the file ("Go to test"), and its `expect` when it has one. */
  range: Range;
  expectRange?: Range;
  /** Absent when the run did not reach the step (the scenario cannot run, or its task did not). */
  result?: {
    /** 1-based, in the order the steps ran. */
    index: number;
    agent: string;
    outcome: string;
    /** The outcome with its reason: `permission-denied by rule 0 (deny /workspace/.env)`. */
    outcomeText: string;
    output: string;
    expected?: string;
    /** Present when the step has an expectation. */
    passed?: boolean;
    /** Why the expectation failed, in words. */
    failure?: string;
  };
  steps?: ScenarioStepRun[];
}
export interface ScenarioRunResult {
  /** `false`: the file is not a readable scenario (`reason` says why). */
  available: boolean;
  reason?: string;
  /** Whether the scenario ran; when it could not, `reason` says why (its config is missing, its agent unknown, ...). */
  ran: boolean;
  /** Every expectation met (false when it could not run). */
  passed: boolean;
  agent?: string;
  role?: string | null;
  runtime?: string;
  /** The config the scenario names, when it names one: a change to it re-runs the scenario. */
  configUri?: string;
  steps: ScenarioStepRun[];
  /** The run step by step, as `agent-sandbox dry-run` prints it, each step's output in full. */
  transcript: string;
}
/** Runs a scenario as it is now (the open document's text, else the file on disk), against its config as it is now. */
export const ScenarioRunRequest = new RequestType<ScenarioRunParams, ScenarioRunResult, void>("agentSandbox/runScenario");
