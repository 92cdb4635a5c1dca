import { allFilesystemMiddleware } from "../../agents/backends";
import { middlewareLabel } from "../../agents/agents";
import { spanOf } from "../../config/parse";
import { isFilesystemToolName } from "../../runtime/runtime";
import type { Check } from "../check";
import { insertElements, replaceWith, type ModelFix } from "../../fixOperations";

/**
 * docs/reference/tools-and-backends.md: a filesystem middleware's `tools` must include `read_file`; the runtime refuses the middleware otherwise
 * (JS also for a string other than "all", which it reads character by character; Python reads only lists).
 */
export const readFileRequired: Check = {
  code: "read-file-required",
  severity: "error",
  summary: "A filesystem middleware `tools` list without `read_file`: the runtime refuses it.",
  run(context) {
    const model = context.model;
    for (const { middleware } of allFilesystemMiddleware(model)) {
      const tools = middleware.tools;
      if (!tools) continue;
      const error = model.runtime.normalizeFilesystemTools(tools.value).error;
      if (error?.kind !== "read-file-missing") continue;
      const node = tools.node;
      const fixes: ModelFix[] = [];
      if (node.type === "array") {
        // First in the list (into an empty one, a comment inside it, `[ // none⏎ ]`, stays).
        fixes.push({ title: 'Add "read_file"', operations: [insertElements(node, 0, ["read_file"])], safe: true });
      } else if (node.type === "string") {
        // `"read_file"` itself is read character by character too: the list it meant is just `["read_file"]`.
        const listed = isFilesystemToolName(node.value) && node.value !== "read_file" ? ["read_file", node.value] : ["read_file"];
        fixes.push({ title: `Change to ${JSON.stringify(listed).replace(/,/g, ", ")}`, operations: [replaceWith(node, listed)], safe: false });
      }
      const stringNote = node.type === "string" ? `A string other than "all" is read character by character. ` : "";
      context.report({
        message: `${model.runtime.label} refuses ${middlewareLabel(model, middleware)}: its tools do not include "read_file".`,
        detail: `${stringNote}It throws: ${error.message}`,
        span: spanOf(node),
        fixes,
      });
    }
  },
};
