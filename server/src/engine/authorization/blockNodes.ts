import { property, propertyKeyNode, type JsonNode } from "../config/parse";
import { rbacConstructionIssues, type RbacIssue } from "./rbac";
import { memo } from "../caches";

/**
 * The `authorization` block as the checks walk it: every role, every resource policy, with the nodes to report
 * on. A repeated key behaves as in DeerFlow's YAML loader (and `JSON.parse`): the last value wins.
 */
export interface Entry {
  key: string;
  keyNode: JsonNode;
  valueNode: JsonNode;
}

/** The effective properties of an object node: one per key, the last value, in order of first appearance. */
export function entriesOf(node: JsonNode | undefined): Entry[] {
  if (node?.type !== "object") return [];
  const children = node.children ?? [];
  const out: Entry[] = [];
  const byKey = children.length > 8 ? new Map<string, Entry>() : undefined;
  for (const prop of children) {
    const keyNode = prop.children?.[0];
    const valueNode = prop.children?.[1];
    if (!keyNode || !valueNode || typeof keyNode.value !== "string") continue;
    const existing = byKey ? byKey.get(keyNode.value) : out.find((e) => e.key === keyNode.value);
    if (existing) {
      existing.keyNode = keyNode;
      existing.valueNode = valueNode;
    } else {
      const entry = { key: keyNode.value as string, keyNode, valueNode };
      out.push(entry);
      byKey?.set(entry.key, entry);
    }
  }
  return out;
}

const propertyIndex = memo<JsonNode, Map<string, JsonNode>>("authorization/blockNodes.propertyIndex");

/** `property()`, through a per-object index: a role map can have thousands of keys and be asked about each one. */
function indexedProperty(node: JsonNode, key: string): JsonNode | undefined {
  if (node.type !== "object") return undefined;
  if ((node.children?.length ?? 0) < 16) return property(node, key);
  let index = propertyIndex.get(node);
  if (!index) {
    index = new Map();
    for (const prop of node.children ?? []) {
      const [k, v] = prop.children ?? [];
      if (k && v && typeof k.value === "string") index.set(k.value, v);
    }
    propertyIndex.set(node, index);
  }
  return index.get(key);
}

/** The node at a path of keys and indices below `root` (last value wins for repeated keys). */
export function nodeAtPath(root: JsonNode | undefined, path: readonly (string | number)[]): JsonNode | undefined {
  let node = root;
  for (const segment of path) {
    if (!node) return undefined;
    if (typeof segment === "number") node = node.type === "array" ? node.children?.[segment] : undefined;
    else node = indexedProperty(node, segment);
  }
  return node;
}

/** One resource policy of one role: `roles.<role>.<resourceKey>` when it is an object. */
export interface PolicyNodes {
  role: string;
  roleKeyNode: JsonNode;
  resourceKey: string;
  resourceKeyNode: JsonNode;
  policyNode: JsonNode;
  allowNode?: JsonNode;
  denyNode?: JsonNode;
}

export interface RoleNodes {
  role: string;
  keyNode: JsonNode;
  bodyNode: JsonNode;
  /** The role's resource keys (any value). */
  resources: Entry[];
}

export interface BlockNodes {
  node: JsonNode;
  rolesNode?: JsonNode;
  roles: RoleNodes[];
  policies: PolicyNodes[];
  issues: RbacIssue[];
}

const cache = memo<JsonNode, BlockNodes>("authorization/blockNodes.blockNodes");

/** The walk of an `authorization` object node, computed once per parsed file and shared by every authz check. */
export function blockNodesOf(authorization: JsonNode | undefined): BlockNodes | undefined {
  if (authorization?.type !== "object") return undefined;
  const cached = cache.get(authorization);
  if (cached) return cached;
  const rolesNode = property(authorization, "roles");
  const roles: RoleNodes[] = [];
  const policies: PolicyNodes[] = [];
  for (const role of entriesOf(rolesNode)) {
    if (role.valueNode.type !== "object") continue;
    const resources = entriesOf(role.valueNode);
    roles.push({ role: role.key, keyNode: role.keyNode, bodyNode: role.valueNode, resources });
    for (const resource of resources) {
      if (resource.valueNode.type !== "object") continue;
      // `property(…, "allow")` and `property(…, "deny")` in one pass (last one wins): this runs once per policy.
      let allowNode: JsonNode | undefined;
      let denyNode: JsonNode | undefined;
      for (const prop of resource.valueNode.children ?? []) {
        const key = prop.children?.[0]?.value;
        if (key === "allow") allowNode = prop.children![1];
        else if (key === "deny") denyNode = prop.children![1];
      }
      policies.push({
        role: role.key,
        roleKeyNode: role.keyNode,
        resourceKey: resource.key,
        resourceKeyNode: resource.keyNode,
        policyNode: resource.valueNode,
        allowNode,
        denyNode,
      });
    }
  }
  const result: BlockNodes = { node: authorization, rolesNode, roles, policies, issues: rbacConstructionIssues(authorization) };
  cache.set(authorization, result);
  return result;
}

/** The node a construction issue belongs on (its key or its value), falling back to the block's own key. */
export function issueNode(block: BlockNodes, issue: RbacIssue): JsonNode {
  const node = nodeAtPath(block.node, issue.jsonPath);
  if (node) {
    if (issue.on === "key") return propertyKeyNode(node) ?? node;
    return node;
  }
  return propertyKeyNode(block.node) ?? block.node;
}

/** Whether an `allow`/`deny` list has a string item that passes `test` (no allocation: most lists have none). */
export function someString(node: JsonNode | undefined, test: (value: string) => boolean): boolean {
  if (node?.type !== "array") return false;
  for (const child of node.children ?? []) if (child.type === "string" && child.value !== "" && test(child.value as string)) return true;
  return false;
}

/** The string items of an `allow`/`deny` list, with their nodes. */
export function listStrings(node: JsonNode | undefined): { value: string; node: JsonNode; index: number }[] {
  if (node?.type !== "array") return [];
  const out: { value: string; node: JsonNode; index: number }[] = [];
  (node.children ?? []).forEach((child, index) => {
    if (child.type === "string" && child.value !== "") out.push({ value: child.value as string, node: child, index });
  });
  return out;
}

/** "role "guest"" / "role "guest", tools" for messages. */
export function roleLabel(role: string): string {
  return `role ${JSON.stringify(role)}`;
}
