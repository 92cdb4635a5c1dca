/**
 * A faithful model of DeerFlow's built-in `RbacAuthorizationProvider` (bytedance/deer-flow f1f4af99,
 * `deerflow/authz/rbac.py`), its factory (`deerflow/authz/runtime.py`) and the principal builder's default role
 * (`deerflow/authz/principal.py`), for the flattened `authorization` block of config-format.md:
 * `{ enabled, fail_closed, default_role, roles }`, where `roles` is what DeerFlow has under `provider.config.roles`.
 *
 * What it models, in words: docs/reference/deerflow-rbac.md (construction rules and messages, the decision of a
 * policy, fail_closed, reason codes); the vectors that pin it are read by test/authorization/rbac.test.ts.
 */
import { property, type JsonNode } from "../config/parse";
import {
  isDict,
  isJsonNode,
  pydanticBool,
  pyRepr,
  pySorted,
  pySortedByRepr,
  pyStrListRepr,
  pyStrRepr,
  pyTypeName,
  toPy,
  type PyValue,
} from "./python";

// ---------------------------------------------------------------------------------------------------------
// Public API (other modules code against exactly this)
// ---------------------------------------------------------------------------------------------------------

export interface RbacDecision {
  allowed: boolean;
  /** `authz.allowed` | `authz.denied` | `authz.no_policy` | `oap.evaluator_error` (the provider raised). */
  reasonCode: string;
  /** `rbac:allow` | `rbac:deny` | `rbac:unrestricted`; absent when the provider raised. */
  policyId?: string;
  /**
   * DeerFlow's reason text: `role 'user' is denied 'bash' on resource 'tool'`, `no policy configured`, and for
   * `oap.evaluator_error` GuardrailMiddleware's `guardrail provider error (fail-closed)` / `(fail-open)`. DeerFlow's
   * own reason text for an allow is empty; we say it in the deny's words instead.
   */
  message: string;
  /**
   * Only with `oap.evaluator_error`: the exception the provider raised, word for word (`Unknown role 'editor';
   * known roles: ['admin', 'user']`), which DeerFlow logs. An addition to the agreed shape; optional.
   */
  error?: string;
}

export interface RbacPolicy {
  enabled: boolean;
  failClosed: boolean;
  defaultRole: string;
  /** Declared role names, in file order. */
  roles: string[];
  /** Layer 1/2 decision for a tool name under a role (null/"" role → default role). Unknown role → the fail_closed outcome. */
  decideTool(role: string | null, tool: string): RbacDecision;
}

export interface RbacProblem {
  message: string;
  jsonPath: (string | number)[];
  kind: "invalid" | "default-role-undefined";
}

/** undefined when the block is absent or disabled (DeerFlow then changes nothing). Never throws, even on invalid config (invalid parts are ignored; validation reports them). */
export function rbacPolicyOf(authorization: unknown): RbacPolicy | undefined {
  const block = blockOf(authorization);
  if (!block || !block.enabled) return undefined;
  return new Policy(block, RbacProvider.fromCompiled(compileRoles(block.roles, [], false)));
}

/** DeerFlow's construction-time errors for this block, in the order DeerFlow would raise them (all of them, not just the first). */
export function rbacConstructionProblems(authorization: unknown): RbacProblem[] {
  return rbacConstructionIssues(authorization).map(({ message, jsonPath, kind }) => ({ message, jsonPath, kind }));
}

// ---------------------------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------------------------

/** The class path DeerFlow's factory names in its messages. */
export const RBAC_PROVIDER_PATH = "deerflow.authz.rbac:RbacAuthorizationProvider";

/** `_RESOURCE_POLICY_KEYS` (rbac.py L26–33): request resource → config key. */
export const RESOURCE_POLICY_KEYS: ReadonlyMap<string, string> = new Map([
  ["tool", "tools"],
  ["model", "models"],
  ["skill", "skills"],
  ["sandbox", "sandbox"],
  ["mcp_server", "mcp_servers"],
  ["route", "routes"],
]);

