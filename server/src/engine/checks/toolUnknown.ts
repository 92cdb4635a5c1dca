import { allFilesystemMiddleware } from "../agents/backends";
import { middlewareLabel } from "../agents/agents";
import { spanOf } from "../config/parse";
import { removeArrayElement } from "../config/edits";
import { didYouMean } from "../didYouMean";
import type { Fix } from "../diagnostics";
import { FILESYSTEM_TOOLS } from "../runtime/runtime";
import type { Check } from "./check";

/** §4.1: the allowlist only knows the eight filesystem tools; any other name is silently ignored. */
export const toolUnknown: Check = {
  code: "tool-unknown",
  severity: "warning",
  summary: "A name in a filesystem middleware `tools` list that is not one of the eight filesystem tools: ignored.",
  run(context) {
    const model = context.model;
    const userTools = new Set(model.tools.map((t) => t.value));
    for (const s of model.subagents) for (const t of s.tools ?? []) userTools.add(t.value);
    // Thousands of subagents often repeat one list, and with it one misspelling: each name is looked up once.
    const suggestions = new Map<string, string | undefined>();
    const known = FILESYSTEM_TOOLS.join(", ");
    for (const { middleware } of allFilesystemMiddleware(model)) {
      const node = middleware.tools?.node;
      if (node?.type !== "array") continue;
      const items = node.children ?? [];
      const listed = new Set(items.map((i) => i.value));
      items.forEach((item, index) => {
        if (item.type !== "string" || (FILESYSTEM_TOOLS as readonly string[]).includes(item.value)) return;
        const name = item.value as string;
        let suggestion = suggestions.get(name);
        if (suggestion === undefined && !suggestions.has(name)) suggestions.set(name, (suggestion = didYouMean(name, FILESYSTEM_TOOLS)));
        const userNote = userTools.has(name) ? ` ${JSON.stringify(name)} is a user tool: user tools are never filtered by this allowlist (§4.1).` : "";
        const fixes: Fix[] = [];
        if (suggestion && !listed.has(suggestion)) fixes.push({ title: `Change to "${suggestion}"`, edits: [{ span: spanOf(item), newText: JSON.stringify(suggestion) }], safe: false });
        fixes.push({ title: `Remove ${JSON.stringify(name)}`, edits: [removeArrayElement(context.text, node, index)], safe: false });
        context.report({
          message: `${JSON.stringify(name)} is not a filesystem tool: ${model.runtime.label} silently ignores it in the \`tools\` of ${middlewareLabel(model, middleware)} (known: ${known}).${suggestion ? ` Did you mean "${suggestion}"?` : ""}${userNote}`,
          span: spanOf(item),
          fixes,
        });
      });
    }
  },
};
