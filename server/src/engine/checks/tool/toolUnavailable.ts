import { allFilesystemMiddleware, describeAgentBackend } from "../../agents/backends";
import { middlewareLabel } from "../../agents/agents";
import { removeElements } from "../../fixOperations";
import { spanOf } from "../../config/parse";
import type { Check } from "../check";

/**
 * docs/reference/tools-and-backends.md: at every model call the filesystem middleware removes `execute` when its backend cannot execute, and its
 * `delete` when the backend cannot delete. Listing them in `tools` registers them, and the model never sees them.
 */
export const toolUnavailable: Check = {
  code: "tool-unavailable",
  severity: "warning",
  summary: "`execute` or `delete` listed for a backend that cannot run it: silently filtered out.",
  run(context) {
    const model = context.model;
    const runtime = model.runtime;
    for (const { middleware, backend } of allFilesystemMiddleware(model)) {
      const node = middleware.tools?.node;
      if (node?.type !== "array") continue;
      (node.children ?? []).forEach((item) => {
        const name = item.value;
        const missing = name === "execute" ? !runtime.canExecute(backend.shape) : name === "delete" ? !runtime.canDelete(backend.shape) : false;
        if (!missing) return;
        const need = name === "execute" ? "a sandbox backend" : "a backend that deletes";
        context.report({
          message: `"${name}" is listed, but ${runtime.label} filters it out at every model call.`,
          detail: `${name} needs ${need}, and the backend of ${middlewareLabel(model, middleware)} is ${describeAgentBackend(model, backend)}.`,
          span: spanOf(item),
          fixes: [{ title: `Remove "${name}"`, operations: [removeElements(node, item)], safe: false }],
        });
      });
    }
  },
};
