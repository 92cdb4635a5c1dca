import { findAgent, rulesForAgent, type RuleSource } from "./agents/agents";
import type { ConfigModel } from "./config/model";
import { decideToolPath } from "./permissions/decideToolPath";
import { CompiledRuleList } from "./permissions/ruleList";
import type { Operation } from "./runtime/runtime";
import { valueText } from "./text";

/** `explain`'s answer (cli.md): which rule decides one operation on one path, for one agent. */
export interface Explanation {
  agent: string;
  operation: Operation;
  path: string;
  canonicalPath: string | null;
  decision: "allow" | "deny" | "interrupt" | "error";
  rule: { index: number; pattern: string; mode: string } | null;
  source: RuleSource;
  /** The runtime's error text when the path is rejected (or a rule cannot be evaluated). */
  error?: string;
  /** A sentence a person can read. */
  summary: string;
  runtime: string;
}

export function explainDecision(
  model: ConfigModel,
  agentName: string,
  operation: Operation,
  path: string,
): { ok: true; explanation: Explanation } | { ok: false; error: string } {
  const agent = findAgent(model, agentName);
  if (!agent) return { ok: false, error: `No agent named ${JSON.stringify(agentName)}. Agents: ${["main", ...agentNames(model)].join(", ")}.` };
  const runtime = model.runtime;
  const governing = rulesForAgent(model, agent);
  const rules = governing.list?.rules ?? [];
  const compiled = new CompiledRuleList(runtime, rules.map((r) => r.input));
  const outcome = decideToolPath(runtime, compiled, operation, path);
  const decided = outcome.decision && outcome.decision.ruleIndex >= 0 ? rules[outcome.decision.ruleIndex] : undefined;
  const patternIndex = outcome.decision?.patternIndex ?? -1;
  const pattern = decided && Array.isArray(decided.input.paths) && patternIndex >= 0 ? valueText(decided.input.paths[patternIndex]) : "";
  const mode = decided ? (typeof decided.input.mode === "string" ? decided.input.mode : decided.input.mode === undefined ? "allow" : valueText(decided.input.mode)) : "";
  const explanation: Explanation = {
    agent: agent.name,
    operation,
    path,
    canonicalPath: outcome.canonicalPath ?? null,
    decision: outcome.outcome,
    rule: decided ? { index: decided.index, pattern, mode } : null,
    source: governing.source,
    summary: "",
    runtime: runtime.label,
  };
  if (outcome.outcome === "error") explanation.error = outcome.message!.replace(/^Error: /, "");
  explanation.summary = summarize(explanation, governing.why, rules.length);
  return { ok: true, explanation };
}

function summarize(e: Explanation, why: string, ruleCount: number): string {
  const subject = `${e.operation} on ${e.path}`;
  if (e.decision === "error") return `${e.runtime} rejects ${subject}: ${e.error}`;
  const where = e.canonicalPath !== null && e.canonicalPath !== e.path ? ` (matched as ${e.canonicalPath})` : "";
  if (!e.rule) {
    return ruleCount === 0
      ? `agent ${e.agent} has no rules (${why}), so ${subject} is allowed${where}.`
      : `no rule of agent ${e.agent} matches ${subject}${where}, so the permissive default allows it (${ruleCount} ${ruleCount === 1 ? "rule" : "rules"}: ${why}).`;
  }
  const modeNote = e.rule.mode !== "allow" && e.rule.mode !== "deny" && e.rule.mode !== "interrupt" ? `; unknown mode "${e.rule.mode}" allows and stops later rules` : "";
  return `rule ${e.rule.index} (${e.rule.mode} ${e.rule.pattern}) decides ${subject}${where} for agent ${e.agent}${modeNote} (${why}).`;
}

function agentNames(model: ConfigModel): string[] {
  const names = model.subagents.map((s) => s.name).filter((n): n is string => !!n);
  return names.includes("general-purpose") ? names : ["general-purpose", ...names];
}
