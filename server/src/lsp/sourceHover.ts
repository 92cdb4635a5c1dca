import { MarkupKind, type Hover } from "vscode-languageserver/node";
import type { Analysis } from "./engineFacade";
import { effectiveToolTables, renderToolTable } from "./engineFacade";

/**
 * The hover in a TypeScript, JavaScript or Python file: on the name of a `createDeepAgent` / `create_deep_agent`
 * call, the effective tools of every agent it builds (the main agent, the general-purpose subagent, each declared
 * one), and what the call leaves dynamic, which the tables cannot account for; on a declared subagent's name, that
 * subagent's tools. Nowhere else: the file's language has its own hovers.
 */
export function sourceHover(analysis: Analysis, offset: number): Hover | null {
  const agent = analysis.agents?.find((a) => a.call.calleeSpan.start <= offset && offset <= a.call.calleeSpan.end);
  if (!agent) return subagentHover(analysis, offset);
  const out: string[] = [`**Agent Sandbox**: the agent this call builds (${agent.model.runtime.label})`, ""];
  for (const table of effectiveToolTables(agent.model, undefined, null)) out.push(renderToolTable(table), "");
  const dynamic = agent.model.dynamic ?? [];
  if (dynamic.length) {
    out.push("Not analysed (they come from code that only runs at run time; the checks that need them report nothing):", "");
    for (const d of dynamic) out.push(`- ${d.what}: \`${d.expression.replace(/`/g, "'")}\``);
  }
  const { start, end } = agent.call.calleeSpan;
  return {
    contents: { kind: MarkupKind.Markdown, value: out.join("\n").trimEnd() },
    range: { start: analysis.lines.positionAt(start), end: analysis.lines.positionAt(end) },
  };
}

/** On a declared subagent's name (`name: "writer"`, `"name": "writer"`): that subagent's effective tools alone. */
function subagentHover(analysis: Analysis, offset: number): Hover | null {
  for (const agent of analysis.agents ?? []) {
    for (const subagent of agent.model.subagents) {
      const node = subagent.nameNode;
      if (!node || subagent.name === undefined || offset < node.offset || offset > node.offset + node.length) continue;
      const out: string[] = [`**Agent Sandbox**: subagent "${subagent.name}" (${agent.model.runtime.label})`, ""];
      for (const table of effectiveToolTables(agent.model, subagent.name, null)) out.push(renderToolTable(table), "");
      return {
        contents: { kind: MarkupKind.Markdown, value: out.join("\n").trimEnd() },
        range: { start: analysis.lines.positionAt(node.offset), end: analysis.lines.positionAt(node.offset + node.length) },
      };
    }
  }
  return null;
}
