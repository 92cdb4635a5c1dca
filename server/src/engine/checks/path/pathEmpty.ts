import { spanOf } from "../../config/parse";
import type { Check } from "../check";
import { forEachPathProblem, refusal } from "../common/pathProblem";

/** docs/reference/paths.md V2, V14: `""` or a value that is not a string. */
export const pathEmpty: Check = {
  code: "path-empty",
  severity: "error",
  summary: "A permission path is empty or not a string: the runtime refuses the config.",
  run(context) {
    forEachPathProblem(context, ["empty", "not-a-string"], ({ node, value, runtime, message, primary }) => {
      context.report({ ...refusal(runtime, primary, message, value, typeof value === "string" ? "it is empty" : "it is not a string"), span: spanOf(node) });
    });
  },
};
