import { sandboxGuardOutcomes } from "../../agents/construction";
import { spanOf, type JsonNode } from "../../config/parse";
import type { Check } from "../check";

/**
 * docs/reference/routes.md (R1–R17): a composite backend with a sandbox default accepts path rules only when every path is
 * scoped to a route prefix under the runtime's predicate. Reported on each path the predicate rejects, and only
 * where the runtime actually refuses the configuration (so never for JS when `execute` is not allowlisted).
 */
export const permissionOutsideRoutes: Check = {
  code: "permission-outside-routes",
  severity: "error",
  summary: "A permission path not scoped to a route of a composite backend whose default can execute.",
  run(context) {
    const model = context.model;
    const runtime = model.runtime;
    const reported = new Set<JsonNode>();
    for (const outcome of sandboxGuardOutcomes(model)) {
      if (outcome.outcome !== "throws" || outcome.build.backend.shape.type !== "composite") continue;
      const prefixes = outcome.build.backend.shape.routes.map((r) => r.prefix);
      for (const { path, node } of outcome.unscoped) {
        if (reported.has(node)) continue;
        reported.add(node);
        const routes = prefixes.length ? `routes ${prefixes.map((p) => JSON.stringify(p)).join(", ")}` : "no routes at all";
        context.report({
          message: `${JSON.stringify(path)} is not scoped to a route of the composite backend: construction fails.`,
          detail: `${JSON.stringify(path)} is not scoped to a route of the composite backend (${routes}) under ${runtime.label}'s predicate (${runtime.routeScopingRule}), and the composite's default can execute shell commands: construction fails (permissions-with-sandbox).`,
          span: spanOf(node),
        });
      }
    }
  },
};

