import { agentLabel, agentRulesNode, agentsOf, middlewareLabel, rulesForAgent, type AgentRef } from "../../agents/agents";
import { agentFilesystem } from "../../agents/backends";
import { exactAnalysis } from "../../analysisLoader";
import { describeList } from "../../config/describe";
import type { RuleListSpec } from "../../config/model";
import { spanOf } from "../../config/parse";
import { addKey, copyOf, insertElements, onePerLine, replaceWith, type FixOperation, type FixValue, type ModelFix } from "../../fixOperations";
import type { PermissionRuleInput } from "../../permissions/ruleList";
import { FILESYSTEM_TOOLS, OPERATIONS, type FilesystemToolName, type Runtime } from "../../runtime/runtime";
import type { Check, CheckContext } from "../check";
import { shown } from "../common/ruleAnalysisText";
import { addSubagentFilesystemMiddleware } from "../common/subagentFilesystemFix";

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
    if (context.analysis) reportPathHalf(context);
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

/**
 * The path half: an (operation, path) the main agent's rules deny and a subagent's do not, decided and confirmed by
 * the exact analysis (automata/escalation.ts, loaded on first use); worded here, one finding per agent.
 */
function reportPathHalf(context: CheckContext): void {
  const model = context.model;
  const parentList = rulesForAgent(model, agentsOf(model)[0]!).list;
  if (!parentList) return;
  for (const [agent, escalations] of exactAnalysis().confirmedPathEscalations(context)) {
    const governing = rulesForAgent(model, agent);
    const node = agentRulesNode(agent, governing.list) ?? parentList.node;
    const what = escalations.map((e) => `${e.operation} ${shown(e.path)}`).join(" and ");
    const first = escalations[0]!;
    const childSays = escalations
      .map((e) => (e.childRule >= 0 ? `${e.operation}: its rule ${e.childRule} ${e.childDecision === "interrupt" ? "asks (interrupt)" : "allows"}` : `${e.operation}: ${governing.list ? "none of its rules matches, so the permissive default allows" : "it has no rules"}`))
      .join("; ");
    context.report({
      message: `${capitalize(agentLabel(agent))} can ${what}, which the main agent's rules deny.`,
      detail: `Rule ${first.parentRule} of ${describeList(parentList)} denies it for the main agent. For the subagent, ${plain(governing.why)}; ${childSays}. Delegating through task gets around the restriction: give the subagent rules that deny these paths too.`,
      span: spanOf(node),
      witness: first.path,
      related: escalations.map((e) => ({
        message: `the main agent's rule ${e.parentRule} denies ${e.operation} ${shown(e.path)}`,
        span: spanOf(parentList.rules[e.parentRule]!.node),
      })),
      fixes: prependParentDenies(context, agent, parentList),
    });
  }
}

/**
 * The fix "prepend the parent's deny rules": the main agent's deny rules, first in the list the subagent's runtime
 * reads, so they decide before its allows. That list is its own filesystem middleware's `permissions` when it has
 * one (a custom middleware replaces the default one and ignores the subagent's `permissions`), else the subagent's
 * `permissions`: prepended to its list, in place of a `null` (deepagents-py's "no rules"), or as a new member.
 * Only rules every runtime of the config accepts are copied (a rule refused when the agent is built would break the
 * subagent too), as the parent wrote them, one rule per line. Not safe: the subagent
 * may then be denied more than the paths shown, whatever the parent's earlier allows let through there. None for
 * the general-purpose subagent (it has no entry to edit) or a forked subagent that inherits the parent's middleware.
 */
function prependParentDenies(context: CheckContext, agent: AgentRef, parentList: RuleListSpec): ModelFix[] {
  if (agent.kind !== "subagent") return [];
  const denies = parentList.rules.filter((r) => r.input.mode === "deny" && context.runtimes.every((runtime) => acceptedBy(runtime, r.input))).map((r) => copyOf(r.node));
  if (denies.length === 0) return [];
  const fs = agentFilesystem(context.model, agent);
  if (fs.custom && fs.inherited) return [];
  // First in the list, the list then written one rule per line (a rule list on one line is laid out anew).
  const prepend = (list: RuleListSpec) => insertElements(list.node, 0, denies, { onePerLine: true });
  let change: FixOperation;
  if (fs.custom) {
    const list = fs.custom.permissions;
    change = list ? prepend(list) : addKey(fs.custom.node, "permissions", onePerLine(denies));
  } else {
    const p = agent.spec.permissions;
    if (p.kind === "list") change = prepend(p.list);
    else if (p.kind === "null") change = replaceWith(p.node, onePerLine(denies));
    else change = addKey(agent.spec.node, "permissions", onePerLine(denies));
  }
  return [{ title: `Prepend the main agent's deny rules (${denies.length})`, operations: [change], safe: false }];
}

/** The runtime builds an agent with this rule: known operations and mode, and every path accepted (docs/reference/paths.md). */
function acceptedBy(runtime: Runtime, rule: PermissionRuleInput): boolean {
  if (!Array.isArray(rule.operations) || !rule.operations.every((op) => (OPERATIONS as readonly unknown[]).includes(op))) return false;
  if (rule.mode !== undefined && !(typeof rule.mode === "string" && runtime.modes.includes(rule.mode))) return false;
  if (!Array.isArray(rule.paths) || rule.paths.some((p) => typeof p !== "string" || runtime.permissionPathProblem(p) !== undefined)) return false;
  return OPERATIONS.every((op) => runtime.ruleCallFailure(rule, op) === undefined);
}

/** Text written for markdown, as plain text: without backticks. */
function plain(text: string): string {
  return text.replace(/`/g, "");
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
