import { describeBuiltFor, sandboxGuardOutcomes } from "../../agents/construction";
import { describeAgentBackend } from "../../agents/backends";
import { middlewareLabel } from "../../agents/agents";
import { propertyKeyNode, spanOf, type JsonNode } from "../../config/parse";
import type { Related } from "../../diagnostics";
import type { Check } from "../check";
import { patternTable } from "../common/patternTable";

/**
 * docs/reference/tools-and-backends.md: the runtime refuses to construct a filesystem middleware that has path rules and a backend that
 * can execute shell commands (a sandbox instance, or a composite with a sandbox default), unless every path is
 * scoped to a route. deepagents-js only when `execute` is allowlisted; deepagents-py always. Every filesystem
 * middleware the runtime builds counts: the default ones (still built when a custom one replaces them) and those
 * of subagents whose own `permissions` trigger it.
 */
export const permissionsWithSandbox: Check = {
  code: "permissions-with-sandbox",
  severity: "error",
  summary: "Path rules on a backend that can execute: the runtime refuses to construct the agent.",
  run(context) {
    const model = context.model;
    const runtime = model.runtime;
    const reported = new Set<JsonNode>();
    for (const outcome of sandboxGuardOutcomes(model)) {
      if (outcome.outcome !== "throws") continue;
      const { build } = outcome;
      const list = build.rules!;
      if (reported.has(list.node)) continue;
      reported.add(list.node);
      const who = build.custom ? `the filesystem ${middlewareLabel(model, build.custom)}` : `the default filesystem middleware of ${describeBuiltFor(build.builtFor)}`;
      const backendWords = describeAgentBackend(model, build.backend);
      const scoping =
        build.backend.shape.type !== "composite"
          ? "shell commands can reach any path, so path rules cannot hold"
          : build.backend.shape.routes.length === 0
            ? "the composite has no routes, and the runtime scopes no path to a composite without routes"
            : "not every permission path is scoped to one of its route prefixes";
      // The runtime stops at the first error of the build: the `tools` it refuses, or (before the middleware is
      // built) a permission path it refuses. Then this is the error that comes next, and the message says so
      // rather than claiming it is what the runtime throws now.
      const table = patternTable(context);
      const refusedPath = list.rules.some((rule) => Array.isArray(rule.input.paths) && rule.input.paths.some((p) => table.pathProblem(runtime, p) !== undefined));
      const refusedFactory = !!(build.backend.spec?.factory && runtime.backendFactoryRefusal);
      const earlierErrors = [
        ...(refusedPath ? ["the permission paths it refuses (path-… findings)"] : []),
        ...(build.allowlist.error ? ['the "tools" it refuses (read-file-required)'] : []),
        ...(refusedFactory ? ["the backend given as a factory (backend-factory-unsupported)"] : []),
      ];
      // "is" only for the backend alone; the paths and the tools are plural.
      const verb = earlierErrors.length === 1 && refusedFactory ? "is" : "are";
      const earlier = earlierErrors.length > 0 ? `${earlierErrors.join(" and ")} ${verb} fixed` : undefined;
      const notes: string[] = [];
      if (build.replacedBy) {
        notes.push(
          `The default filesystem middleware is still constructed with these permissions although ${middlewareLabel(model, build.replacedBy)} replaces it afterwards, so ${
            runtime.sandboxGuard.considersAllowlist ? "leaving execute out of that middleware's tools does not help" : "that middleware cannot avoid it"
          }.`,
        );
      }
      if (build.custom && !runtime.sandboxGuard.considersAllowlist && build.custom.tools !== undefined && !build.allowlist.tools.includes("execute")) {
        notes.push(`${runtime.label} ignores "tools" here: leaving execute out does not avoid it.`);
      }
      const related: Related[] = [];
      if (build.backend.spec) related.push({ message: "this backend can execute shell commands", span: spanOf(build.backend.spec.node) });
      if (build.replacedBy) related.push({ message: "this middleware replaces the default one, which is still built", span: spanOf(build.replacedBy.node) });
      context.report({
        message: `${runtime.label} refuses path rules on a backend that can execute shell commands.`,
        detail: `${runtime.label} refuses this configuration when it constructs ${who}: its backend is ${backendWords}, which can execute shell commands, and ${scoping}. ${earlier ? `Once ${earlier}, it throws` : "It throws"}: ${runtime.sandboxGuard.message}${notes.length ? ` ${notes.join(" ")}` : ""}`,
        span: spanOf(propertyKeyNode(list.node) ?? list.node),
        related,
      });
    }
  },
};
