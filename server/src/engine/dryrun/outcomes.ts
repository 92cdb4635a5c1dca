/** What one dry-run step ends in (config-format.md "Dry-run scenarios"). */
export type Outcome = "ok" | "permission-denied" | "tool-unavailable" | "authorization-denied" | "error";
export const OUTCOMES: readonly Outcome[] = ["ok", "permission-denied", "tool-unavailable", "authorization-denied", "error"];

/** The rule that decided a step: 0-based in the agent's rule list, with the pattern that matched and its mode. */
export interface DecidingRule {
  index: number;
  pattern: string;
  mode: string;
}

/** A tool's answer, as the runtime gives it to the model. */
export interface ToolAnswer {
  outcome: Outcome;
  /** The tool message's text, exactly as the runtime words it (virtual paths where it would print host ones). */
  output: string;
  rule?: DecidingRule;
  /** `delete` denied by the subtree check: every deny pattern the runtime cites. */
  denyPatterns?: string[];
  /** Why, in a sentence a person can read (for tool-unavailable and authorization-denied, the effective-tools reason). */
  reason?: string;
}

/** One entry of a run's denial journal, as DeerFlow's guardrail middleware records a denial: never the arguments. */
export interface DenialEntry {
  tool: string;
  callId: string;
  agent: string;
  role: string | null;
  policyId: string | null;
  reasonCodes: string[];
  failClosed: boolean;
}

/** A step's subject in a few words: `read_file /workspace/README.md`, `task auditor`. */
export function stepTitle(s: { tool: string; args: Record<string, unknown> }): string {
  const a = s.args;
  const subject = a.file_path ?? a.path ?? a.pattern ?? a.command ?? a.subagent_type;
  if (typeof subject !== "string") return s.tool;
  // A line per step: a megabyte-long argument is shortened (the JSON output keeps it whole).
  return `${s.tool} ${subject.length > 120 ? `${subject.slice(0, 117)}...` : subject}`;
}

/** The outcome with its reason: `permission-denied by rule 0 (deny /workspace/.env)`. */
export function outcomeWords(s: { outcome: string; rule?: { index: number; pattern: string; mode: string } | null; reason?: string }): string {
  if (s.rule) return `${s.outcome} by rule ${s.rule.index} (${s.rule.mode} ${s.rule.pattern})`;
  if (s.reason && s.outcome !== "ok") return `${s.outcome}: ${s.reason}`;
  return s.outcome;
}
