/** The custom requests of ../protocol.ts: agents and roles for pickers, effective tools, prompt preview, explain, capability map. */
import { dirname, resolve } from "node:path";
import { hostWorkspace } from "../host/workspace";
import { capabilityMap, MAX_MAP_ENTRIES } from "../engine/dryrun/capabilityMap";
import type { WorkspaceSource } from "../engine/workspace/source";
import type { CapabilityMapParams, CapabilityMapResult } from "../protocol";
import { URI } from "./uri";
import type { AgentsResult, EffectiveToolRow, EffectiveToolsParams, EffectiveToolsResult, ExplainParams, ExplainResult, PromptPreviewParams, PromptPreviewResult } from "../protocol";
import { unknownNameMessage } from "../engine/names";
import { toolOperation } from "../engine/runtime/runtime";
import type { EffectiveTool } from "../engine/agents/effectiveTools";
import type { ConfigModel } from "../engine/config/model";
import { agentNames, effectiveToolTables, explain, promptPreviewMarkdown, renderToolTables, roleNames, sourceAgentAt, type Analysis } from "./engineFacade";

/** A sample workspace for a source file's call: `root` relative to the source file, as a config's is to the config. */
export interface SourceSampleWorkspace {
  root: string;
  mountAt: string;
}

const NOT_A_CONFIG = "This file is not an Agent Sandbox configuration (agent-sandbox.jsonc), nor a source file that calls createDeepAgent or create_deep_agent.";
const NO_MODEL = "The configuration does not parse yet: fix the syntax errors first.";
const NO_CALL = "This file has no createDeepAgent or create_deep_agent call imported from deepagents (or it does not parse yet).";

type Unavailable = { available: false; reason: string };

/**
 * The model a request is about: a config file's, or the one a source file's call builds (`line` picks the call
 * when the file has several), with the same answers either way: the checks and previews do not know which front
 * end built it.
 */
function modelFor(analysis: Analysis | undefined, line?: number): { model: ConfigModel } | Unavailable {
  if (analysis?.kind === "source") {
    const agent = sourceAgentAt(analysis, line);
    return agent ? { model: agent.model } : { available: false, reason: NO_CALL };
  }
  if (!analysis || analysis.kind !== "config") return { available: false, reason: NOT_A_CONFIG };
  if (!analysis.model) return { available: false, reason: NO_MODEL };
  return { model: analysis.model };
}

export function agentsOfConfig(analysis: Analysis | undefined, line?: number): AgentsResult {
  const got = modelFor(analysis, line);
  if (!("model" in got)) return { ...got, agents: [], roles: [] };
  const model = got.model;
  const result: AgentsResult = { available: true, agents: agentNames(model), roles: roleNames(model) };
  if (model.workspace) result.mountAt = model.workspace.mountAt;
  return result;
}

