import type { ConfigModel, RuleSpec } from "../../config/model";
import { allRuleLists } from "../../config/model";
import { quotedText } from "../../config/describe";
import type { JsonNode } from "../../config/parse";
import { runtimeLabel, type PathProblem, type PathProblemKind, type Runtime } from "../../runtime/runtime";
import type { CheckContext } from "../check";
import { patternTable } from "./patternTable";
import { memo } from "../../caches";

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
  for (const { rule, node, value, problems } of entriesWithProblems(context)) {
    let seen = false;
    problems.forEach(({ runtime, problem }, r) => {
      if (!problem || !kinds.includes(problem.kind)) return;
      // The same wording twice helps nobody; name the other runtime only when it differs.
      if (r > 0 && seen) return;
      seen = true;
      visit({ rule, node, value, runtime, message: problem.message, primary: r === 0 });
    });
  }
}

interface ProblemEntry {
  rule: RuleSpec;
  node: JsonNode;
  value: unknown;
  /** One per runtime of the context, in its order (`problem` undefined where that runtime accepts the entry). */
  problems: { runtime: Runtime; problem: PathProblem | undefined }[];
}

/**
 * The path entries some runtime refuses, found once per run for the four checks (nearly every entry is fine, so
 * the list is short and each check only filters it by kind).
 */
const problemEntries = memo<ConfigModel, { runtimes: readonly Runtime[]; entries: ProblemEntry[] }>("checks/pathProblem.pathProblemEntries");

function entriesWithProblems(context: CheckContext): ProblemEntry[] {
  const cached = problemEntries.get(context.model);
  if (cached && cached.runtimes.length === context.runtimes.length && cached.runtimes.every((r, k) => r === context.runtimes[k])) return cached.entries;
  const table = patternTable(context);
  const entries: ProblemEntry[] = [];
  for (const list of allRuleLists(context.model)) {
    for (const rule of list.rules) {
      rule.pathNodes.forEach((node, i) => {
        const value = Array.isArray(rule.input.paths) ? rule.input.paths[i] : undefined;
        let any = false;
        const problems = context.runtimes.map((runtime) => {
          const problem = table.pathProblem(runtime, value);
          if (problem) any = true;
          return { runtime, problem };
        });
        if (any) entries.push({ rule, node, value, problems });
      });
    }
  }
  problemEntries.set(context.model, { runtimes: context.runtimes, entries });
  return entries;
}

/**
 * A finding's words for a path the runtime refuses: what is wrong with it (`problem`, "it does not start with
 * "/"") in the message, the runtime's exception word for word in the detail.
 */
export function refusal(runtime: Runtime, primary: boolean, runtimeMessage: string, value: unknown, problem: string): { message: string; detail: string } {
  const who = runtimeLabel(runtime, primary);
  const path = typeof value === "string" && value !== "" ? `the path ${quotedText(value)}` : "this path";
  return { message: `${who} refuses ${path} when it builds the agent: ${problem}.`, detail: `It throws: ${runtimeMessage}` };
}
