import type { RuleSpec } from "../config/model";
import { allRuleLists } from "../config/model";
import type { JsonNode } from "../config/parse";
import type { PathProblemKind, Runtime } from "../runtime/runtime";
import type { CheckContext } from "./check";
import { patternTable } from "./patternTable";

/**
 * Shared by the four construction-time path checks (path-not-absolute, path-empty, path-parent-segment,
 * path-tilde-segment): each reports the entries whose problem is of its kind, in every runtime that matters,
 * quoting that runtime's exception.
 */
export function forEachPathProblem(
  context: CheckContext,
  kinds: readonly PathProblemKind[],
  visit: (entry: { rule: RuleSpec; node: JsonNode; value: unknown; runtime: Runtime; message: string; primary: boolean }) => void,
): void {
  const table = patternTable(context);
  for (const list of allRuleLists(context.model)) {
    for (const rule of list.rules) {
      rule.pathNodes.forEach((node, i) => {
        const value = Array.isArray(rule.input.paths) ? rule.input.paths[i] : undefined;
        const seen = new Set<string>();
        context.runtimes.forEach((runtime, r) => {
          const problem = table.pathProblem(runtime, value);
          if (!problem || !kinds.includes(problem.kind)) return;
          // The same wording twice helps nobody; name the other runtime only when it differs.
          if (r > 0 && seen.size > 0) return;
          seen.add(problem.kind);
          visit({ rule, node, value, runtime, message: problem.message, primary: r === 0 });
        });
      });
    }
  }
}

export function refusal(runtime: Runtime, primary: boolean, message: string): string {
  return primary
    ? `${runtime.label} refuses this rule when the agent is built: ${message}`
    : `${runtime.label} (in compatibleWith) refuses this rule when the agent is built: ${message}`;
}
