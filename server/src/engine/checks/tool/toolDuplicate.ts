import { allFilesystemMiddleware } from "../../agents/backends";
import { removeElements } from "../../fixOperations";
import { property, spanOf, type JsonNode } from "../../config/parse";
import type { Check } from "../check";

/** A tool name listed twice in one list (a filesystem allowlist, or user `tools`): the second one does nothing. */
export const toolDuplicate: Check = {
  code: "tool-duplicate",
  severity: "hint",
  summary: "A tool listed twice in one list.",
  run(context) {
    const model = context.model;
    const lists: JsonNode[] = [];
    for (const { middleware } of allFilesystemMiddleware(model)) if (middleware.tools?.node.type === "array") lists.push(middleware.tools.node);
    const top = property(model.root, "tools");
    if (top?.type === "array") lists.push(top);
    for (const s of model.subagents) {
      const own = property(s.node, "tools");
      if (own?.type === "array") lists.push(own);
    }
    for (const list of lists) {
      const seen = new Map<string, JsonNode>();
      (list.children ?? []).forEach((item) => {
        if (item.type !== "string") return;
        const first = seen.get(item.value);
        if (!first) {
          seen.set(item.value, item);
          return;
        }
        context.report({
          message: `${JSON.stringify(item.value)} is already listed: this entry changes nothing.`,
          span: spanOf(item),
          related: [{ message: "first listed here", span: spanOf(first) }],
          tags: ["unnecessary"],
          fixes: [{ title: `Remove the duplicate ${JSON.stringify(item.value)}`, operations: [removeElements(list, item)], safe: true }],
        });
      });
    }
  },
};
