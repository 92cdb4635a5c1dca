import { agentsOf, middlewareLabel, rulesForAgent } from "../../agents/agents";
import { agentFilesystem } from "../../agents/backends";
import { spanOf } from "../../config/parse";
import { addKey, replaceWith, type FixOperation, type FixValue } from "../../fixOperations";
import { FILESYSTEM_TOOLS, type FilesystemToolName } from "../../runtime/runtime";
import type { Check } from "../check";
import { addSubagentFilesystemMiddleware } from "../common/subagentFilesystemFix";
import { exactAnalysis } from "../../analysisLoader";

/**
 * The corridor-security comment on PR #4325, tool half: a filesystem-tool restriction on the main agent
 * (a custom filesystem middleware's `tools`) does not reach declarative subagents, so delegating through `task`
 * regains the hidden tools. The general-purpose subagent inherits the restriction by name, and so does a forked
 * subagent in deepagents-js 1.14.1 unless it brings its own filesystem middleware. (The path half, an operation the
 * parent's rules deny, belongs to the path analysis.)
 */
export const subagentEscalation: Check = {
  code: "subagent-escalation",
  severity: "warning",
  summary: "A subagent can use a filesystem tool the main agent's allowlist hides.",
  run(context) {
    // Path half (automata/escalation.ts): an (operation, path) the main agent's rules deny and a subagent's do not.
    if (context.analysis) for (const finding of exactAnalysis().pathEscalationFindings(context)) context.report(finding);
    if (context.analysisOnly) return;
    const model = context.model;
    const runtime = model.runtime;
    const agents = agentsOf(model);
    const parent = agentFilesystem(model, agents[0]!);
    if (!parent.custom || parent.allowlist.all || parent.allowlist.error) return;
    const parentTools = parent.allowlist.tools;
    const hidden = new Set<FilesystemToolName>(FILESYSTEM_TOOLS.filter((t) => !parentTools.includes(t)));
    const parentLabel = middlewareLabel(model, parent.custom);
    const entries = new Map<string, FixValue>();
    for (const agent of agents) {
      if (agent.kind !== "subagent") continue;
      const fs = agentFilesystem(model, agent);
      const sees = fs.allowlist.tools.filter(
        (t) => hidden.has(t) && (t !== "execute" || runtime.canExecute(fs.backend.shape)) && (t !== "delete" || runtime.canDelete(fs.backend.shape)),
      );
      if (sees.length === 0) continue;
      const spec = agent.spec;
      const how = fs.custom
        ? `Its own filesystem middleware (${middlewareLabel(model, fs.custom)}) allows them`
        : "A declarative subagent does not inherit the parent's custom filesystem middleware: it gets the default one, with every filesystem tool";
      let change: FixOperation;
      if (fs.custom && !fs.inherited) {
        const narrowed = fs.allowlist.tools.filter((t) => parentTools.includes(t));
        change = fs.custom.tools ? replaceWith(fs.custom.tools.node, narrowed) : addKey(fs.custom.node, "tools", narrowed);
      } else {
        change = addSubagentFilesystemMiddleware(model, spec, parentTools, rulesForAgent(model, agent).list, model.backend?.node, entries);
      }
      context.report({
        message: `Subagent ${JSON.stringify(agent.name)} can use ${sees.join(", ")}, which the main agent's allowlist hides.`,
        detail: `The main agent's allowlist is that of ${parentLabel}. ${how}, so delegating through task regains them.`,
        span: spanOf(spec.nameNode ?? spec.node),
        related: [{ message: "the main agent's allowlist", span: spanOf(parent.custom.tools?.node ?? parent.custom.node) }],
        fixes: [{ title: "Give the subagent the main agent's allowlist", operations: [change], safe: false }],
      });
    }
  },
};
