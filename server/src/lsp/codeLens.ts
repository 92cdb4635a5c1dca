/**
 * textDocument/codeLens: above each agent, "N tools · Preview prompt · Explain…" (client commands). N counts the
 * tools the agent sees; when the runtime refuses its filesystem middleware, the lens says so, since the agent is
 * then never built and N tools is only what it would have. In a source file, the same above each
 * `createDeepAgent` / `create_deep_agent` call (the commands get the call's line) and each subagent it declares,
 * plus "Dry run: <scenario>" for each dry-run scenario that names the call as its config.
 */
import { findNodeAtLocation } from "jsonc-parser";
import type { CodeLens } from "vscode-languageserver/node";
import { Commands, type AgentCommandArgs, type ScenarioRunParams } from "../protocol";
import type { ConfigModel } from "../engine/config/model";
import { namesCall, type ScenarioOfSource } from "./sourceScenarios";
import { effectiveToolTables, type Analysis } from "./engineFacade";
import { findAgent, GENERAL_PURPOSE } from "../engine/agents/agents";
import { filesystemRefusal } from "../engine/agents/effectiveTools";

export function codeLenses(analysis: Analysis, uri: string, scenarios: readonly ScenarioOfSource[] = []): CodeLens[] {
  if (analysis.kind === "source") return sourceLenses(analysis, uri, scenarios);
  const model = analysis.model;
  if (analysis.kind !== "config" || !model) return [];
  const lenses: CodeLens[] = [];
  const place = agentLenses(analysis, model, uri, lenses);
  place("main", model.root.offset);
  const subagents = findNodeAtLocation(model.root, ["subagents"]);
  // The built-in general-purpose subagent has no text of its own: its lens sits on the `subagents` key.
  if (subagents?.parent && !model.subagents.some((s) => s.name === GENERAL_PURPOSE)) place(GENERAL_PURPOSE, subagents.parent.offset);
  for (const s of model.subagents) if (s.name !== undefined) place(s.name, s.node.offset);
  return lenses;
}

/**
 * Each call's lenses on its first line (the main agent's, then a Dry run per scenario that names it), and each
 * declared subagent's on the subagent's own line. The general-purpose subagent has no text in a call: the hover
 * on the call lists its tools.
 */
function sourceLenses(analysis: Analysis, uri: string, scenarios: readonly ScenarioOfSource[]): CodeLens[] {
  const lenses: CodeLens[] = [];
  for (const agent of analysis.agents ?? []) {
    const line = analysis.lines.positionAt(agent.call.span.start).line;
    const place = agentLenses(analysis, agent.model, uri, lenses, line);
    place("main", agent.call.span.start);
    for (const scenario of scenarios) {
      if (!namesCall(scenario, analysis, agent)) continue;
      const range = { start: { line, character: 0 }, end: { line, character: 0 } };
      const args: ScenarioRunParams = { uri: scenario.uri };
      lenses.push({ range, command: { title: `Dry run: ${scenario.name}`, command: Commands.runScenario, arguments: [args] } });
    }
    for (const s of agent.model.subagents) if (s.name !== undefined) place(s.name, s.node.offset);
  }
  return lenses;
}

/** Adds an agent's three lenses at the line of `offset`; `callLine` goes into the commands' arguments in a source file. */
function agentLenses(analysis: Analysis, model: ConfigModel, uri: string, lenses: CodeLens[], callLine?: number) {
  return (agent: string, offset: number) => {
    const tools = effectiveToolTables(model, agent, null)[0]?.tools;
    if (!tools) return;
    const line = analysis.lines.positionAt(offset).line;
    const range = { start: { line, character: 0 }, end: { line, character: 0 } };
    const args: AgentCommandArgs = { uri, agent, ...(callLine !== undefined ? { line: callLine } : {}) };
    const visible = tools.filter((t) => t.visible).length;
    const prefix = agent === "main" ? "" : `${agent}: `;
    const ref = findAgent(model, agent);
    const refused = ref && filesystemRefusal(model, ref);
    // A call with values read only at run time: the count is of what the file spells out, and says so.
    const dynamic = agent === "main" ? (model.dynamic?.length ?? 0) : 0;
    const note = refused ? ` (${refused})` : dynamic ? ` (${dynamic} value${dynamic === 1 ? "" : "s"} not analysed)` : "";
    lenses.push(
      { range, command: { title: `${prefix}${visible === 0 ? "no tools" : `${visible} tool${visible === 1 ? "" : "s"}`}${note}`, command: Commands.showEffectiveTools, arguments: [args] } },
      { range, command: { title: "Preview prompt", command: Commands.previewPrompt, arguments: [args] } },
      { range, command: { title: "Explain…", command: Commands.explainDecision, arguments: [args] } },
    );
  };
}
