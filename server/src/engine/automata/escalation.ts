import { agentsOf, rulesForAgent, type AgentRef } from "../agents/agents";
import { agentFilesystem } from "../agents/backends";
import type { CheckContext, ReportedFinding } from "../checks/check";
import type { RuleListSpec } from "../config/model";
import { spanOf } from "../config/parse";
import { addKey, copyOf, insertElements, onePerLine, replaceWith, type FixOperation, type ModelFix } from "../fixOperations";
import { CompiledRuleList, type PermissionRuleInput } from "../permissions/ruleList";
import type { Operation, Runtime } from "../runtime/runtime";
import { OPERATIONS, TOOLS_BY_OPERATION } from "../runtime/runtime";
import { Budget, BudgetExceeded, DEFAULT_RULE_BUDGET } from "./budget";
import { analysisForCheck, describeList, type ModelAnalysis } from "./modelAnalysis";
import type { Decision, RuleForOperation, RuleTables } from "./ruleTables";
import type { Condition } from "./tables";
import { shown } from "../checks/common/ruleAnalysisText";

/** One (operation, path) the main agent's rules deny and a subagent's rules do not. */
export interface PathEscalation {
  readonly agent: AgentRef;
  readonly operation: Operation;
  readonly path: string;
  /** The main agent's deny rule that decides the path. */
  readonly parentRule: number;
  /** What the subagent's rules decide, and by which rule (-1: the permissive default, or no rules at all). */
  readonly childDecision: Decision;
  readonly childRule: number;
}



/**
 * docs/reference/subagents.md, path half of `subagent-escalation`: for every agent other than the main one (the general-purpose subagent
 * and each declared subagent), an (operation, path) that the main agent's rules deny and the agent's own rules do
 * not, with a witness. Exact, on automata; where the analysis cannot finish it says so in `skipped` and reports
 * nothing for that agent.
 */
export function pathEscalations(analysis: ModelAnalysis): PathEscalation[] {
  const model = analysis.model;
  const agents = agentsOf(model);
  const parentList = rulesForAgent(model, agents[0]!).list;
  if (!parentList) return [];
  const found: PathEscalation[] = [];
  for (const agent of agents.slice(1)) {
    const childList = rulesForAgent(model, agent).list;
    if (childList === parentList) continue;
    const tools = agentFilesystem(model, agent).allowlist.tools;
    const operations = OPERATIONS.filter((op) => TOOLS_BY_OPERATION[op].some((t) => tools.includes(t)));
    const where = spanOf(agentNode(agent, childList) ?? parentList.node);
    // A list the analysis does not read (its file's limits) is listed under `skipped` as a whole.
    if (!analysis.reads(parentList) || (childList && !analysis.reads(childList))) continue;
    const whole = analysis.escalations(parentList, childList, operations);
    if (whole) {
      for (const e of whole) found.push({ agent, ...e });
      for (const op of operations) {
        const unknown = [parentList, ...(childList ? [childList] : [])].some((l) => analysis.tablesOf(l).forOperation(op).some((r) => r.unknown));
        if (unknown && !whole.some((e) => e.operation === op)) {
          analysis.noteSkipAt(["subagent-escalation"], `${op} for ${agentLabel(agent)}`, "a pattern of the main agent's or the subagent's rules was not analysed", where);
        }
      }
      continue;
    }
    // Too many rule combinations for one walk: ask per operation, each within its own budget.
    const parent = analysis.tablesOf(parentList);
    const child = childList ? analysis.tablesOf(childList) : undefined;
    for (const op of operations) {
      const budget = analysis.budget(DEFAULT_RULE_BUDGET);
      try {
        const hit = escalationFor(op, parent, child, budget);
        if (hit === "unknown") analysis.noteSkipAt(["subagent-escalation"], `${op} for ${agentLabel(agent)}`, "a pattern of the main agent's or the subagent's rules was not analysed", where);
        else if (hit) found.push({ agent, operation: op, ...hit });
      } catch (error) {
        if (!(error instanceof BudgetExceeded)) throw error;
        analysis.noteSkipAt(["subagent-escalation"], `${op} for ${agentLabel(agent)}`, `comparing its rules with the main agent's ${error.message}`, where);
      }
    }
  }
  return found;
}

