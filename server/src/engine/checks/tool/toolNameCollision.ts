import { spanOf } from "../../config/parse";
import { FILESYSTEM_TOOLS } from "../../runtime/runtime";
import type { Check } from "../check";

/**
 * docs/reference/tools-and-backends.md: `createDeepAgent` refuses top-level user tools named like a built-in tool (`TOOL_NAME_COLLISION`:
 * the eight filesystem tools, `task`, the async-task tools). A subagent's own `tools` are not checked at
 * construction; such a name fails only when that agent runs.
 */
export const toolNameCollision: Check = {
  code: "tool-name-collision",
  severity: "error",
  summary: "A user tool named like a built-in tool.",
  run(context) {
    const model = context.model;
    const rule = model.runtime.toolNameCollision;
    const builtIn = new Set(rule.names);
    const colliding = model.tools.filter((t) => builtIn.has(t.value));
    const names = [...new Set(colliding.map((t) => t.value))];
    for (const tool of colliding) {
      context.report({
        severity: rule.refusesAtConstruction ? "error" : "warning",
        message: rule.refusesAtConstruction
          ? `${JSON.stringify(tool.value)} is the name of a built-in tool: ${model.runtime.label} refuses to construct the agent.`
          : `${JSON.stringify(tool.value)} is the name of a built-in tool: rename the user tool.`,
        detail: rule.refusesAtConstruction ? `It throws: ${rule.message(names)}` : `${rule.message(names)}.`,
        span: spanOf(tool.node),
      });
    }
    // Subagents: the filesystem tools and `task` clash with what their middleware adds; nothing checks it early.
    const subagentClash = new Set<string>([...FILESYSTEM_TOOLS, ...rule.names]);
    for (const s of model.subagents) {
      for (const tool of s.tools ?? []) {
        if (!subagentClash.has(tool.value)) continue;
        context.report({
          severity: "warning",
          message: `${JSON.stringify(tool.value)} is the name of a built-in tool: subagent ${JSON.stringify(s.name ?? `#${s.index}`)} fails when it runs.`,
          detail: `${model.runtime.label} does not check a subagent's own tools at construction: subagent ${JSON.stringify(s.name ?? `#${s.index}`)} fails only when it runs. Rename the user tool.`,
          span: spanOf(tool.node),
        });
      }
    }
  },
};
