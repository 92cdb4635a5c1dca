import { spanOf } from "../../config/parse";
import type { Check } from "../check";
import { forEachPathProblem, refusal } from "../common/pathProblem";
import { replaceWith } from "../../fixOperations";

/** docs/reference/paths.md V1, V7, V13: a pattern must start with `/` (a `!` negation or `~/` is not absolute either). */
export const pathNotAbsolute: Check = {
  code: "path-not-absolute",
  severity: "error",
  summary: "A permission path does not start with `/`: the runtime refuses the config.",
  run(context) {
    forEachPathProblem(context, ["not-absolute"], ({ node, value, runtime, message, primary }) => {
      const text = String(value);
      // Prefix `/` only where the rest reads as a path; `!x` and `~/x` mean something else entirely.
      const looksLikePath = /^[A-Za-z0-9_.*{[?@-]/.test(text) && !text.startsWith("~") && !text.startsWith("./") && !text.startsWith("../");
      // Applied by --fix only when every runtime of the config then accepts the pattern: `a/../b` made absolute is
      // refused for its `..` instead, a choice (which folder was meant?) the fix cannot make.
      const accepted = looksLikePath && context.runtimes.every((r) => r.permissionPathProblem(`/${text}`) === undefined);
      context.report({
        ...refusal(runtime, primary, message, value, 'it does not start with "/"'),
        span: spanOf(node),
        fixes: looksLikePath ? [{ title: `Make it absolute: "/${text}"`, operations: [replaceWith(node, `/${text}`)], safe: accepted }] : [],
      });
    });
  },
};
