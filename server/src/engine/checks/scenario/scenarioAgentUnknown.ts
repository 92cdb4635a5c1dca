import { agentsOf } from "../../agents/agents";
import { property, spanOf } from "../../config/parse";
import { didYouMean } from "../../didYouMean";
import { allSteps } from "../../dryrun/scenario";
import type { ScenarioCheck, ScenarioCheckContext } from "../scenarioCheck";
import { replaceWith } from "../../fixOperations";

/**
 * `agent` (the scenario's own) and every `task` step's `subagent_type` must name an agent of the config: the
 * scenario cannot run as an agent that does not exist, and the runtime's `task` tool refuses an unknown type.
 */
export const scenarioAgentUnknown: ScenarioCheck = {
  code: "scenario-agent-unknown",
  severity: "error",
  summary: "A scenario names an agent or subagent type the config does not have.",
  run(context) {
    const model = context.model;
    if (!model) return;
    const agents = agentsOf(model).map((a) => a.name);
    const agentNode = context.scenario.agentNode;
    if (agentNode?.type === "string" && !agents.includes(agentNode.value)) report(context, agentNode, agentNode.value, agents, "agent");
    const subagents = agents.filter((a) => a !== "main");
    for (const step of allSteps(context.scenario.steps)) {
      if (step.tool !== "task") continue;
      const typeNode = step.node ? property(property(step.node, "args"), "subagent_type") : undefined;
      if (typeNode?.type === "string" && !subagents.includes(typeNode.value)) report(context, typeNode, typeNode.value, subagents, "subagent type");
    }
  },
};

function report(context: ScenarioCheckContext, node: import("../../config/parse").JsonNode, name: string, candidates: string[], what: string): void {
  const near = didYouMean(name, candidates);
  context.report({
    message: `The config has no ${what} named ${JSON.stringify(name)}.`,
    detail: `Agents of the config: ${candidates.slice(0, 20).join(", ")}${candidates.length > 20 ? ", …" : ""}.${near ? ` Did you mean ${JSON.stringify(near)}?` : ""}`,
    span: spanOf(node),
    fixes: near ? [{ title: `Change to ${JSON.stringify(near)}`, operations: [replaceWith(node, near)], safe: false }] : undefined,
  });
}
