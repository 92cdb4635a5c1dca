import { agentsOf, rulesForAgent } from "../../agents/agents";
import { agentFilesystem, allFilesystemMiddleware } from "../../agents/backends";
import { describeBuiltFor, sandboxGuardOutcome, type FilesystemMiddlewareBuild } from "../../agents/construction";
import type { RuleListSpec } from "../../config/model";
import { propertyKeyNode, spanOf } from "../../config/parse";
import type { Check } from "../check";

/**
 * docs/reference/tools-and-backends.md (deepagents-js): the construction guard skips a backend given as a factory function, so the agent is
 * built, but at call time `execute` finds permissions on a backend that is not route-scoped and answers an error,
 * every time. Reported for the rule lists that reach such an agent's filesystem middleware.
 */
export const permissionsWithSandboxFactory: Check = {
  code: "permissions-with-sandbox-factory",
  severity: "warning",
  summary: "Path rules with a sandbox given as a factory: no error at construction, but every `execute` call fails.",
  run(context) {
    const model = context.model;
    const runtime = model.runtime;
    const message = runtime.sandboxGuard.factoryExecuteMessage;
    if (!runtime.sandboxGuard.skipsFactories || !message) return;
    // Only a backend handed over as a function skips the guard: nothing to do without one.
    if (!model.backend?.factory && !allFilesystemMiddleware(model).some((m) => m.middleware.backend?.factory)) return;
    const affected = new Map<RuleListSpec, string[]>();
    for (const agent of agentsOf(model)) {
      const rules = rulesForAgent(model, agent).list;
      if (!rules) continue;
      const fs = agentFilesystem(model, agent);
      const build: FilesystemMiddlewareBuild = { builtFor: [agent.name], custom: fs.custom, backend: fs.backend, rules, allowlist: fs.allowlist };
      if (sandboxGuardOutcome(model, build)?.outcome !== "factory") continue;
      const agents = affected.get(rules) ?? [];
      agents.push(agent.name);
      affected.set(rules, agents);
    }
    for (const [rules, agents] of affected) {
      const many = agents.length > 1;
      context.report({
        message: "Every execute call fails: these permissions meet a sandbox backend given as a factory.",
        detail: `${describeBuiltFor(agents)} ${many ? "use" : "uses"} a sandbox given as a factory, so ${runtime.label} does not refuse these permissions at construction; but execute stays visible and every call answers: "${message}"`,
        span: spanOf(propertyKeyNode(rules.node) ?? rules.node),
      });
    }
  },
};
