/**
 * DeerFlow's `config.yaml` as a config model. The authorization block sits there as DeerFlow reads it
 * (`authorization.{enabled, fail_closed, default_role, provider.{use, config.roles}}`, docs/reference/deerflow-rbac.md);
 * the checks read the flattened block of the JSONC format (`{ enabled, fail_closed, default_role, roles }`), so the
 * model gets an `authorization` node made of the YAML's own nodes: the block's keys, and `roles` taken from
 * `provider.config`. Every finding of the authz-* checks then lands at its YAML span, with the same words.
 *
 * The model's user `tools` are the names of DeerFlow's `tools:` entries, so that authz-tool-unknown knows the
 * tools a role may name, as it knows them from the `tools` of the equivalent agent-sandbox.jsonc.
 */
import { pydanticBool, pyRepr, pyStrListRepr, pySortedByRepr, pyTypeName } from "../authorization/python";
import { RBAC_PROVIDER_PATH } from "../authorization/rbac";
import { buildModel, type ConfigModel } from "../config/model";
import { property, propertyKeyNode, spanOf, type JsonNode } from "../config/parse";
import type { Finding, Skipped } from "../diagnostics";

export interface DeerFlowConfig {
  model: ConfigModel;
  /** Findings the flattened block cannot carry: the provider's own keys (authz-invalid, DeerFlow's words). */
  findings: Finding[];
  /** Said once when the block is not checked (a provider other than DeerFlow's RBAC). */
  skipped: Skipped[];
}

const REFUSES = "DeerFlow refuses to build the agent: its RBAC provider raises at construction, whatever fail_closed says.";
const WOULD_REFUSE = 'With "enabled": true, DeerFlow would refuse to build the agent: its RBAC provider raises at construction.';

/** The config model of a DeerFlow config.yaml's value tree (its first document's root mapping). */
export function deerFlowConfigOf(root: JsonNode): DeerFlowConfig {
  const findings: Finding[] = [];
  const skipped: Skipped[] = [];
  const children: JsonNode[] = [];
  const syntheticRoot: JsonNode = { type: "object", offset: root.offset, length: root.length, children };
  const authorization = property(root, "authorization");
  if (authorization?.type === "object") {
    const flat = flattenedAuthorization(authorization, findings, skipped);
    if (flat) children.push(syntheticProperty(propertyKeyNode(authorization), flat, syntheticRoot));
  }
  const tools = property(root, "tools");
  if (tools?.type === "array") {
    // `tools: [{name, group, use}, …]`: the names, each at its own span.
    const names: JsonNode[] = [];
    const list: JsonNode = { type: "array", offset: tools.offset, length: tools.length, children: names };
    for (const entry of tools.children ?? []) {
      const name = property(entry, "name");
      if (name?.type === "string") names.push(name);
    }
    children.push(syntheticProperty(propertyKeyNode(tools), list, syntheticRoot));
  }
  const model = buildModel(syntheticRoot);
  return { model, findings, skipped };
}

function syntheticProperty(keyNode: JsonNode | undefined, value: JsonNode, parent: JsonNode): JsonNode {
  const key = keyNode ?? { type: "string", value: "", offset: value.offset, length: 0 };
  const prop: JsonNode = { type: "property", offset: key.offset, length: value.offset + value.length - key.offset, parent, children: [key, value] };
  (value as { parent?: JsonNode }).parent = prop;
  return prop;
}

/**
 * `{ enabled, fail_closed, default_role, roles }` of the YAML block, or `undefined` when the checks have nothing
 * of DeerFlow's RBAC to read: another provider's `config` is not RBAC's, and an enabled block without a provider
 * fails before any role is read (said here, in DeerFlow's words).
 */
