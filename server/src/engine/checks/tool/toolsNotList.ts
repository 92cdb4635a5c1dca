import { allFilesystemMiddleware } from "../../agents/backends";
import { middlewareLabel } from "../../agents/agents";
import type { CollectionNode } from "../../config/model";
import { spanOf } from "../../config/parse";
import { replaceWith, type ModelFix } from "../../fixOperations";
import { FILESYSTEM_TOOLS, isFilesystemToolName } from "../../runtime/runtime";
import type { Check } from "../check";

/**
 * docs/reference/tools-and-backends.md: deepagents-py's `FilesystemMiddleware` reads `tools` as an allowlist only
 * when it is a `list`. A set (`{"read_file", "ls"}`, the upstream pull request's own example), a tuple or a string
 * other than "all" falls through to all eight tools, and not even the `read_file` test runs. In a config file only
 * the string can occur; in Python source, the set and the tuple. Which runtime ignores what is the runtime's own
 * normalisation (`normalizeFilesystemTools`): names written, every tool kept.
 */
export const toolsNotList: Check = {
  code: "tools-not-list",
  severity: "warning",
  summary: "deepagents-py: a filesystem middleware's `tools` is not a list, so every filesystem tool stays.",
  run(context) {
    const model = context.model;
    for (const { middleware } of allFilesystemMiddleware(model)) {
      const tools = middleware.tools;
      if (!tools) continue;
      const node = tools.node as CollectionNode;
      const shape = node.collection ?? (node.type === "string" && node.value !== "all" ? "string" : undefined);
      if (!shape) continue;
      // The runtimes that read the names written as "every tool".
      const ignoring = context.runtimes.filter((r) => r.normalizeFilesystemTools(tools.value).all);
      if (ignoring.length === 0) continue;
      const names: string[] = shape === "string" ? [String(node.value)] : (node.children ?? []).map((c) => String(c.value));
      const meant = FILESYSTEM_TOOLS.filter((t) => names.includes(t) || t === "read_file");
      const fixes: ModelFix[] = [];
      // The string, set or tuple becomes the list it names, with read_file (unsafe: it takes tools away, as the
      // user meant). A set or tuple occurs only in source, whose front end writes the list in its own syntax.
      if (shape !== "string" || isFilesystemToolName(node.value)) {
        fixes.push({ title: `Change to ${JSON.stringify(meant)}`, operations: [replaceWith(node, meant)], safe: false });
      }
      const written = shape === "string" ? "a string" : `a ${shape}`;
      const runtime = ignoring[0]!.label.replace(/ .*$/, "");
      const others = ignoring.includes(model.runtime) ? "" : ` (${runtime} only)`;
      context.report({
        message: `The tools of ${middlewareLabel(model, middleware)} are ${written}, not a list: ${runtime} keeps all eight tools.`,
        detail: `${runtime} reads "tools" as an allowlist only when it is a list; anything else means every filesystem tool, and "read_file" is not required${others}. Write it as a list: ${JSON.stringify(meant)}.`,
        span: spanOf(node),
        fixes,
      });
    }
  },
};
