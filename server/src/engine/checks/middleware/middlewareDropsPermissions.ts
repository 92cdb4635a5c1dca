import { customFilesystemMiddleware, isForked, middlewareLabel, subagentDefaultRules } from "../../agents/agents";
import { agentFilesystem } from "../../agents/backends";
import type { MiddlewareSpec, RuleListSpec } from "../../config/model";
import { addKey, copyOf } from "../../fixOperations";
import { property, propertyKeyNode, spanOf } from "../../config/parse";
import type { Check, CheckContext } from "../check";
import { addSubagentFilesystemMiddleware } from "../common/subagentFilesystemFix";

/**
 * docs/reference/tools-and-backends.md, docs/reference/subagents.md (deepagents #5388): a custom filesystem middleware replaces the default one as a whole
 * object. Without its own `permissions` it has none, whatever the agent was given; and a forked subagent that
 * inherits the parent's custom middleware loses its own `permissions`.
 */
export const middlewareDropsPermissions: Check = {
  code: "middleware-drops-permissions",
  severity: "warning",
  summary: "A custom filesystem middleware without `permissions`: the agent's rules silently stop applying.",
  run(context) {
    const model = context.model;
    const parentCustom = customFilesystemMiddleware(model.middleware);
    const top = model.permissions && model.permissions.rules.length > 0 ? model.permissions : undefined;
    const forks = model.subagents.filter((s) => isForked(model, s) && !customFilesystemMiddleware(s.middleware));
    if (parentCustom && top && !property(parentCustom.node, "permissions")) {
      const alsoForks = forks.length ? `, nor to the forked subagent${forks.length > 1 ? "s" : ""} ${forks.slice(0, 3).map((f) => JSON.stringify(f.name ?? `#${f.index}`)).join(", ")}${forks.length > 3 ? " …" : ""}` : "";
      report(context, parentCustom, top, `M${middlewareLabel(model, parentCustom).slice(1)} has no permissions: the top-level ${count(top)} no longer ${top.rules.length === 1 ? "applies" : "apply"} to the main agent.`, `${middlewareLabel(model, parentCustom)} replaces the default filesystem middleware as a whole object and has no "permissions": the ${count(top)} no longer ${top.rules.length === 1 ? "applies" : "apply"} to the main agent, nor to the general-purpose subagent (which inherits this middleware by name)${alsoForks}. Declarative subagents still get them (deepagents #5388).`);
    }
    for (const spec of model.subagents) {
      const own = customFilesystemMiddleware(spec.middleware);
      const label = JSON.stringify(spec.name ?? `#${spec.index}`);
      if (own) {
        if (property(own.node, "permissions")) continue;
        const rules = subagentDefaultRules(model, spec).list;
        if (!rules) continue;
        const whose = rules === model.permissions ? "the top-level rules it would inherit" : 'its own "permissions"';
        report(context, own, rules, `M${middlewareLabel(model, own).slice(1)} has no permissions: subagent ${label} loses its ${count(rules)}.`, `${middlewareLabel(model, own)} replaces subagent ${label}'s default filesystem middleware as a whole object and has no "permissions": ${whose} (${count(rules)}) no longer apply to it.`);
        continue;
      }
      if (!parentCustom || !isForked(model, spec) || spec.permissions.kind !== "list" || spec.permissions.list.rules.length === 0) continue;
      const rules = spec.permissions.list;
      const parentFs = agentFilesystem(model, { kind: "main", name: "main" });
      context.report({
        message: `Subagent ${label} is forked: its own permissions (${count(rules)}) are silently lost.`,
        detail: `It inherits the parent's custom filesystem middleware (${middlewareLabel(model, parentCustom)}), which replaces its default one, so its own "permissions" (${count(rules)}) are silently lost. Give it a filesystem middleware of its own that carries them.`,
        span: spanOf(propertyKeyNode(rules.node) ?? rules.node),
        related: [{ message: "the inherited middleware", span: spanOf(parentCustom.node) }],
        fixes: [
          {
            title: "Give the subagent its own filesystem middleware with these permissions",
            operations: [addSubagentFilesystemMiddleware(model, spec, parentFs.allowlist.tools, rules, parentCustom.backend?.node)],
            safe: false,
          },
        ],
      });
    }
  },
};

function count(rules: RuleListSpec): string {
  return `${rules.rules.length} rule${rules.rules.length === 1 ? "" : "s"}`;
}

function report(context: CheckContext, m: MiddlewareSpec, rules: RuleListSpec, message: string, detail: string): void {
  const typeNode = property(m.node, "type") ?? m.node;
  context.report({
    message,
    detail,
    span: spanOf(typeNode),
    related: [{ message: "the rules that stop applying", span: spanOf(propertyKeyNode(rules.node) ?? rules.node) }],
    fixes: [{ title: "Copy the rules into this middleware", operations: [addKey(m.node, "permissions", copyOf(rules.node))], safe: false }],
  });
}