function flattenedAuthorization(block: JsonNode, findings: Finding[], skipped: Skipped[]): JsonNode | undefined {
  const enabled = pydanticBool(property(block, "enabled")?.value) ?? false;
  const children: JsonNode[] = [];
  const flat: JsonNode = { type: "object", offset: block.offset, length: block.length, children };
  // DeerFlow reads `roles` only under `provider.config`; a `roles` written beside `enabled` is ignored by it (and here).
  for (const prop of block.children ?? []) {
    const key = prop.children?.[0]?.value;
    if (key !== "provider" && key !== "roles") children.push(prop);
  }
  const provider = property(block, "provider");
  const keyOf = (node: JsonNode) => propertyKeyNode(node) ?? node;
  if (provider === undefined || provider.type === "null") {
    if (!enabled) return flat;
    findings.push({
      code: "authz-invalid",
      severity: "error",
      message: "DeerFlow refuses to build the agent: the authorization block is enabled but names no provider.",
      detail: "DeerFlow raises: authorization.enabled is true but no provider is configured; set authorization.provider.use to a class path",
      span: spanOf(keyOf(block)),
    });
    return undefined;
  }
  const use = property(provider, "use");
  if (use?.type === "string" && use.value !== RBAC_PROVIDER_PATH) {
    skipped.push({
      checks: ["authz-invalid", "authz-default-role-undefined", "authz-resource-unknown", "authz-resource-unenforced", "authz-literal-star", "authz-literal-glob", "authz-tool-unknown", "authz-deny-all"],
      what: "the authorization provider's configuration",
      why: `the provider is ${String(use.value)}, not DeerFlow's RBAC provider, and its configuration means what that class makes of it`,
      span: spanOf(use),
    });
    return undefined;
  }
  const config = property(provider, "config");
  const roles = property(config, "roles");
  if (roles) {
    const rolesProp = roles.parent!;
    children.push(rolesProp);
    nonStringKeys(roles, enabled, findings);
  }
  // `RbacAuthorizationProvider(**config)` takes `roles` only: any other key is refused before the roles are read.
  const unknown = (config?.type === "object" ? config.children ?? [] : []).map((p) => p.children?.[0]).filter((k): k is JsonNode => !!k && k.value !== "roles");
  if (unknown.length > 0) {
    const names = pySortedByRepr([...new Set(unknown.map((k) => String(k.value)))]);
    findings.push({
      code: "authz-invalid",
      severity: enabled ? "error" : "warning",
      message: enabled ? "DeerFlow refuses to build the agent: its RBAC provider rejects the provider config." : 'With "enabled": true, DeerFlow would refuse to build the agent over the provider config.',
      detail: `${enabled ? REFUSES : WOULD_REFUSE} unknown provider config keys ${pyStrListRepr(names)}; supported: ['roles']`,
      span: spanOf(unknown[0]!),
    });
  }
  return flat;
}

/**
 * Keys YAML reads as something other than a string (`no:` and `on:` are booleans in YAML 1.1, `1:` a number), which
 * JSON cannot write: DeerFlow refuses a role or resource key that is not a string (`role name must be a non-empty
 * string, got False`). The checks read keys as strings, so these are said here.
 */
function nonStringKeys(roles: JsonNode, enabled: boolean, findings: Finding[]): void {
  if (roles.type !== "object") return;
  const report = (key: JsonNode, where: string, inner: string) =>
    findings.push({
      code: "authz-invalid",
      severity: enabled ? "error" : "warning",
      message: enabled ? `DeerFlow refuses to build the agent: its RBAC provider rejects ${where}.` : `With "enabled": true, DeerFlow would refuse to build the agent over ${where}.`,
      detail: `${enabled ? REFUSES : WOULD_REFUSE} ${inner} (YAML 1.1 reads this key as ${pyTypeName(key.value)}: quote it to make it a name)`,
      span: spanOf(key),
    });
  for (const prop of roles.children ?? []) {
    const [key, body] = prop.children ?? [];
    if (!key) continue;
    if (key.type !== "string") {
      report(key, `the role ${pyRepr(key.value)}`, `role name must be a non-empty string, got ${pyRepr(key.value)}`);
      continue;
    }
    if (body?.type !== "object") continue;
    for (const resource of body.children ?? []) {
      const resourceKey = resource.children?.[0];
      if (resourceKey && resourceKey.type !== "string") {
        report(resourceKey, `role ${JSON.stringify(key.value)}`, `role '${String(key.value)}' has invalid resource key ${pyRepr(resourceKey.value)}`);
      }
    }
  }
}
