/**
 * textDocument/codeLens: above each agent, "N tools · Preview prompt · Explain…" (client commands). N counts the
 * tools the agent sees; when the runtime refuses its filesystem middleware, the lens says so, since the agent is
 * then never built and N tools is only what it would have.
 */
import { findNodeAtLocation } from "jsonc-parser";
import type { CodeLens } from "vscode-languageserver/node";
import { Commands, type AgentCommandArgs } from "../protocol";
import { effectiveToolTables, type Analysis } from "./engineFacade";
import { findAgent, GENERAL_PURPOSE } from "../engine/agents/agents";
import { filesystemRefusal } from "../engine/agents/effectiveTools";

export function codeLenses(analysis: Analysis, uri: string): CodeLens[] {
  const model = analysis.model;
  if (analysis.kind !== "config" || !model) return [];
  const lenses: CodeLens[] = [];
  const place = (agent: string, offset: number) => {
    const tools = effectiveToolTables(model, agent, null)[0]?.tools;
    if (!tools) return;
    const line = analysis.lines.positionAt(offset).line;
    const range = { start: { line, character: 0 }, end: { line, character: 0 } };
    const args: AgentCommandArgs = { uri, agent };
    const visible = tools.filter((t) => t.visible).length;
    const prefix = agent === "main" ? "" : `${agent}: `;
    const ref = findAgent(model, agent);
    const refused = ref && filesystemRefusal(model, ref);
    lenses.push(
      { range, command: { title: `${prefix}${visible === 0 ? "no tools" : `${visible} tool${visible === 1 ? "" : "s"}`}${refused ? ` (${refused})` : ""}`, command: Commands.showEffectiveTools, arguments: [args] } },
      { range, command: { title: "Preview prompt", command: Commands.previewPrompt, arguments: [args] } },
      { range, command: { title: "Explain…", command: Commands.explainDecision, arguments: [args] } },
    );
  };
  place("main", model.root.offset);
  const subagents = findNodeAtLocation(model.root, ["subagents"]);
  // The built-in general-purpose subagent has no text of its own: its lens sits on the `subagents` key.
  if (subagents?.parent && !model.subagents.some((s) => s.name === GENERAL_PURPOSE)) place(GENERAL_PURPOSE, subagents.parent.offset);
  for (const s of model.subagents) if (s.name !== undefined) place(s.name, s.node.offset);
  return lenses;
}
