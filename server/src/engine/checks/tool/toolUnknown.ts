import { allFilesystemMiddleware } from "../../agents/backends";
import { middlewareLabel } from "../../agents/agents";
import { property, spanOf, type JsonNode } from "../../config/parse";
import { agentToolNames } from "../../authorization/agentTools";
import { removeElements, renameKey, replaceWith, type ModelFix } from "../../fixOperations";
import { didYouMean } from "../../didYouMean";
import { FILESYSTEM_TOOLS } from "../../runtime/runtime";
import type { Check } from "../check";

/**
 * docs/reference/tools-and-backends.md: the allowlist only knows the eight filesystem tools; any other name is silently ignored. So are the other
 * places a tool is named by key: a filesystem middleware's `toolDescriptions` (docs/reference/prompt.md: a description for a tool it
 * does not register goes nowhere) and an agent's `interruptOn` (a tool no agent has is never called, so the
 * approval the author asked for never happens).
 */
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
      const items = node?.type === "array" ? (node.children ?? []) : [];
      const listed = new Set(items.map((i) => i.value));
      items.forEach((item) => {
        if (item.type !== "string" || (FILESYSTEM_TOOLS as readonly string[]).includes(item.value)) return;
        const name = item.value as string;
        let suggestion = suggestions.get(name);
        if (suggestion === undefined && !suggestions.has(name)) suggestions.set(name, (suggestion = didYouMean(name, FILESYSTEM_TOOLS)));
        const userNote = userTools.has(name) ? ` ${JSON.stringify(name)} is a user tool: user tools are never filtered by this allowlist.` : "";
        const fixes: ModelFix[] = [];
        if (suggestion && !listed.has(suggestion)) fixes.push({ title: `Change to "${suggestion}"`, operations: [replaceWith(item, suggestion)], safe: false });
        fixes.push({ title: `Remove ${JSON.stringify(name)}`, operations: [removeElements(node!, item)], safe: false });
        context.report({
          message: `${JSON.stringify(name)} is not a filesystem tool: ${model.runtime.label} silently ignores it here.`,
          detail: `The tools of ${middlewareLabel(model, middleware)} name only filesystem tools (known: ${known}).${suggestion ? ` Did you mean "${suggestion}"?` : ""}${userNote}`,
          span: spanOf(item),
          fixes,
        });
      });
      for (const key of keysOf(property(middleware.node, "toolDescriptions"))) {
        const name = String(key.value);
        if ((FILESYSTEM_TOOLS as readonly string[]).includes(name)) continue;
        const suggestion = didYouMean(name, FILESYSTEM_TOOLS);
        context.report({
          message: `${JSON.stringify(name)} is not a filesystem tool: this description goes nowhere.`,
          detail: `${model.runtime.label} registers no tool of that name in ${middlewareLabel(model, middleware)} (known: ${known}).${suggestion ? ` Did you mean "${suggestion}"?` : ""}`,
          span: spanOf(key),
          fixes: suggestion ? [renameFix(key, suggestion)] : [],
        });
      }
    }
    // A custom middleware can bring tools this file does not name: then any name may be real.
    if (model.middleware.some((m) => m.type === "custom") || model.subagents.some((s) => s.middleware.some((m) => m.type === "custom"))) return;
    const names = agentToolNames(model);
    const candidates = [...names];
    const interrupts: { node: JsonNode | undefined; who: string }[] = [{ node: property(model.root, "interruptOn"), who: "the main agent" }];
    for (const s of model.subagents) interrupts.push({ node: property(s.node, "interruptOn"), who: `subagent ${JSON.stringify(s.name ?? `#${s.index}`)}` });
    for (const { node, who } of interrupts) {
      for (const key of keysOf(node)) {
        const name = String(key.value);
        if (names.has(name) || model.runtime.interruptibleBuiltInTools.includes(name)) continue;
        const suggestion = didYouMean(name, candidates);
        context.report({
          message: `No agent in this file has a tool named ${JSON.stringify(name)}: this interruptOn entry never fires.`,
          detail: `The interruptOn entry of ${who} never fires, and no call waits for approval because of it.${suggestion ? ` Did you mean "${suggestion}"?` : ""}`,
          span: spanOf(key),
          fixes: suggestion ? [renameFix(key, suggestion)] : [],
        });
      }
    }
  },
};

/** The key nodes of an object (none for anything else). */
function keysOf(node: JsonNode | undefined): JsonNode[] {
  if (node?.type !== "object") return [];
  return (node.children ?? []).flatMap((p) => (p.children?.[0] ? [p.children[0]] : []));
}

function renameFix(key: JsonNode, to: string): ModelFix {
  return { title: `Change to "${to}"`, operations: [renameKey(key, to)], safe: false };
}
