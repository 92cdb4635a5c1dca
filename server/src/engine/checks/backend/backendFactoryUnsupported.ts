import { allFilesystemMiddleware } from "../../agents/backends";
import { middlewareLabel } from "../../agents/agents";
import type { BackendSpec } from "../../config/model";
import { property, spanOf } from "../../config/parse";
import { removeKey } from "../../fixOperations";
import type { Check } from "../check";
import { runtimeLabelFor } from "../../runtime/runtime";

/**
 * docs/reference/tools-and-backends.md (deepagents-py): 0.7 removed backend factories. `FilesystemMiddleware.__init__` raises `TypeError` for a
 * backend that is a function, with or without permissions, before any other test of the backend: the agent is
 * never built. (deepagents-js takes factories; with permissions that is permissions-with-sandbox-factory.)
 */
export const backendFactoryUnsupported: Check = {
  code: "backend-factory-unsupported",
  severity: "error",
  summary: "A backend given as a factory: deepagents-py 0.7 refuses it when it builds the filesystem middleware.",
  run(context) {
    const model = context.model;
    const backends: { spec: BackendSpec; whose: string }[] = [];
    if (model.backend?.factory) backends.push({ spec: model.backend, whose: "the agent's filesystem middleware" });
    for (const { middleware } of allFilesystemMiddleware(model)) {
      if (middleware.backend?.factory) backends.push({ spec: middleware.backend, whose: `the filesystem ${middlewareLabel(model, middleware)}` });
    }
    if (backends.length === 0) return;
    for (const runtime of context.runtimes) {
      const refusal = runtime.backendFactoryRefusal;
      if (!refusal) continue;
      const who = runtimeLabelFor(runtime, model);
      for (const { spec, whose } of backends) {
        const factoryNode = property(spec.node, "factory");
        const removal = factoryNode && removeKey(factoryNode);
        context.report({
          message: `${who} takes no backend factories: it refuses this backend when it builds the agent.`,
          detail: `Constructing ${whose}, it raises ${refusal}`,
          span: spanOf(factoryNode?.parent ?? spec.node),
          fixes: removal ? [{ title: 'Give the backend as an instance: remove "factory": true', operations: [removal], safe: false }] : [],
        });
      }
    }
  },
};
