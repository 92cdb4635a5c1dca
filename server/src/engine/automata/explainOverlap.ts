import type { ConfigModel, RuleListSpec } from "../config/model";
import type { Operation } from "../runtime/runtime";
import { Confirm } from "./confirm";
import { describeList, modelAnalysis, type AnalysisOptions } from "./modelAnalysis";
import type { Decision } from "./ruleTables";

/** For one rule: which earlier rules decide which of its paths first, with witnesses (explain, hovers). */
export interface RuleOverlap {
  readonly ruleIndex: number;
  /** The runtime whose matcher and canonical paths were used ("deepagents-js 1.14.1"). */
  readonly runtime: string;
  /** What the rule does to a path it decides. */
  readonly decision: Decision;
  readonly operations: readonly OperationOverlap[];
  /** `shadowed`, `redundant`, `partially-shadowed`, `decides`, `matches-nothing`, or `skipped` (see `skipped`). */
  readonly verdict: "shadowed" | "redundant" | "partially-shadowed" | "decides" | "matches-nothing" | "skipped";
  /** Why the rule was not analysed, when `verdict` is `skipped`. */
  readonly skipped?: string;
  /** A sentence a person can read. */
  readonly summary: string;
}

export interface OperationOverlap {
  readonly operation: Operation;
  /** The rule matches at least one canonical tool path for this operation. */
  readonly matches: boolean;
  /** Earlier rules that decide some of its paths first, in rule order, each with a path it matches that they decide. */
  readonly takenFirstBy: readonly { readonly ruleIndex: number; readonly decision: Decision; readonly witness: string }[];
  /** A path the rule decides itself, or null when it decides none. */
  readonly decides: string | null;
}

/**
 * Which earlier rules take which of rule `ruleIndex`'s paths first, under the config's runtime, with witnesses
 * confirmed against the rule list's decision function. Shares the analysis the checks built for this model.
 */
export function explainRuleOverlap(model: ConfigModel, list: RuleListSpec, ruleIndex: number, options?: AnalysisOptions): RuleOverlap {
  const runtime = model.runtime;
  const analysis = modelAnalysis(model, undefined, options);
  const result = analysis.ruleList(list).rule(ruleIndex);
  const confirm = new Confirm(runtime, list);
  const operations: OperationOverlap[] = result.operations.map((o) => ({
    operation: o.operation,
    matches: o.matches,
    takenFirstBy: o.takenBy.filter((t) => confirm.decide(o.operation, t.witness).ruleIndex === t.ruleIndex && confirm.ruleMatches(ruleIndex, o.operation, t.witness)),
    decides: o.decides !== undefined && confirm.decide(o.operation, o.decides).ruleIndex === ruleIndex ? o.decides : null,
  }));
  const verdict = result.verdict.kind;
  const where = list.owner.kind === "top-level" ? "" : ` of ${describeList(list)}`;
  const summary = summarize(ruleIndex, where, verdict, operations, result.verdict.kind === "skipped" ? result.verdict.reason : undefined, runtime.label);
  return {
    ruleIndex,
    runtime: runtime.label,
    decision: result.decision,
    operations,
    verdict,
    ...(result.verdict.kind === "skipped" ? { skipped: result.verdict.reason } : {}),
    summary,
  };
}

function summarize(index: number, where: string, verdict: RuleOverlap["verdict"], operations: readonly OperationOverlap[], skipped: string | undefined, runtime: string): string {
  const subject = `Rule ${index}${where}`;
  if (verdict === "skipped") return `${subject} was not analysed in ${runtime}: ${skipped}.`;
  if (verdict === "matches-nothing") return `${subject} matches no tool path in ${runtime}.`;
  const parts = operations.filter((o) => o.matches).map((o) => {
    const taken = o.takenFirstBy.map((t) => `rule ${t.ruleIndex} takes \`${t.witness}\` first (${t.decision})`);
    const own = o.decides ? `it decides e.g. \`${o.decides}\`` : "it decides nothing";
    return `${o.operation}: ${[...taken, own].join("; ")}`;
  });
  const head =
    verdict === "shadowed" ? "never decides anything" :
    verdict === "redundant" ? "changes no decision" :
    verdict === "partially-shadowed" ? "has part of its paths decided first, the other way, by earlier rules" :
    "decides paths of its own";
  return `${subject} ${head} in ${runtime}. ${parts.join(". ")}.`;
}
