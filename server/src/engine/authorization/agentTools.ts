import type { ConfigModel, Located } from "../config/model";

/** The eight filesystem tools of deepagents (config-format.md, `middleware.tools`). */
export const FILESYSTEM_TOOL_NAMES: readonly string[] = ["ls", "read_file", "write_file", "edit_file", "delete", "glob", "grep", "execute"];

/**
 * Every tool name some agent in the file can have: the eight filesystem tools, `task` (always added, since the
 * general-purpose subagent always exists), the top-level user `tools` and each subagent's `tools`.
 */
export function agentToolNames(model: ConfigModel): Set<string> {
  const names = new Set<string>([...FILESYSTEM_TOOL_NAMES, "task"]);
  const add = (tools: readonly Located<string>[] | undefined) => {
    for (const t of tools ?? []) if (t.value !== "") names.add(t.value);
  };
  add(model.tools);
  for (const s of model.subagents) add(s.tools);
  return names;
}
