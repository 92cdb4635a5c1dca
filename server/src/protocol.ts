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
  uri: string;
  agent?: string;
  role?: string | null;
}

export interface AgentsParams {
  uri: string;
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
  kind: "config" | "dry-run" | "source";
  durationMs: number;
  counts: { errors: number; warnings: number; information: number; hints: number };
  /** What the exact rule analysis did not decide within its budget (its checks stay silent there), said once. */
  skipped?: { what: string; why: string; checks: readonly string[] }[];
  /**
   * With the exact rule analysis on (`agentSandbox.ruleAnalysis`), diagnostics come in two phases: `pending` while
   * only the other checks' findings are in (the analysis runs in the background), `done` once its findings are in
   * too (pull clients are then asked to pull again). Absent when the analysis is off, and for dry-run files.
   */
  analysis?: "pending" | "done";
}
export const DidCheckNotification = new NotificationType<DidCheckParams>("agentSandbox/didCheck");
