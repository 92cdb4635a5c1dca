/** The custom requests of ../protocol.ts: agents and roles for pickers, effective tools, prompt preview, explain. */
import type { AgentsResult, EffectiveToolRow, EffectiveToolsParams, EffectiveToolsResult, ExplainParams, ExplainResult, PromptPreviewParams, PromptPreviewResult } from "../protocol";
import { unknownNameMessage } from "../engine/names";
import { toolOperation } from "../engine/runtime/runtime";
import type { EffectiveTool } from "../engine/agents/effectiveTools";
import { agentNames, effectiveToolTables, explain, promptPreviewMarkdown, renderToolTables, roleNames, type Analysis } from "./engineFacade";

const NOT_A_CONFIG = "This file is not an Agent Sandbox configuration (agent-sandbox.jsonc).";
const NO_MODEL = "The configuration does not parse yet: fix the syntax errors first.";

type Unavailable = { available: false; reason: string };
function unavailable(analysis: Analysis | undefined): Unavailable | undefined {
  if (!analysis || analysis.kind !== "config") return { available: false, reason: NOT_A_CONFIG };
  if (!analysis.model) return { available: false, reason: NO_MODEL };
  return undefined;
}

export function agentsOfConfig(analysis: Analysis | undefined): AgentsResult {
  const no = unavailable(analysis);
  if (no) return { ...no, agents: [], roles: [] };
  const model = analysis!.model!;
  const result: AgentsResult = { available: true, agents: agentNames(model), roles: roleNames(model) };
  if (model.workspace) result.mountAt = model.workspace.mountAt;
  return result;
}

export function effectiveToolsOfConfig(analysis: Analysis | undefined, params: EffectiveToolsParams): EffectiveToolsResult {
  const no = unavailable(analysis);
  if (no) return { ...no, tables: [], markdown: `_${no.reason}_\n` };
  const model = analysis!.model!;
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
  const no = unavailable(analysis);
  if (no) return { ...no, markdown: `_${no.reason}_\n` };
  const model = analysis!.model!;
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
  const no = unavailable(analysis);
  if (no) return no;
  const a = analysis!;
  const answer = explain(a.model!, params.agent, params.operation, params.path);
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
