import type { ConfigModel, RuleListSpec, SubagentSpec } from "../config/model";
import { appendArrayElement, insertProperty, nodeText, reindent } from "../config/objectEdits";
import { property, type JsonNode } from "../config/parse";
import type { Edit } from "../diagnostics";

/**
 * Shared by the subagent checks' fixes (not a check): give a subagent a filesystem middleware of its own, with an
 * allowlist, and the rules and backend it has today, so that replacing its default middleware (a whole-object
 * swap, docs/reference/tools-and-backends.md) keeps what it had and only narrows its tools.
 */
export function addSubagentFilesystemMiddleware(
  text: string,
  model: ConfigModel,
  spec: SubagentSpec,
  tools: readonly string[],
  rules: RuleListSpec | undefined,
  backend: JsonNode | undefined = model.backend?.node,
  cache?: Map<string, string>,
): Edit {
  // Thousands of subagents usually share one entry (the same rules, the same backend): build its text once.
  const key = `${tools.join(",")}|${rules?.node.offset ?? ""}|${backend?.offset ?? ""}`;
  let entry = cache?.get(key);
  if (entry === undefined) {
    const members = [`"type": "filesystem"`, `"tools": ${JSON.stringify(tools).replace(/","/g, '", "')}`];
    if (rules) members.push(`"permissions": ${reindent(nodeText(text, rules.node), "  ")}`);
    if (backend) members.push(`"backend": ${reindent(nodeText(text, backend), "  ")}`);
    entry = `{\n  ${members.join(",\n  ")}\n}`;
    cache?.set(key, entry);
  }
  const list = property(spec.node, "middleware");
  if (list?.type === "array") return appendArrayElement(text, list, entry);
  let wrapped = cache?.get(`[${key}`);
  if (wrapped === undefined) {
    wrapped = `[\n  ${reindent(entry, "  ")}\n]`;
    cache?.set(`[${key}`, wrapped);
  }
  return insertProperty(text, spec.node, "middleware", wrapped);
}