function escalationFor(
  op: Operation,
  parent: RuleTables,
  child: RuleTables | undefined,
  budget: Budget,
): { path: string; parentRule: number; childDecision: Decision; childRule: number } | undefined | "unknown" {
  const parentRules = parent.forOperation(op);
  const childRules = child?.forOperation(op) ?? [];
  if (parentRules.some((r) => r.unknown) || childRules.some((r) => r.unknown)) return "unknown";
  const canonical = parent.canonical;
  for (let a = 0; a < parentRules.length; a++) {
    const denier = parentRules[a]!;
    if (denier.decision !== "deny") continue;
    const denied: Condition[] = [canonical, parent.group(denier, true), ...parent.none(parentRules.slice(0, a), denier.prefix)];
    if (!parent.space.exists(denied, budget)) continue;
    if (!child) {
      const path = parent.witness(denied, budget);
      if (path !== undefined) return { path, parentRule: denier.index, childDecision: "allow", childRule: -1 };
      continue;
    }
    const decidedBy = (k: number): Condition[] => [child.group(childRules[k]!, true), ...child.none(childRules.slice(0, k), childRules[k]!.prefix)];
    for (let b = 0; b < childRules.length; b++) {
      const r: RuleForOperation = childRules[b]!;
      if (r.decision === "deny") continue;
      const path = parent.witness([...denied, ...decidedBy(b)], budget);
      if (path !== undefined) return { path, parentRule: denier.index, childDecision: r.decision, childRule: r.index };
    }
    const path = parent.witness([...denied, ...child.none(childRules, denier.prefix)], budget);
    if (path !== undefined) return { path, parentRule: denier.index, childDecision: "allow", childRule: -1 };
  }
  return undefined;
}

function agentLabel(agent: AgentRef): string {
  return agent.kind === "general-purpose" ? "the general-purpose subagent" : `subagent ${JSON.stringify(agent.name)}`;
}

function agentNode(agent: AgentRef, list: RuleListSpec | undefined) {
  if (agent.kind !== "subagent") return list?.node;
  const p = agent.spec.permissions;
  return p.kind === "list" ? p.list.node : p.kind === "null" ? p.node : agent.spec.nameNode ?? agent.spec.node;
}

/**
 * The findings of the path half of `subagent-escalation`, ready for `context.report` (the check file calls this;
 * the tool half lives there). Every witness is confirmed with the rule lists' own decision function first.
 */
export function pathEscalationFindings(context: CheckContext): ReportedFinding[] {
  const analysis = analysisForCheck(context);
  const model = context.model;
  const parentList = rulesForAgent(model, agentsOf(model)[0]!).list;
  if (!parentList) return [];
  const runtime = model.runtime;
  let parentDecisions: CompiledRuleList | undefined;
  const byAgent = new Map<AgentRef, PathEscalation[]>();
  for (const e of pathEscalations(analysis)) {
    // Compiled for the first witness only: most configs have none to confirm.
    parentDecisions ??= new CompiledRuleList(runtime, parentList.rules.map((r) => r.input));
    const childRules = rulesForAgent(model, e.agent);
    const childDecisions = new CompiledRuleList(runtime, (childRules.list?.rules ?? []).map((r) => r.input));
    const canonical = runtime.canonicalToolPath(e.path, true);
    const confirmed =
      canonical.ok && canonical.path === e.path
      && parentDecisions.decide(e.operation, e.path).decision === "deny"
      && (childDecisions.isEmpty || childDecisions.decide(e.operation, e.path).decision !== "deny");
    if (!confirmed) {
      analysis.noteSkipAt(["subagent-escalation"], `${e.operation} for ${agentLabel(e.agent)}`, `internal disagreement on ${JSON.stringify(e.path)}; nothing reported`, spanOf(parentList.node));
      continue;
    }
    byAgent.set(e.agent, [...(byAgent.get(e.agent) ?? []), e]);
  }
  const findings: ReportedFinding[] = [];
  for (const [agent, escalations] of byAgent) {
    const governing = rulesForAgent(model, agent);
    const node = agentNode(agent, governing.list) ?? parentList.node;
    const what = escalations.map((e) => `${e.operation} ${shown(e.path)}`).join(" and ");
    const first = escalations[0]!;
    const childSays = escalations
      .map((e) => (e.childRule >= 0 ? `${e.operation}: its rule ${e.childRule} ${e.childDecision === "interrupt" ? "asks (interrupt)" : "allows"}` : `${e.operation}: ${governing.list ? "none of its rules matches, so the permissive default allows" : "it has no rules"}`))
      .join("; ");
    findings.push({
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
  return findings;
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
