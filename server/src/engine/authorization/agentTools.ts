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

/**
 * DeerFlow's own tools (deerflow-authorization.md A.3, lead agent steps 1 and 3: the built-ins `get_available_tools`
 * adds, `describe_skill`, the generated `tool_search`, `update_agent` for custom agents): a role written for DeerFlow
 * names them (A.1.4's guest allows `ask_clarification` and `present_files`), and they are real there, though no
 * agent of this file declares them. authz-tool-unknown does not call them unknown.
 */
export const DEERFLOW_FRAMEWORK_TOOLS: readonly string[] = [
  "present_files",
  "ask_clarification",
  "review_skill_package",
  "list_uploaded_files",
  "view_image",
  "skill_manage",
  "describe_skill",
  "tool_search",
  "update_agent",
  "invoke_acp_agent",
];