export function effectiveToolsOfConfig(analysis: Analysis | undefined, params: EffectiveToolsParams): EffectiveToolsResult {
  const got = modelFor(analysis, params.line);
  if (!("model" in got)) return { ...got, tables: [], markdown: `_${got.reason}_\n` };
  const model = got.model;
  if (params.agent !== undefined && !agentNames(model).includes(params.agent)) {
    const reason = unknownNameMessage("agent", "Agents", params.agent, agentNames(model));
    return { available: false, reason, tables: [], markdown: `_${reason}_\n` };
  }
  const tables = effectiveToolTables(model, params.agent, params.role);
  const heading = `# Effective tools${params.agent ? ` of \`${params.agent}\`` : ""}\n\nRuntime: ${model.runtime.label}\n\n`;
  return { available: true, tables: tables.map((t) => ({ agent: t.agent, role: t.role, tools: t.tools.map((x) => toolRow(x)) })), markdown: `${heading}${renderToolTables(tables)}\n` };
}

/** A tool as the client gets it: with the operation path rules decide it as (Explain Decision says which tools each operation has). */
function toolRow(tool: EffectiveTool): EffectiveToolRow {
  const operation = tool.kind === "filesystem" ? toolOperation(tool.name) : undefined;
  return { ...tool, ...(operation ? { operation } : {}) };
}

export function promptPreviewOfConfig(analysis: Analysis | undefined, fsPath: string, params: PromptPreviewParams): PromptPreviewResult {
  const got = modelFor(analysis, params.line);
  if (!("model" in got)) return { ...got, markdown: `_${got.reason}_\n` };
  const model = got.model;
  if (params.role !== null && !roleNames(model).includes(params.role)) {
    const reason = roleNames(model).length ? unknownNameMessage("role", "Roles", params.role, roleNames(model)) : `No role named "${params.role}": the configuration has no authorization roles.`;
    return { available: false, reason, markdown: `_${reason}_\n` };
  }
  const markdown = promptPreviewMarkdown(model, fsPath, params.agent, params.role);
  if (markdown === undefined) {
    const reason = unknownNameMessage("agent", "Agents", params.agent, agentNames(model));
    return { available: false, reason, markdown: `_${reason}_\n` };
  }
  return { available: true, markdown };
}

export function explainInConfig(analysis: Analysis | undefined, uri: string, params: ExplainParams): ExplainResult {
  const got = modelFor(analysis, params.line);
  if (!("model" in got)) return got;
  const a = analysis!;
  // A source file's rules have their spans in the source: the deciding rule is found there.
  const answer = explain(got.model, params.agent, params.operation, params.path);
  if (!answer.ok) return { available: false, reason: answer.error };
  const e = answer.explanation;
  const result: ExplainResult = { available: true, decision: e.decision, summary: e.summary, explanation: e };
  if (e.rule && answer.rule) {
    const node = answer.rule.node;
    result.rule = { ...e.rule, location: { uri, range: a.lines.rangeOf({ start: node.offset, end: node.offset + node.length }) } };
    const patternNode = answer.patternIndex !== undefined ? answer.rule.pathNodes[answer.patternIndex] : undefined;
    if (patternNode) result.rule.patternRange = a.lines.rangeOf({ start: patternNode.offset, end: patternNode.offset + patternNode.length });
  }
  return result;
}

/** Entries the editor's map lists by default: a sample workspace fits, and the Explorer stays quick. */
export const EDITOR_MAP_ENTRIES = 10_000;

/**
 * The capability map for the editor (Explorer decorations, the Capability Map view): the engine's map of the
 * sample workspace, bounded, with the agent's tools per operation for the role. `workspaceAt` opens the sample
 * folder (the real one through hostWorkspace, which never leaves it).
 */
export function capabilityMapOfConfig(
  analysis: Analysis | undefined,
  fsPath: string | undefined,
  params: CapabilityMapParams,
  workspaceAt: (root: string) => WorkspaceSource | undefined = hostWorkspace,
  /** For a source file's call: the sample workspace a dry-run scenario that names the call gives it. */
  sourceWorkspace?: SourceSampleWorkspace,
): CapabilityMapResult {
  const agent = params.agent ?? "main";
  const role = params.role ?? null;
  const empty = { agent, role, agents: [] as string[], roles: [] as string[], mountAt: "/workspace", tools: { read: [], write: [] }, entries: [] };
  const got = modelFor(analysis, params.line);
  if (!("model" in got)) return { ...empty, ...got };
  const isSource = analysis?.kind === "source";
  // A call's model has no workspace: the scenario's mount point is put in its place (the dry run does the same).
  const model: ConfigModel = isSource && sourceWorkspace ? { ...got.model, workspace: { mountAt: sourceWorkspace.mountAt } } : got.model;
  const named = { ...empty, agents: agentNames(model), roles: roleNames(model), mountAt: model.workspace?.mountAt ?? "/workspace" };
  const root = isSource ? sourceWorkspace?.root : model.workspace?.root?.value;
  if (!fsPath || root === undefined) {
    const reason = isSource
      ? "A createDeepAgent call has no sample workspace: a dry-run scenario that names this call as its config, with a workspace, gives it one."
      : "The configuration names no sample workspace: add a workspace with a root to see the map.";
    return { ...named, available: false, reason };
  }
  if (!named.agents.includes(agent)) return { ...named, available: false, reason: unknownNameMessage("agent", "Agents", agent, named.agents) };
  if (role !== null && !named.roles.includes(role)) {
    const reason = named.roles.length ? unknownNameMessage("role", "Roles", role, named.roles) : `No role named "${role}": the configuration has no authorization roles.`;
    return { ...named, available: false, reason };
  }
  const rootPath = resolve(dirname(fsPath), root);
  const workspace = workspaceAt(rootPath);
  if (!workspace) return { ...named, available: false, reason: `The sample workspace ${root} is no readable folder.` };
  const asked = typeof params.maxEntries === "number" && Number.isFinite(params.maxEntries) ? Math.floor(params.maxEntries) : EDITOR_MAP_ENTRIES;
  const limit = Math.max(1, Math.min(asked, MAX_MAP_ENTRIES));
  const map = capabilityMap(model, agent, role, workspace, limit)!;
  const tools = { read: [] as string[], write: [] as string[] };
  for (const tool of effectiveToolTables(model, agent, role)[0]?.tools ?? []) {
    const operation = tool.visible && tool.kind === "filesystem" ? toolOperation(tool.name) : undefined;
    if (operation) tools[operation].push(tool.name);
  }
  return { ...named, available: true, rootUri: URI.fromFsPath(rootPath), tools, entries: map.entries, ...(map.truncated ? { truncated: true } : {}) };
}
