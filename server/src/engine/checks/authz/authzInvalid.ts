import { blockNodesOf, entriesOf, issueNode, nodeAtPath } from "../../authorization/blockNodes";
import { CappedReporter } from "../common/cappedReporter";
import { pydanticBool } from "../../authorization/python";
import type { RbacIssue } from "../../authorization/rbac";
import { removeKey, renameKey, replaceWith, type FixValue, type ModelFix } from "../../fixOperations";
import { property, propertyKeyNode, spanOf, type JsonNode } from "../../config/parse";
import { closeName } from "../../authorization/suggest";
import type { Check } from "../check";

/**
 * deerflow-authorization.md A.1.5: every construction-time `ValueError` of DeerFlow's RBAC provider, with its
 * message word for word. DeerFlow raises it while resolving the provider, on every agent build, and the build
 * fails whatever `fail_closed` says.
 */
export const authzInvalid: Check = {
  code: "authz-invalid",
  severity: "error",
  summary: "DeerFlow's RBAC provider refuses this authorization block at construction (its message, word for word).",
  run(context) {
    const block = blockNodesOf(context.model.authorization);
    if (!block) return;
    const enabled = pydanticBool(property(block.node, "enabled")?.value) ?? false;
    const prefix = enabled
      ? "DeerFlow refuses to build the agent: its RBAC provider raises at construction, whatever fail_closed says."
      : "With \"enabled\": true, DeerFlow would refuse to build the agent: its RBAC provider raises at construction.";
    const short = (issue: RbacIssue) => {
      const where = issue.role === undefined ? "the roles" : issue.resourceKey === undefined ? `role ${JSON.stringify(issue.role)}` : `role ${JSON.stringify(issue.role)}, resource ${JSON.stringify(issue.resourceKey)}`;
      return enabled ? `DeerFlow refuses to build the agent: its RBAC provider rejects ${where}.` : `With "enabled": true, DeerFlow would refuse to build the agent over ${where}.`;
    };
    const out = new CappedReporter(context, block, "invalid entries");
    for (const issue of block.issues) {
      if (issue.kind !== "invalid") continue;
      out.report(() => {
        const node = issueNode(block, issue);
        // An error is what the runtime refuses; a disabled block is never constructed, so there it is a warning
        // about the day it is turned on.
        return { message: short(issue), detail: `${prefix} ${issue.message}`, span: spanOf(node), fixes: fixesFor(block.node, issue, node), ...(enabled ? {} : { severity: "warning" as const }) };
      });
    }
    out.finish();
  },
};

function rename(keyNode: JsonNode, to: string): ModelFix {
  return { title: `Rename to "${to}"`, operations: [renameKey(keyNode, to)], safe: false };
}

function replaceBy(node: JsonNode, title: string, value: FixValue): ModelFix {
  return { title, operations: [replaceWith(node, value)], safe: false };
}

function fixesFor(root: JsonNode, issue: RbacIssue, node: JsonNode): ModelFix[] {
  switch (issue.rule) {
    case "reserved-alias": {
      // `tool:` → `tools:`, unless the role already has `tools` (then the two must be merged by hand).
      const roleNode = nodeAtPath(root, ["roles", issue.role!]);
      if (!issue.pluralKey || entriesOf(roleNode).some((e) => e.key === issue.pluralKey)) return [];
      return [rename(node, issue.pluralKey)];
    }
    case "policy-keys": {
      const policyNode = nodeAtPath(root, ["roles", issue.role!, issue.resourceKey!]);
      const present = new Set(entriesOf(policyNode).map((e) => e.key));
      const fixes: ModelFix[] = [];
      for (const key of issue.unknownKeys ?? []) {
        const suggestion = closeName(key, ["allow", "deny"]);
        const keyNode = nodeAtPath(policyNode, [key]);
        const keyOfIt = keyNode && propertyKeyNode(keyNode);
        if (suggestion && !present.has(suggestion) && keyOfIt) {
          fixes.push(rename(keyOfIt, suggestion));
          present.add(suggestion);
        }
      }
      return fixes;
    }
    case "allow-string": {
      const value = String(node.value);
      const wrap = replaceBy(node, `Allow only ${JSON.stringify(value)}: ${JSON.stringify([value])}`, [value]);
      const star = replaceBy(node, 'Allow everything: "*"', "*");
      return /^(all|any|every(thing)?|\*\*|true|yes)$/i.test(value.trim()) ? [star] : [wrap];
    }
    case "deny-type":
      return node.type === "string" && node.value !== ""
        ? [replaceBy(node, `Wrap in a list: ${JSON.stringify([node.value])}`, [node.value as string])]
        : [];
    case "deny-null": {
      // DeerFlow's own advice: omit the key for no deny list.
      const removal = removeKey(node);
      return removal ? [{ title: 'Remove "deny"', operations: [removal], safe: true }] : [];
    }
    default:
      return [];
  }
}