/** Config keys some DeerFlow consumer asks about (tools: Layer 1 + 2; models; Gateway routes). */
export const ENFORCED_RESOURCE_KEYS: readonly string[] = ["tools", "models", "routes"];
/** Config keys the provider validates but nothing asks about yet (A.0, "Things DeerFlow silently accepts" 4). */
export const UNENFORCED_RESOURCE_KEYS: readonly string[] = ["skills", "sandbox", "mcp_servers"];
export const KNOWN_RESOURCE_KEYS: readonly string[] = [...ENFORCED_RESOURCE_KEYS, ...UNENFORCED_RESOURCE_KEYS];

/** What one target of a config key is called in messages: "tool", "model", "route permission", … */
export function targetNoun(resourceKey: string): string {
  return TARGET_NOUNS.get(resourceKey) ?? `"${resourceKey}" target`;
}

const TARGET_NOUNS: ReadonlyMap<string, string> = new Map([
  ["tools", "tool"],
  ["models", "model"],
  ["routes", "route permission"],
  ["skills", "skill"],
  ["sandbox", "sandbox"],
  ["mcp_servers", "MCP server"],
]);

// ---------------------------------------------------------------------------------------------------------
// The provider
// ---------------------------------------------------------------------------------------------------------

/** A `ValueError` DeerFlow raises (construction or request time). */
export class RbacError extends Error {
  override readonly name = "ValueError";
}

const ALL = Symbol("allow all");

/** `_CompiledPolicy`: deny always wins. */
export interface CompiledPolicy {
  readonly allowed: ReadonlySet<string> | typeof ALL;
  readonly denied: ReadonlySet<string>;
}

function isAllowed(policy: CompiledPolicy, target: string): boolean {
  if (policy.denied.has(target)) return false;
  if (policy.allowed === ALL) return true;
  return policy.allowed.has(target);
}

/** Which rule of A.1.5 a construction issue comes from (the checks attach fixes by rule). */
export type RbacIssueRule =
  | "roles-missing"
  | "roles-not-dict"
  | "role-name"
  | "role-body"
  | "resource-key"
  | "reserved-alias"
  | "resource-body"
  | "policy-keys"
  | "allow-null"
  | "allow-string"
  | "allow-item"
  | "allow-type"
  | "deny-null"
  | "deny-item"
  | "deny-type"
  | "default-role";

/** An `RbacProblem` with what the checks need to place and fix it. */
export interface RbacIssue extends RbacProblem {
  rule: RbacIssueRule;
  /** Whether the finding belongs on the key at `jsonPath` (a role name, a resource key) or on its value. */
  on: "key" | "value";
  role?: string;
  resourceKey?: string;
  /** `reserved-alias`: the plural key DeerFlow asks for. `policy-keys`: the unknown keys, in file order. */
  pluralKey?: string;
  unknownKeys?: string[];
  /**
   * `default-role`: the declared roles sorted, and their repr as it appears in `message`, so that a check can
   * shorten a list of 10,000 names without sorting and printing them again.
   */
  knownRoles?: { sorted: readonly string[]; repr: string };
}

/** What the walk over `roles` produced: the compiled policies of every part that is valid. */
interface Compiled {
  /** Every key of `roles` (`frozenset(roles.keys())`), in file order. */
  knownRoles: string[];
  policies: Map<string, Map<string, CompiledPolicy>>;
}

function requireNonEmptyString(value: unknown, field: string): string {
  if (typeof value !== "string" || value === "") throw new RbacError(`${field} must be a non-empty string, got ${pyRepr(value)}`);
  return value;
}

/**
 * The walk reads either normalised Python values (`PyValue`, from plain JSON) or jsonc-parser nodes directly (what
 * the checks have: no copy of a large role map). A node is an object that is neither an array nor a Map.
 */
type Val = PyValue | JsonNode;

function isNode(v: Val): v is JsonNode {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Map);
}

function isDictV(v: Val): boolean {
  return isNode(v) ? v.type === "object" : isDict(v);
}

function isListV(v: Val): boolean {
  return isNode(v) ? v.type === "array" : Array.isArray(v);
}

