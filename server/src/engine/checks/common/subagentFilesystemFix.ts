import type { ConfigModel, RuleListSpec, SubagentSpec } from "../../config/model";
import { property, type JsonNode } from "../../config/parse";
import { addKey, copyOf, insertElements, onePerLine, type FixOperation, type FixValue } from "../../fixOperations";

/**
 * Shared by the subagent checks' fixes (not a check): give a subagent a filesystem middleware of its own, with an
 * allowlist, and the rules and backend it has today, so that replacing its default middleware (a whole-object
 * swap, docs/reference/tools-and-backends.md) keeps what it had and only narrows its tools.
 */
export function addSubagentFilesystemMiddleware(
  model: ConfigModel,
  spec: SubagentSpec,
  tools: readonly string[],
  rules: RuleListSpec | undefined,
  backend: JsonNode | undefined = model.backend?.node,
  cache?: Map<string, FixValue>,
): FixOperation {
  // Thousands of subagents usually share one entry (the same rules, the same backend): one value, written once.
  const key = `${tools.join(",")}|${rules?.node.offset ?? ""}|${backend?.offset ?? ""}`;
  let entry = cache?.get(key);
  if (entry === undefined) {
    const members: Record<string, FixValue> = { type: "filesystem", tools };
    if (rules) members.permissions = copyOf(rules.node);
    if (backend) members.backend = copyOf(backend);
    entry = onePerLine(members);
    cache?.set(key, entry);
  }
  const list = property(spec.node, "middleware");
  if (list?.type === "array") return insertElements(list, (list.children ?? []).length, [entry]);
  let wrapped = cache?.get(`[${key}`);
  if (wrapped === undefined) {
    wrapped = onePerLine([entry]);
    cache?.set(`[${key}`, wrapped);
  }
  return addKey(spec.node, "middleware", wrapped);
}
