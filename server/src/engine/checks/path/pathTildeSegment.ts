import { spanOf } from "../../config/parse";
import type { Check } from "../check";
import { forEachPathProblem, refusal } from "../common/pathProblem";

/** docs/reference/paths.md V5–V6: a `~` segment (Python raises NotImplementedError). `/~user/x` is accepted (V8). */
export const pathTildeSegment: Check = {
  code: "path-tilde-segment",
  severity: "error",
  summary: "A permission path has a `~` segment: the runtime refuses the config.",
  run(context) {
    forEachPathProblem(context, ["tilde-segment"], ({ node, value, runtime, message, primary }) => {
      context.report({ ...refusal(runtime, primary, message, value, 'it has a "~" segment'), span: spanOf(node) });
    });
  },
};
