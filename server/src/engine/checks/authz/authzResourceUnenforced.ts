import { blockNodesOf, roleLabel } from "../../authorization/blockNodes";
import { CappedReporter } from "../common/cappedReporter";
import { UNENFORCED_RESOURCE_KEYS } from "../../authorization/rbac";
import { spanOf } from "../../config/parse";
import type { Check } from "../check";

/**
 * deerflow-authorization.md A.0 and "Things DeerFlow silently accepts" 4: `skills`, `sandbox` and `mcp_servers`
 * policies are validated by the RBAC provider, but no DeerFlow code asks for the `skill`, `sandbox` or `mcp_server`
 * resource yet (only `tool`, `model` and `route`), so they restrict nothing.
 */
export const authzResourceUnenforced: Check = {
  code: "authz-resource-unenforced",
  severity: "information",
  summary: "`skills`, `sandbox` and `mcp_servers` policies are validated but enforced nowhere yet.",
  run(context) {
    const block = blockNodesOf(context.model.authorization);
    if (!block) return;
    const out = new CappedReporter(context, block, "unenforced resource policies");
    for (const role of block.roles) {
      for (const resource of role.resources) {
        if (!UNENFORCED_RESOURCE_KEYS.includes(resource.key)) continue;
        const mcpHint = resource.key === "mcp_servers" ? " To restrict an MCP server's tools, list them under \"tools\" by their bound names (<server>_<tool>)." : "";
        out.report(() => ({
          message: `DeerFlow does not enforce "${resource.key}" policies yet: this restricts nothing.`,
          detail: `DeerFlow accepts "${resource.key}" policies but does not enforce them anywhere yet (only tools, models and routes are checked), so this does not restrict ${roleLabel(role.role)}.${mcpHint}`,
          span: spanOf(resource.keyNode),
        }));
      }
    }
    out.finish();
  },
};
