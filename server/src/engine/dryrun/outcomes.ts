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
