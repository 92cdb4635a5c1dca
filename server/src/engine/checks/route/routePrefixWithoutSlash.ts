import { allBackends } from "../../agents/backends";
import { spanOf } from "../../config/parse";
import type { Check } from "../check";
import { renameKey } from "../../fixOperations";

/**
 * docs/reference/routes.md, routing by prefix: `CompositeBackend` assumes route prefixes end in `/`. A route `/memories` also receives
 * `/memoriesX/…` (a plain string prefix, stripped to `/X/…`), and the route-scoping predicates disagree about it
 * (R7). A single-file mount (`/instructions.md`) is the exception.
 */
export const routePrefixWithoutSlash: Check = {
  code: "route-prefix-without-slash",
  severity: "warning",
  summary: "A composite route that does not end in `/`: it also captures sibling paths that share the prefix.",
  run(context) {
    for (const backend of allBackends(context.model)) {
      for (const route of backend.routes) {
        const prefix = route.prefix;
        if (prefix.endsWith("/") || isFileMount(prefix)) continue;
        const fixed = `${prefix}/`;
        context.report({
          message: `The route ${JSON.stringify(prefix)} does not end in "/": it also captures sibling paths.`,
          detail: `The composite backend matches routes as plain string prefixes, so ${JSON.stringify(`${prefix}X/file`)} is also sent to this backend (as ${JSON.stringify("/X/file")}). Write ${JSON.stringify(fixed)}, unless this route mounts a single file.`,
          span: spanOf(route.keyNode),
          fixes: [{ title: `Change to ${JSON.stringify(fixed)}`, operations: [renameKey(route.keyNode, fixed)], safe: false }],
        });
      }
    }
  },
};

/** A route whose last segment looks like a file name (`/instructions.md`): a single-file mount. */
function isFileMount(prefix: string): boolean {
  const last = prefix.split("/").at(-1) ?? "";
  return /^[^.].*\.[A-Za-z0-9]+$/.test(last);
}
