import { removeKey, replaceWith, type ModelFix } from "../../fixOperations";
import { deepagentsJs, deepagentsPy } from "../../runtime";
import { spanOf } from "../../config/parse";
import type { Check } from "../check";

/** docs/reference/subagents.md: `permissions: null` inherits the parent's rules in deepagents-js (`??`) and means unrestricted in deepagents-py. */
export const subagentPermissionsNull: Check = {
  code: "subagent-permissions-null",
  severity: "information",
  summary: "`permissions: null` on a subagent: JS inherits the parent's rules, Python means unrestricted.",
  run(context) {
    const model = context.model;
    for (const spec of model.subagents) {
      if (spec.permissions.kind !== "null") continue;
      const node = spec.permissions.node;
      const meanings = [deepagentsJs, deepagentsPy].map((r) => `${r.label}: ${r.nullSubagentPermissions === "inherit" ? "inherits the parent's rules" : "no rules at all (unrestricted)"}`);
      const remove = removeKey(node);
      const inherit: ModelFix = { title: 'Remove "permissions" (inherit the parent\'s rules in every runtime)', operations: remove ? [remove] : [], safe: false };
      const unrestricted: ModelFix = { title: "Change to [] (unrestricted in every runtime)", operations: [replaceWith(node, [])], safe: false };
      // Where null inherits and there is something to inherit, [] would free the subagent of the parent's rules in
      // the config's own runtime (a subagent-escalation): only the fix that keeps its meaning there is offered.
      const parentRules = (model.permissions?.rules.length ?? 0) > 0;
      const offered = model.runtime.nullSubagentPermissions === "inherit" ? (parentRules ? [inherit] : [inherit, unrestricted]) : [unrestricted, inherit];
      const fixes = offered.filter((f) => f.operations.length > 0);
      context.report({
        message: `"permissions": null means different things in each runtime.`,
        detail: `${meanings.join("; ")}. Say what you mean: omit the key to inherit, or write [] for no rules.`,
        span: spanOf(node),
        fixes,
      });
    }
  },
};
