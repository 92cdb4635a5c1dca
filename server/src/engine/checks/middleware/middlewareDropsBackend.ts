import { customFilesystemMiddleware, middlewareLabel } from "../../agents/agents";
import { describeBackendShape } from "../../agents/backends";
import type { MiddlewareSpec } from "../../config/model";
import { addKey, copyOf } from "../../fixOperations";
import { property, spanOf } from "../../config/parse";
import type { Check } from "../check";

/**
 * docs/reference/tools-and-backends.md: a custom filesystem middleware without `backend` falls back to its own state backend, not the
 * agent's: its tools read and write somewhere else, and `execute` disappears even on a sandbox.
 */
export const middlewareDropsBackend: Check = {
  code: "middleware-drops-backend",
  severity: "warning",
  summary: "A custom filesystem middleware without `backend`: it silently falls back to a state backend.",
  run(context) {
    const model = context.model;
    const backend = model.backend;
    if (!backend) return;
    const words = describeBackendShape(backend, backend.provider, backend.name);
    const lost = model.runtime.canExecute(backend) ? " execute disappears, and" : "";
    const candidates: { m: MiddlewareSpec; who: string }[] = [];
    const top = customFilesystemMiddleware(model.middleware);
    if (top) candidates.push({ m: top, who: "the main agent and the general-purpose subagent (which inherits it by name)" });
    for (const spec of model.subagents) {
      const own = customFilesystemMiddleware(spec.middleware);
      if (own) candidates.push({ m: own, who: `subagent ${JSON.stringify(spec.name ?? `#${spec.index}`)}` });
    }
    for (const { m, who } of candidates) {
      if (property(m.node, "backend")) continue;
      const typeNode = property(m.node, "type") ?? m.node;
      context.report({
        message: `M${middlewareLabel(model, m).slice(1)} has no backend: it falls back to its own state backend.`,
        detail: `A custom filesystem middleware without "backend" uses its own state backend, not the agent's backend (${words}). For ${who},${lost} file tools read and write a separate, in-memory state.`,
        span: spanOf(typeNode),
        related: [{ message: "the agent's backend", span: spanOf(backend.node) }],
        fixes: [{ title: "Copy the agent's backend into this middleware", operations: [addKey(m.node, "backend", copyOf(backend.node))], safe: false }],
      });
    }
  },
};
