import { allRuleLists } from "../../config/model";
import { spanOf } from "../../config/parse";
import { runtimeLabelFor } from "../../runtime/runtime";
import type { Check } from "../check";
import { replaceWith } from "../../fixOperations";

/**
 * docs/reference/paths.md V17: a string `paths` is iterated character by character by both runtimes when the
 * agent is built (JS `for (const path of permission.paths)`, Python `for path in self.paths`), each character
 * validated as a pattern: `"/abc"` is refused for `"a"` (`Error: path must be absolute: "a"`). A string of
 * characters the runtime accepts (`"/"`, `""`) is built, as the patterns `["/"]` or none.
 */
export const pathsNotList: Check = {
  code: "paths-not-list",
  severity: "error",
  summary: "`paths` is a string: the runtime reads each character as a pattern.",
  run(context) {
    for (const list of allRuleLists(context.model)) {
      for (const rule of list.rules) {
        const node = rule.pathsNode;
        if (node?.type !== "string") continue;
        const text = String(node.value);
        const characters = [...text];
        // The first character each runtime refuses, and its exception word for word.
        const refusals = context.runtimes.flatMap((runtime) => {
          for (const c of characters) {
            const problem = runtime.permissionPathProblem(c);
            if (problem) return [{ runtime, character: c, message: problem.message }];
          }
          return [];
        });
        // The fix writes the one pattern the string surely means; safe where every runtime accepts it.
        const accepted = context.runtimes.every((r) => r.permissionPathProblem(text) === undefined);
        const fixes = [{ title: `Write it as a list: ${JSON.stringify([text])}`, operations: [replaceWith(node, [text])], safe: accepted }];
        const [first] = refusals;
        if (first) {
          context.report({
            message: `${runtimeLabelFor(first.runtime, context.model)} refuses "paths" as a string when it builds the agent: it reads each character as a path.`,
            detail: refusals.map((r) => `${runtimeLabelFor(r.runtime, context.model)} iterates the string and throws for ${JSON.stringify(r.character)}: ${r.message}`).join(" "),
            span: spanOf(node),
            fixes,
          });
        } else {
          const patterns = JSON.stringify(characters);
          context.report({
            severity: "warning",
            message: `"paths" is a string, not a list: the runtime reads each character as a pattern.`,
            detail: `Both runtimes iterate it, so this rule's patterns are ${patterns}${characters.length === 0 ? ": it never matches" : ""}.`,
            span: spanOf(node),
            fixes,
          });
        }
      }
    }
  },
};
