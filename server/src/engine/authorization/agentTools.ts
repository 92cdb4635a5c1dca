import type { ConfigModel, Located } from "../config/model";
import { FILESYSTEM_TOOLS } from "../runtime/runtime";

/**
 * Every tool name some agent in the file can have: the eight filesystem tools, `task` (always added, since the
 * general-purpose subagent always exists), the top-level user `tools` and each subagent's `tools`.
 */
export function agentToolNames(model: ConfigModel): Set<string> {
  const names = new Set<string>([...FILESYSTEM_TOOLS, "task"]);
  const add = (tools: readonly Located<string>[] | undefined) => {
    for (const t of tools ?? []) if (t.value !== "") names.add(t.value);
  };
  add(model.tools);
  for (const s of model.subagents) add(s.tools);
  return names;
}
