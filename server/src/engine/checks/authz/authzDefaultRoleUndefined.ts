import { blockNodesOf, entriesOf, issueNode } from "../../authorization/blockNodes";
import { pyStrListRepr, pySorted, pyStrRepr } from "../../authorization/python";
import { quotedText } from "../../config/describe";
import { property, spanOf } from "../../config/parse";
import { closeName } from "../../authorization/suggest";
import type { Check } from "../check";
import { replaceWith, type ModelFix } from "../../fixOperations";

/** Messages list at most this many role names; DeerFlow lists them all, which for a generated role map is unreadable. */
const MAX_LISTED_ROLES = 20;

/**
 * deerflow-authorization.md A.1.5 (runtime.py L50–56 + rbac.py L124–130): with the block enabled, DeerFlow's
 * factory checks `default_role` against the declared roles after constructing the provider, and refuses to build
 * the agent when it is not one of them. `default_role` defaults to "user".
 */
export const authzDefaultRoleUndefined: Check = {
  code: "authz-default-role-undefined",
  severity: "error",
  summary: "`default_role` is not one of the declared roles: DeerFlow refuses to build the agent.",
  run(context) {
    const block = blockNodesOf(context.model.authorization);
    if (!block) return;
    for (const issue of block.issues) {
      if (issue.kind !== "default-role-undefined") continue;
      const node = issueNode(block, issue);
      const defaultRoleNode = property(block.node, "default_role");
      const declared = block.roles.map((r) => r.role);
      let message = issue.message;
      // The provider's sorted list and its repr, as they are in the message (not sorted and printed again).
      const sorted = issue.knownRoles?.sorted ?? pySorted(entriesOf(block.rolesNode).map((e) => e.key));
      if (sorted.length > MAX_LISTED_ROLES) {
        const shortList = `[${sorted.slice(0, MAX_LISTED_ROLES).map(pyStrRepr).join(", ")}, …]`;
        message = message.replace(issue.knownRoles?.repr ?? pyStrListRepr(sorted), () => `${shortList} (${sorted.length} roles; list shortened)`); // a function: a role named `$&` is text
      }
      const implicit = defaultRoleNode ? "" : ' default_role is not set, so it is "user".';
      const fixes: ModelFix[] = [];
      if (defaultRoleNode?.type === "string" && defaultRoleNode.value !== "") {
        const suggestion = closeName(String(defaultRoleNode.value), declared);
        if (suggestion) fixes.push({ title: `Change to "${suggestion}"`, operations: [replaceWith(defaultRoleNode, suggestion)], safe: false });
      }
      context.report({
        message: `DeerFlow refuses to build the agent: the default role ${defaultRoleNode ? (defaultRoleNode.type === "string" && defaultRoleNode.value !== "" ? quotedText(String(defaultRoleNode.value)) : "written here") : '"user"'} is not a declared role.`,
        detail: `The default role (used when a request has no role) must be one of the roles declared here.${implicit} ${message}`,
        span: spanOf(node),
        fixes,
      });
    }
  },
};