/**
 * A dict's entries as Python sees them: a repeated key keeps its first position and takes its last value. For a
 * node without repeated keys (nearly always) this is its own property list: no copy of a large role map.
 */
type Entry = [string, Val] | JsonNode;

function entriesV(v: Val): readonly Entry[] {
  if (!isNode(v)) return [...(v as Map<string, PyValue>).entries()];
  const children = v.children ?? [];
  if (!hasRepeatedKey(children)) return children;
  const out: [string, Val][] = [];
  const positions = new Map<string, number>();
  for (const prop of children) {
    const key = entryKey(prop);
    const at = positions.get(key);
    if (at !== undefined) out[at] = [key, entryValue(prop)];
    else {
      positions.set(key, out.length);
      out.push([key, entryValue(prop)]);
    }
  }
  return out;
}

function hasRepeatedKey(props: readonly JsonNode[]): boolean {
  if (props.length <= 1) return false;
  if (props.length <= 8) {
    // Small objects (a role body, a policy): pairwise, each key read once.
    const keys = props.map(entryKey);
    for (let i = 1; i < keys.length; i++) for (let j = 0; j < i; j++) if (keys[i] === keys[j]) return true;
    return false;
  }
  const seen = new Set<string>();
  for (const prop of props) {
    const key = entryKey(prop);
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

function entryKey(e: Entry): string {
  return Array.isArray(e) ? e[0] : String(e.children?.[0]?.value);
}

function entryValue(e: Entry): Val {
  return Array.isArray(e) ? e[1] : (e.children?.[1] ?? null);
}

function itemsV(v: Val): Val[] {
  return isNode(v) ? (v.children ?? []) : (v as PyValue[]);
}

/** The scalar a value holds (`undefined` for a dict or a list). */
function scalarV(v: Val): null | boolean | number | string | undefined {
  if (isNode(v)) return v.type === "object" || v.type === "array" ? undefined : v.type === "null" ? null : (v.value as boolean | number | string);
  return v instanceof Map || Array.isArray(v) ? undefined : v;
}

function typeNameV(v: Val): string {
  return pyTypeName(isNode(v) ? toPy(v) : v);
}

function reprV(v: Val): string {
  return pyRepr(isNode(v) ? toPy(v) : v);
}

/**
 * The provider as DeerFlow builds it. `construct` raises DeerFlow's first construction error; `lenient` never
 * raises and ignores every invalid part (a role body, a resource policy, an `allow`/`deny` value or list item that
 * DeerFlow would refuse), which is what the editor shows while the config is being fixed.
 */
export class RbacProvider {
  readonly name = "rbac";
  private readonly known: ReadonlySet<string>;
  private sortedKnown: string[] | undefined;
  private sortedKnownRepr: string | undefined;

  private constructor(private readonly compiled: Compiled) {
    this.known = new Set(compiled.knownRoles);
  }

  /** `RbacAuthorizationProvider(roles=…)`; `roles` undefined = the key is missing. Raises like DeerFlow. */
  static construct(roles: unknown): RbacProvider {
    const issues: RbacIssue[] = [];
    const compiled = compileRoles(toPy(roles), issues, true);
    if (issues.length > 0) throw new RbacError(issues[0]!.message);
    return new RbacProvider(compiled);
  }

  static lenient(roles: unknown): RbacProvider {
    return new RbacProvider(compileRoles(toPy(roles), [], false));
  }

  /** @internal A provider over an already compiled walk (no second pass over a large role map). */
  static fromCompiled(compiled: Compiled): RbacProvider {
    return new RbacProvider(compiled);
  }

  /** Declared role names in file order (every key of `roles`, as DeerFlow's `_known_roles`). */
  get knownRoles(): readonly string[] {
    return this.compiled.knownRoles;
  }

  /** `sorted(self._known_roles)`, computed once (a role map can be large). */
  sortedKnownRoles(): readonly string[] {
    return (this.sortedKnown ??= pySorted(this.known));
  }

  /** `repr(sorted(self._known_roles))`, computed once. */
  knownRolesRepr(): string {
    return (this.sortedKnownRepr ??= pyStrListRepr(this.sortedKnownRoles()));
  }

  /** `validate_role` (rbac.py L124–130). */
  validateRole(role: unknown, field = "role"): void {
    const r = requireNonEmptyString(role, field);
    if (!this.known.has(r)) {
      if (field === "role") throw new RbacError(`Unknown role '${r}'; known roles: ${this.knownRolesRepr()}`);
      throw new RbacError(`${field} '${r}' is not defined; known roles: ${this.knownRolesRepr()}`);
    }
  }

  /** `_resolve_policy`: undefined = no policy for this role and resource (unrestricted). */
  private resolvePolicy(role: unknown, resource: unknown, resourceField: string): CompiledPolicy | undefined {
    if (role === null || role === undefined || role === "") throw new RbacError("Principal has no role; cannot evaluate RBAC policy");
    this.validateRole(role);
    const res = requireNonEmptyString(resource, resourceField);
    const key = RESOURCE_POLICY_KEYS.get(res) ?? res;
    return this.compiled.policies.get(role as string)?.get(key);
  }

  /** `authorize(AuthzRequest)`: `action` is accepted and ignored, as in DeerFlow. Raises `RbacError`. */
  authorize(request: { role: unknown; resource: unknown; target: unknown; action?: string }): RbacDecision {
    const policy = this.resolvePolicy(request.role, request.resource, "resource");
    const target = requireNonEmptyString(request.target, "target");
    if (!policy) return { allowed: true, reasonCode: "authz.no_policy", policyId: "rbac:unrestricted", message: "no policy configured" };
    const role = request.role as string;
    const resource = request.resource as string;
    if (isAllowed(policy, target)) {
      return { allowed: true, reasonCode: "authz.allowed", policyId: "rbac:allow", message: `role '${role}' is allowed '${target}' on resource '${resource}'` };
    }
    return { allowed: false, reasonCode: "authz.denied", policyId: "rbac:deny", message: `role '${role}' is denied '${target}' on resource '${resource}'` };
  }

  /** `filter_resources`: keeps order and duplicates, never adds. Raises `RbacError`. */
  filterResources(role: unknown, resourceType: unknown, candidates: unknown): string[] {
    const policy = this.resolvePolicy(role, resourceType, "resource_type");
    if (!Array.isArray(candidates)) throw new RbacError(`candidates must be a list, got ${pyTypeName(candidates)}`);
    const validated = candidates.map((c, i) => requireNonEmptyString(c, `candidates[${i}]`));
    if (!policy) return validated;
    return validated.filter((c) => isAllowed(policy, c));
  }

  /** The compiled policy of a role and config key (undefined: unrestricted, or unknown role). */
  policyOf(role: string, resourceKey: string): CompiledPolicy | undefined {
    return this.compiled.policies.get(role)?.get(resourceKey);
  }
}

/**
 * The constructor's walk (rbac.py L93–120, `_compile_resource_policy` L140–186). Issues are pushed in the order
 * DeerFlow meets them; where DeerFlow would stop at the first, this walk goes on, so that every error a user
 * would meet one fix after another is reported at once. Each issue's part is left out of the compiled result.
 */
function compileRoles(roles: Val | undefined, issues: RbacIssue[], rolesRequired: boolean, issuesOnly = false): Compiled {
  const compiled: Compiled = { knownRoles: [], policies: new Map() };
  if (roles === undefined) {
    if (rolesRequired) {
      issues.push({ rule: "roles-missing", kind: "invalid", message: "missing required provider config key 'roles'", jsonPath: [], on: "key" });
    }
    return compiled;
  }
  if (!isDictV(roles)) {
    issues.push({ rule: "roles-not-dict", kind: "invalid", message: `roles must be a dict, got ${typeNameV(roles)}`, jsonPath: ["roles"], on: "value" });
    return compiled;
  }
  const roleEntries = entriesV(roles);
  compiled.knownRoles = roleEntries.map(entryKey);
  for (const roleEntry of roleEntries) {
    const roleName = entryKey(roleEntry);
    const roleConfig = entryValue(roleEntry);
    if (roleName === "") {
      issues.push({ rule: "role-name", kind: "invalid", message: `role name must be a non-empty string, got ${pyRepr(roleName)}`, jsonPath: ["roles", roleName], on: "key", role: roleName });
    }
    if (!isDictV(roleConfig)) {
      issues.push({
        rule: "role-body",
        kind: "invalid",
        message: `role '${roleName}' config must be a dict, got ${typeNameV(roleConfig)}`,
        jsonPath: ["roles", roleName],
        on: "value",
        role: roleName,
      });
      continue;
    }
    const rolePolicies = issuesOnly ? undefined : new Map<string, CompiledPolicy>();
    if (rolePolicies) compiled.policies.set(roleName, rolePolicies);
    for (const resourceEntry of entriesV(roleConfig)) {
      const resourceKey = entryKey(resourceEntry);
      const resourcePolicy = entryValue(resourceEntry);
      let usable = true;
      if (resourceKey === "") {
        issues.push({ rule: "resource-key", kind: "invalid", message: `role '${roleName}' has invalid resource key ${pyRepr(resourceKey)}`, jsonPath: ["roles", roleName, resourceKey], on: "key", role: roleName, resourceKey });
        usable = false;
      }
      const mapped = RESOURCE_POLICY_KEYS.get(resourceKey);
      if (mapped !== undefined && mapped !== resourceKey) {
        issues.push({
          rule: "reserved-alias",
          kind: "invalid",
          message: `role '${roleName}' resource key '${resourceKey}' is a reserved request alias; use '${mapped}' in RBAC config`,
          jsonPath: ["roles", roleName, resourceKey],
          on: "key",
          pluralKey: mapped,
          role: roleName,
          resourceKey,
        });
        usable = false;
      }
      if (!isDictV(resourcePolicy)) {
        issues.push({
          rule: "resource-body",
          kind: "invalid",
          message: `role '${roleName}' resource '${resourceKey}' must be a dict, got ${typeNameV(resourcePolicy)}`,
          jsonPath: ["roles", roleName, resourceKey],
          on: "value",
          role: roleName,
          resourceKey,
        });
        continue;
      }
      const policy = compileResourcePolicy(roleName, resourceKey, resourcePolicy, issues, issuesOnly);
      if (usable) rolePolicies?.set(resourceKey, policy);
    }
  }
  return compiled;
}

const EMPTY: ReadonlySet<string> = new Set();
const NOTHING: CompiledPolicy = { allowed: EMPTY, denied: EMPTY };

function compileResourcePolicy(
  role: string,
  resourceKey: string,
  policyValue: Val,
  issues: RbacIssue[],
  issuesOnly: boolean,
): CompiledPolicy {
  let allowValue: Val | undefined;
  let denyValue: Val | undefined;
  let unknownKeys: string[] | undefined;
  for (const entry of entriesV(policyValue)) {
    const key = entryKey(entry);
    if (key === "allow") allowValue = entryValue(entry);
    else if (key === "deny") denyValue = entryValue(entry);
    else (unknownKeys ??= []).push(key);
  }
  if (unknownKeys) {
    issues.push({
      rule: "policy-keys",
      kind: "invalid",
      message: `${prefixOf(role, resourceKey)}: unknown policy keys ${pyStrListRepr(pySortedByRepr(unknownKeys))}; supported: ['allow', 'deny']`,
      jsonPath: ["roles", role, resourceKey, unknownKeys[0]!],
      on: "key",
      unknownKeys,
      role,
      resourceKey,
    });
  }

  let allowed: ReadonlySet<string> | typeof ALL = ALL; // allow absent = allow all (deny still applies)
  if (allowValue !== undefined) {
    const rawValue = allowValue;
    const raw = scalarV(rawValue);
    if (raw === null) {
      issues.push({ rule: "allow-null", kind: "invalid", message: `${prefixOf(role, resourceKey)}: allow must not be null; omit the key, or use '*' / bool / list`, jsonPath: ["roles", role, resourceKey, "allow"], on: "value", role, resourceKey });
    } else if (raw === true) {
      allowed = ALL;
    } else if (raw === false) {
      allowed = EMPTY; // allow: false = deny all
    } else if (typeof raw === "string") {
      if (raw !== "*") {
        issues.push({ rule: "allow-string", kind: "invalid", message: `${prefixOf(role, resourceKey)}: allow string must be '*', got ${pyStrRepr(raw)}`, jsonPath: ["roles", role, resourceKey, "allow"], on: "value", role, resourceKey });
      }
    } else if (isListV(rawValue)) {
      const items = listItems(itemsV(rawValue), role, resourceKey, "allow", issues);
      allowed = issuesOnly ? ALL : new Set(items);
    } else {
      issues.push({
        rule: "allow-type",
        kind: "invalid",
        message: `${prefixOf(role, resourceKey)}: allow must be '*', bool, or list of strings, got ${typeNameV(rawValue)}`,
        jsonPath: ["roles", role, resourceKey, "allow"],
        on: "value",
        role,
        resourceKey,
      });
    }
  }

  let denied: ReadonlySet<string> = EMPTY;
  if (denyValue !== undefined) {
    const rawValue = denyValue;
    if (scalarV(rawValue) === null) {
      issues.push({ rule: "deny-null", kind: "invalid", message: `${prefixOf(role, resourceKey)}: deny must not be null; omit the key for no deny list`, jsonPath: ["roles", role, resourceKey, "deny"], on: "value", role, resourceKey });
    } else if (isListV(rawValue)) {
      const items = listItems(itemsV(rawValue), role, resourceKey, "deny", issues);
      if (!issuesOnly) denied = new Set(items);
    } else {
      issues.push({ rule: "deny-type", kind: "invalid", message: `${prefixOf(role, resourceKey)}: deny must be a list of strings, got ${typeNameV(rawValue)}`, jsonPath: ["roles", role, resourceKey, "deny"], on: "value", role, resourceKey });
    }
  }
  return issuesOnly ? NOTHING : { allowed, denied };
}

function prefixOf(role: string, resourceKey: string): string {
  return `role '${role}' resource '${resourceKey}'`;
}

function listItems(items: Val[], role: string, resourceKey: string, field: "allow" | "deny", issues: RbacIssue[]): string[] {
  const good: string[] = [];
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    const value = scalarV(item);
    if (typeof value === "string" && value !== "") good.push(value);
    else {
      issues.push({
        rule: field === "allow" ? "allow-item" : "deny-item",
        kind: "invalid",
        message: `${prefixOf(role, resourceKey)}: ${field} list contains non-string or empty item ${reprV(item)}`,
        jsonPath: ["roles", role, resourceKey, field, index],
        on: "value",
        role,
        resourceKey,
      });
    }
  }
  return good;
}

// ---------------------------------------------------------------------------------------------------------
// The block: enabled / fail_closed / default_role, the factory, the principal's default role
// ---------------------------------------------------------------------------------------------------------

interface Block {
  enabled: boolean;
  failClosed: boolean;
  defaultRole: string;
  /** Whether `default_role` is written in the block (otherwise it is Pydantic's default, "user"). */
  defaultRoleGiven: boolean;
  /** `roles` as written (undefined: the key is absent). */
  roles: Val | undefined;
}

/** `AuthorizationConfig` (authorization_config.py L14–32), Pydantic-lax; a value Pydantic would reject is ignored. */
function blockOf(authorization: unknown): Block | undefined {
  let get: (key: string) => Val | undefined;
  if (isJsonNode(authorization)) {
    if (authorization.type !== "object") return undefined;
    get = (key) => property(authorization, key);
  } else {
    const value = toPy(authorization);
    if (!isDict(value)) return undefined;
    get = (key) => value.get(key);
  }
  const scalar = (key: string) => {
    const v = get(key);
    return v === undefined ? undefined : scalarV(v);
  };
  const defaultRole = scalar("default_role");
  return {
    enabled: pydanticBool(scalar("enabled")) ?? false,
    failClosed: pydanticBool(scalar("fail_closed")) ?? true,
    defaultRole: typeof defaultRole === "string" ? defaultRole : "user",
    defaultRoleGiven: typeof defaultRole === "string",
    roles: get("roles"),
  };
}

/**
 * Every construction-time error of the block, in DeerFlow's order, with what the checks need. The `roles` rules
 * apply whether or not the block is enabled (the block is meant to be copied into a DeerFlow config.yaml); a
 * missing `roles` and the `default_role` check only when it is enabled, since only then does DeerFlow build the
 * provider and ask for the default role.
 */
export function rbacConstructionIssues(authorization: unknown): RbacIssue[] {
  const block = blockOf(authorization);
  if (!block) return [];
  const issues: RbacIssue[] = [];
  const compiled = compileRoles(block.roles, issues, block.enabled, true);
  if (block.enabled && block.roles !== undefined && isDictV(block.roles)) {
    const provider = RbacProvider.fromCompiled(compiled);
    try {
      provider.validateRole(block.defaultRole, "authorization.default_role");
    } catch (error) {
      issues.push({
        rule: "default-role",
        kind: "default-role-undefined",
        message: `Invalid authorization default_role for provider '${RBAC_PROVIDER_PATH}': ${(error as Error).message}`,
        jsonPath: block.defaultRoleGiven ? ["default_role"] : ["roles"],
        on: block.defaultRoleGiven ? "value" : "key",
        knownRoles: { sorted: provider.sortedKnownRoles(), repr: provider.knownRolesRepr() },
      });
    }
  }
  return issues;
}

class Policy implements RbacPolicy {
  readonly enabled = true;
  readonly failClosed: boolean;
  readonly defaultRole: string;
  readonly roles: string[];

  constructor(
    block: Block,
    readonly provider: RbacProvider,
  ) {
    this.failClosed = block.failClosed;
    this.defaultRole = block.defaultRole;
    this.roles = provider.knownRoles.filter((r) => r !== "");
  }

  decideTool(role: string | null, tool: string): RbacDecision {
    return decideWith(this, "tool", role, tool, "call");
  }
}

/**
 * One request through the principal builder (None/"" → default role) and the provider; a raised error becomes
 * the `fail_closed` outcome of GuardrailMiddleware (guardrails/middleware.py): denied with `oap.evaluator_error`,
 * or, fail-open, the call goes through.
 */
function decideWith(policy: Policy, resource: string, role: string | null, target: string, action: string): RbacDecision {
  const principalRole = role === null || role === undefined || role === "" ? policy.defaultRole : role;
  try {
    return policy.provider.authorize({ role: principalRole, resource, target, action });
  } catch (error) {
    if (!(error instanceof RbacError)) throw error;
    return {
      allowed: !policy.failClosed,
      reasonCode: "oap.evaluator_error",
      message: `guardrail provider error (${policy.failClosed ? "fail-closed" : "fail-open"})`,
      error: error.message,
    };
  }
}

/** A decision for any request resource (`model`, `route`, a custom one) under the block's principal rules. */
export function decideResource(policy: RbacPolicy, role: string | null, resource: string, target: string): RbacDecision {
  if (!(policy instanceof Policy)) throw new TypeError("decideResource needs a policy from rbacPolicyOf");
  return decideWith(policy, resource, role, target, resource === "tool" ? "call" : "use");
}

/**
 * Layer 1 (`apply_tool_authorization` → `filter_tools_by_authorization`): the tools a role keeps, in their order.
 * The provider raising (unknown role, an empty name) makes the set `[]` when `fail_closed`, else leaves it as it was.
 * `error` is the provider's exception when it raised.
 */
export function filterToolsForRole(policy: RbacPolicy, role: string | null, tools: readonly string[]): { tools: string[]; error?: string } {
  if (!(policy instanceof Policy)) throw new TypeError("filterToolsForRole needs a policy from rbacPolicyOf");
  const principalRole = role === null || role === "" ? policy.defaultRole : role;
  try {
    return { tools: policy.provider.filterResources(principalRole, "tool", [...tools]) };
  } catch (error) {
    if (!(error instanceof RbacError)) throw error;
    return { tools: policy.failClosed ? [] : [...tools], error: error.message };
  }
}
