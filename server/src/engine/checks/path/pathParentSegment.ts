import { spanOf } from "../../config/parse";
import type { Check } from "../check";
import { forEachPathProblem, refusal } from "../common/pathProblem";

/** docs/reference/paths.md V3–V4, and V10 in Python, which also splits on backslashes. */
export const pathParentSegment: Check = {
  code: "path-parent-segment",
  severity: "error",
  summary: "A permission path has a `..` segment: the runtime refuses the config.",
  run(context) {
    forEachPathProblem(context, ["parent-segment"], ({ node, value, runtime, message, primary }) => {
      context.report({ ...refusal(runtime, primary, message, value, 'it has a ".." segment'), span: spanOf(node) });
    });
  },
};
