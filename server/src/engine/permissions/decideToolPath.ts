import type { Operation, Runtime } from "../runtime/runtime";
import type { CompiledRuleList, RuleDecision } from "./ruleList";

/** What a filesystem tool does with one path argument before it reaches the backend (docs/reference/paths.md, docs/reference/decisions.md). */
export interface ToolPathOutcome {
  /** `error`: the runtime rejects the path itself (or cannot evaluate a rule); `deny`: a rule denies it. */
  outcome: "allow" | "deny" | "interrupt" | "error";
  /** The path the rules were matched against (absent when the path was rejected). */
  canonicalPath?: string;
  /** The tool's error text, exactly as the runtime words it (`Error: permission denied for read on /x`). */
  message?: string;
  /** The deciding rule, when one matched. */
  decision?: RuleDecision;
}

/**
 * `checkPermission` for read_file / write_file / edit_file / ls / glob / grep (not delete: docs/reference/decisions.md has its own
 * subtree geometry). JS validates only when the agent has rules; Python always (docs/reference/paths.md).
 */
export function decideToolPath(runtime: Runtime, rules: CompiledRuleList, op: Operation, rawPath: string): ToolPathOutcome {
  const canonical = runtime.canonicalToolPath(rawPath, !rules.isEmpty);
  if (!canonical.ok) return { outcome: "error", message: `Error: ${canonical.error}` };
  if (rules.isEmpty) return { outcome: "allow", canonicalPath: canonical.path };
  const decision = rules.decide(op, canonical.path);
  if (decision.failure) return { outcome: "error", canonicalPath: canonical.path, message: `Error: ${decision.failure}`, decision };
  if (decision.decision === "deny") {
    return { outcome: "deny", canonicalPath: canonical.path, message: `Error: permission denied for ${op} on ${canonical.path}`, decision };
  }
  return { outcome: decision.decision, canonicalPath: canonical.path, decision };
}

/**
 * Whether the runtime checks a tool path only while the agent has rules (deepagents-js, docs/reference/paths.md): removing a list's
 * last rule then turns path validation off. Asked of the runtime with a path every runtime rejects.
 */
function validatesOnlyWithRules(runtime: Runtime): boolean {
  return !runtime.canonicalToolPath("/a/../b", true).ok && runtime.canonicalToolPath("/a/../b", false).ok;
}

/**
 * The runtime among `runtimes` that would stop checking tool paths if a rule were removed from a list of
 * `ruleCount` rules (only when that empties it): rule-empty and rule-redundant do not call that removal safe.
 */
export function removalStopsValidation(ruleCount: number, runtimes: readonly Runtime[]): Runtime | undefined {
  return ruleCount === 1 ? runtimes.find(validatesOnlyWithRules) : undefined;
}
