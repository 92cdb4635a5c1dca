import { agentLabel, agentRulesNode, agentsOf, rulesForAgent, type AgentRef } from "../agents/agents";
import { agentFilesystem } from "../agents/backends";
import { spanOf } from "../config/parse";
import { CompiledRuleList } from "../permissions/ruleList";
import type { Operation } from "../runtime/runtime";
import { OPERATIONS, TOOLS_BY_OPERATION } from "../runtime/runtime";
import { Budget, BudgetExceeded, DEFAULT_RULE_BUDGET } from "./budget";
import { analysisForCheck, type AnalysisRequest, type ModelAnalysis } from "./modelAnalysis";
import type { Decision, RuleForOperation, RuleTables } from "./ruleTables";
import type { Condition } from "./tables";

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
    const where = spanOf(agentRulesNode(agent, childList) ?? parentList.node);
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

/**
 * The path half of `subagent-escalation`, grouped by agent, every witness confirmed with the rule lists' own
 * decision function first (a disagreement is listed under `skipped`, never reported). The check
 * (checks/subagent/subagentEscalation.ts) words the findings and builds the fix.
 */
export function confirmedPathEscalations(request: AnalysisRequest): Map<AgentRef, PathEscalation[]> {
  const analysis = analysisForCheck(request);
  const model = request.model;
  const byAgent = new Map<AgentRef, PathEscalation[]>();
  const parentList = rulesForAgent(model, agentsOf(model)[0]!).list;
  if (!parentList) return byAgent;
  const runtime = model.runtime;
  let parentDecisions: CompiledRuleList | undefined;
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
  return byAgent;
}
