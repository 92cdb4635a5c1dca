/**
 * The RBAC model against deerflow-authorization.md: every A.2 decision vector (1–24), the enforcement /
 * fail_closed vectors that apply to a static model, the principal's default role, and every A.1.5 construction
 * message word for word (table-driven).
 *   node --import tsx --test test/authorization/rbac.test.ts
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { parseTree } from "jsonc-parser";
import {
  decideResource,
  filterToolsForRole,
  rbacConstructionProblems,
  rbacPolicyOf,
  RbacError,
  RbacProvider,
  type RbacDecision,
} from "../../server/src/engine/authorization/rbac";
import { pyNumberRepr, pyRepr, pySorted, pyStrRepr, pydanticBool } from "../../server/src/engine/authorization/python";
import { firstCode, specText, stripMarkup, tableRows } from "../helpers/specTables";

const SPEC = specText("deerflow-authorization.md");

type Json = unknown;

function provider(roles: Json): RbacProvider {
  return RbacProvider.construct(roles);
}

function authorize(p: RbacProvider, role: unknown, resource: unknown, target: unknown): RbacDecision {
  return p.authorize({ role, resource, target });
}

function pick(d: RbacDecision): [boolean, string, string | undefined] {
  return [d.allowed, d.reasonCode, d.policyId];
}

const ALLOW: [boolean, string, string] = [true, "authz.allowed", "rbac:allow"];
const DENY: [boolean, string, string] = [false, "authz.denied", "rbac:deny"];
const NO_POLICY: [boolean, string, string] = [true, "authz.no_policy", "rbac:unrestricted"];

// ---------------------------------------------------------------------------------------------------------
// A.2 decision vectors
// ---------------------------------------------------------------------------------------------------------

interface Vector {
  n: number;
  roles: Json;
  requests: { role?: string | null; resource?: string; target: string; expect: [boolean, string, string | undefined]; message?: string }[];
}

const VECTORS: Vector[] = [
  { n: 1, roles: { user: { tools: { allow: "*" } } }, requests: [{ target: "bash", expect: ALLOW }] },
  { n: 2, roles: { user: { tools: { allow: true } } }, requests: [{ target: "bash", expect: ALLOW }] },
  {
    n: 3,
    roles: { user: { tools: { allow: false } } },
    requests: [
      { target: "bash", expect: DENY, message: "role 'user' is denied 'bash' on resource 'tool'" },
      { target: "web_search", expect: DENY, message: "role 'user' is denied 'web_search' on resource 'tool'" },
    ],
  },
  {
    n: 4,
    roles: { user: { tools: { allow: ["web_search", "read_file"] } } },
    requests: [
      { target: "web_search", expect: ALLOW },
      { target: "read_file", expect: ALLOW },
      { target: "bash", expect: DENY },
    ],
  },
  { n: 5, roles: { user: { tools: { allow: [] } } }, requests: [{ target: "bash", expect: DENY }] },
  {
    n: 6,
    roles: { user: { tools: { deny: ["bash"] } } },
    requests: [
      { target: "bash", expect: DENY },
      { target: "web_search", expect: ALLOW },
    ],
  },
  {
    n: 7,
    roles: { user: { tools: { allow: "*", deny: ["bash"] } } },
    requests: [
      { target: "bash", expect: DENY },
      { target: "web_search", expect: ALLOW },
    ],
  },
  { n: 8, roles: { user: { tools: { allow: ["bash", "web_search"], deny: ["bash"] } } }, requests: [{ target: "bash", expect: DENY }] },
  { n: 9, roles: { user: { tools: { allow: true, deny: ["bash"] } } }, requests: [{ target: "bash", expect: DENY }] },
  {
    n: 10,
    roles: { user: { tools: { allow: ["web_search"] } } },
    requests: [{ resource: "model", target: "any", expect: NO_POLICY, message: "no policy configured" }],
  },
  { n: 15, roles: { user: { custom_resource: { allow: ["item1"] } } }, requests: [{ resource: "custom_resource", target: "item1", expect: ALLOW }] },
  { n: 16, roles: { user: { sandbox: { allow: [] } } }, requests: [{ resource: "sandbox", target: "default", expect: DENY }] },
  { n: 21, roles: { user: { tools: { allow: ["*"] } } }, requests: [{ target: "bash", expect: DENY }] },
  { n: 22, roles: { user: { tools: { allow: ["github_*"] } } }, requests: [{ target: "github_create_issue", expect: DENY }] },
  { n: 23, roles: { user: { tools: { allow: ["Bash"] } } }, requests: [{ target: "bash", expect: DENY }] },
  { n: 24, roles: { user: { tols: { allow: [] } } }, requests: [{ target: "bash", expect: NO_POLICY }] },
];

/** Vectors with their own test below (filters, raises, construction, mutation). */
const SEPARATE_VECTORS = [11, 12, 13, 14, 17, 18, 19, 20];

describe("A.2 decision vectors (provider)", () => {
  test("every row of the spec's A.2 table is a test here", () => {
    const ids = tableRows(SPEC, /^\d+ [TD]$/).map((cells) => Number.parseInt(stripMarkup(cells[0]!), 10));
    assert.equal(ids.length, 24);
    assert.deepEqual([...VECTORS.map((v) => v.n), ...SEPARATE_VECTORS].sort((a, b) => a - b), ids);
  });

  for (const v of VECTORS) {
    test(`#${v.n}`, () => {
      const p = provider(v.roles);
      for (const r of v.requests) {
        const d = authorize(p, r.role ?? "user", r.resource ?? "tool", r.target);
        assert.deepEqual(pick(d), r.expect, `${r.resource ?? "tool"}/${r.target}`);
        if (r.message) assert.equal(d.message, r.message);
      }
    });
  }

  test("#11 role with no policies: filter admin/tool [a, b] → [a, b]", () => {
    assert.deepEqual(provider({ admin: {} }).filterResources("admin", "tool", ["a", "b"]), ["a", "b"]);
  });

  test("#12 unknown role raises", () => {
    const p = provider({ admin: { tools: { allow: "*" } } });
    assert.throws(() => authorize(p, "editor", "tool", "bash"), new RbacError("Unknown role 'editor'; known roles: ['admin']"));
    assert.throws(() => p.filterResources("editor", "tool", ["bash"]), new RbacError("Unknown role 'editor'; known roles: ['admin']"));
  });

  test("#13 role None or \"\" raises", () => {
    const p = provider({ user: { tools: { allow: "*" } } });
    for (const role of [null, ""]) {
      assert.throws(() => authorize(p, role, "tool", "bash"), new RbacError("Principal has no role; cannot evaluate RBAC policy"));
      assert.throws(() => p.filterResources(role, "tool", ["bash"]), new RbacError("Principal has no role; cannot evaluate RBAC policy"));
    }
  });

  test("#14 empty or None target raises for every policy shape, unrestricted and '*' included", () => {
    const shapes: Json[] = [{ user: {} }, { user: { tools: {} } }, { user: { tools: { allow: "*" } } }, { user: { tools: { allow: ["bash"] } } }];
    for (const roles of shapes) {
      const p = provider(roles);
      assert.throws(() => authorize(p, "user", "tool", ""), new RbacError("target must be a non-empty string, got ''"), JSON.stringify(roles));
      assert.throws(() => authorize(p, "user", "tool", null), new RbacError("target must be a non-empty string, got None"), JSON.stringify(roles));
      assert.throws(() => p.filterResources("user", "tool", ["a", ""]), new RbacError("candidates[1] must be a non-empty string, got ''"));
    }
  });

  test("#17 a singular alias as key is rejected, also next to the plural", () => {
    assert.throws(
      () => provider({ user: { tool: { allow: "*" } } }),
      new RbacError("role 'user' resource key 'tool' is a reserved request alias; use 'tools' in RBAC config"),
    );
    assert.throws(
      () => provider({ user: { tools: { allow: "*" }, tool: { allow: "*" } } }),
      new RbacError("role 'user' resource key 'tool' is a reserved request alias; use 'tools' in RBAC config"),
    );
    assert.doesNotThrow(() => provider({ user: { sandbox: { allow: "*" } } }), "same-name mapping is valid");
  });

  test("#18 filter keeps order and duplicates, never adds, does not modify its input", () => {
    const p = provider({ user: { tools: { allow: ["web_search", "bash", "read_file"] } } });
    const input = ["bash", "web_search", "write_file", "read_file"];
    assert.deepEqual(p.filterResources("user", "tool", input), ["bash", "web_search", "read_file"]);
    assert.deepEqual(input, ["bash", "web_search", "write_file", "read_file"]);
    assert.deepEqual(p.filterResources("user", "tool", ["bash", "bash", "zzz"]), ["bash", "bash"]);
    assert.deepEqual(provider({ user: {} }).filterResources("user", "tool", ["x", "x"]), ["x", "x"]);
  });

  test("#19 filter agrees with per-item authorize", () => {
    const p = provider({ user: { tools: { allow: "*", deny: ["bash"] } } });
    const candidates = ["bash", "web_search", "read_file", "bash", "*"];
    assert.deepEqual(
      p.filterResources("user", "tool", candidates),
      candidates.filter((c) => authorize(p, "user", "tool", c).allowed),
    );
  });

  test("#20 mutating the roles after construction changes nothing", () => {
    const roles = { user: { tools: { allow: ["bash"] as string[] } } } as Record<string, { tools: { allow: string[] } }>;
    const p = provider(roles);
    roles.user!.tools.allow.push("web_search");
    roles.guest = { tools: { allow: [] } };
    assert.deepEqual(pick(authorize(p, "user", "tool", "web_search")), DENY);
    assert.throws(() => authorize(p, "guest", "tool", "bash"), /Unknown role 'guest'/);
  });

  test("request-resource mapping: tool→tools, model→models, skill→skills, mcp_server→mcp_servers, route→routes; others by name", () => {
    const p = provider({
      user: {
        tools: { allow: ["t"] },
        models: { allow: ["m"] },
        skills: { allow: ["s"] },
        sandbox: { allow: ["x"] },
        mcp_servers: { allow: ["g"] },
        routes: { allow: ["threads:read"] },
        custom: { allow: ["c"] },
      },
    });
    const cases: [string, string][] = [["tool", "t"], ["model", "m"], ["skill", "s"], ["sandbox", "x"], ["mcp_server", "g"], ["route", "threads:read"], ["custom", "c"]];
    for (const [resource, target] of cases) {
      assert.deepEqual(pick(authorize(p, "user", resource, target)), ALLOW, resource);
      assert.deepEqual(pick(authorize(p, "user", resource, target + "-other")), DENY, resource);
    }
    // The plural as a request resource is looked up under its own name too (it is its own key).
    assert.deepEqual(pick(authorize(p, "user", "tools", "t")), ALLOW);
    assert.throws(() => authorize(p, "user", "", "t"), new RbacError("resource must be a non-empty string, got ''"));
    assert.throws(() => p.filterResources("user", "", ["t"]), new RbacError("resource_type must be a non-empty string, got ''"));
    assert.throws(() => p.filterResources("user", "tool", "t"), new RbacError("candidates must be a list, got str"));
  });
});

// ---------------------------------------------------------------------------------------------------------
// The block: rbacPolicyOf, decideTool, enforcement and fail_closed
// ---------------------------------------------------------------------------------------------------------

const EXAMPLE = {
  enabled: true,
  fail_closed: true,
  default_role: "user",
  roles: {
    admin: { tools: { allow: "*" } },
    user: { tools: { allow: "*", deny: ["execute", "delete"] } },
    guest: { tools: { allow: ["read_file", "ls", "glob", "grep", "web_search"] } },
  },
};

describe("rbacPolicyOf", () => {
  test("absent, not an object, or disabled → undefined (DeerFlow changes nothing), whatever the roles hold", () => {
    assert.equal(rbacPolicyOf(undefined), undefined);
    assert.equal(rbacPolicyOf(null), undefined);
    assert.equal(rbacPolicyOf("yes"), undefined);
    assert.equal(rbacPolicyOf({ ...EXAMPLE, enabled: false }), undefined);
    assert.equal(rbacPolicyOf({ roles: EXAMPLE.roles }), undefined, "enabled defaults to false");
    assert.equal(rbacPolicyOf({ enabled: false, roles: "garbage" }), undefined);
  });

  test("fields, defaults and Pydantic's lax bools", () => {
    const p = rbacPolicyOf(EXAMPLE)!;
    assert.equal(p.enabled, true);
    assert.equal(p.failClosed, true);
    assert.equal(p.defaultRole, "user");
    assert.deepEqual(p.roles, ["admin", "user", "guest"]);
    const q = rbacPolicyOf({ enabled: "yes", roles: { b: {}, a: {} } })!;
    assert.equal(q.failClosed, true, "fail_closed defaults to true");
    assert.equal(q.defaultRole, "user", "default_role defaults to user");
    assert.deepEqual(q.roles, ["b", "a"], "file order");
    assert.equal(rbacPolicyOf({ enabled: "on", fail_closed: "off", roles: {} })!.failClosed, false);
    assert.equal(rbacPolicyOf({ enabled: 1, roles: {} })!.enabled, true);
    assert.equal(rbacPolicyOf({ enabled: "maybe", roles: {} }), undefined, "a value Pydantic rejects is ignored (default false)");
  });

  test("decideTool: allow, deny (deny wins), list membership", () => {
    const p = rbacPolicyOf(EXAMPLE)!;
    assert.deepEqual(pick(p.decideTool("admin", "execute")), ALLOW);
    assert.deepEqual(p.decideTool("user", "execute"), { allowed: false, reasonCode: "authz.denied", policyId: "rbac:deny", message: "role 'user' is denied 'execute' on resource 'tool'" });
    assert.deepEqual(pick(p.decideTool("user", "read_file")), ALLOW);
    assert.deepEqual(pick(p.decideTool("guest", "web_search")), ALLOW);
    assert.deepEqual(pick(p.decideTool("guest", "write_file")), DENY);
  });

  test("principal: null and \"\" take the default role; an unknown non-empty role is kept (and raises)", () => {
    const p = rbacPolicyOf({ ...EXAMPLE, default_role: "guest" })!;
    assert.deepEqual(pick(p.decideTool(null, "write_file")), DENY, "null → guest");
    assert.deepEqual(pick(p.decideTool("", "write_file")), DENY, "\"\" → guest");
    assert.deepEqual(pick(p.decideTool(null, "read_file")), ALLOW);
    assert.deepEqual(p.decideTool("editor", "read_file"), {
      allowed: false,
      reasonCode: "oap.evaluator_error",
      message: "guardrail provider error (fail-closed)",
      error: "Unknown role 'editor'; known roles: ['admin', 'guest', 'user']",
    });
  });

  test("a JsonNode of the block gives the same policy as its value", () => {
    const text = JSON.stringify(EXAMPLE);
    const node = parseTree(text)!;
    const fromNode = rbacPolicyOf(node)!;
    const fromValue = rbacPolicyOf(EXAMPLE)!;
    assert.deepEqual(fromNode.roles, fromValue.roles);
    for (const role of [null, "admin", "user", "guest", "nobody"]) {
      for (const tool of ["read_file", "execute", "web_search"]) assert.deepEqual(fromNode.decideTool(role, tool), fromValue.decideTool(role, tool));
    }
  });

  test("invalid parts are ignored, never thrown", () => {
    const p = rbacPolicyOf({
      enabled: true,
      roles: {
        user: { tools: { allow: ["read_file", 3, ""], deny: "execute", alow: 1 }, tool: { allow: [] } },
        guest: null,
        bad: { tools: { allow: "none" } },
        "": { tools: { allow: [] } },
      },
    })!;
    assert.deepEqual(p.roles, ["user", "guest", "bad"], "an empty role name is not a usable role");
    assert.deepEqual(pick(p.decideTool("user", "read_file")), ALLOW, "valid items kept");
    assert.deepEqual(pick(p.decideTool("user", "ls")), DENY);
    assert.deepEqual(pick(p.decideTool("user", "execute")), DENY, "invalid deny ignored, allow list still applies");
    assert.deepEqual(pick(p.decideTool("guest", "ls")), NO_POLICY, "role with an invalid body: no policies");
    assert.deepEqual(pick(p.decideTool("bad", "ls")), ALLOW, "invalid allow string ignored (as if absent)");
    assert.doesNotThrow(() => rbacPolicyOf({ enabled: true, roles: [1, 2] }));
    assert.equal(rbacPolicyOf({ enabled: true, roles: [1, 2] })!.decideTool("user", "ls").reasonCode, "oap.evaluator_error");
  });
});

/** Rows of the spec's enforcement table, and how this model covers each (or why it cannot). */
const ENFORCEMENT: Record<string, string> = {
  "Layer 1 provider raises (incl. unknown role)": "tested below",
  "Layer 1 returns non-list / non-str items": "not applicable: the built-in RBAC always returns a list of strings; custom providers are not modelled",
  "Layer 1 returns extra names": "tested: the provider never adds (A.2 #18) and Layer 1 keeps only candidates",
  "Layer 2 provider raises": "tested below",
  "Route decision raises for one permission": "tested below (the built-in RBAC raises for every permission alike: unknown role)",
  "Route provider cannot be resolved": "not applicable: there is no class path to resolve in the flattened block; construction errors are authz-invalid",
  "Model denied": "not applicable: the config has no models section to fall back through",
  "All models denied": "not applicable: the config has no models section",
  "`authorization.enabled: false`": "tested in rbacPolicyOf",
};

describe("enforcement vectors (fail semantics)", () => {
  const tools = ["ls", "read_file", "write_file", "execute", "task"];

  test("every row of the spec's enforcement table is accounted for", () => {
    const table = SPEC.slice(SPEC.indexOf("Enforcement vectors (fail semantics)"), SPEC.indexOf("Resource types that exist"));
    const situations = tableRows(table, /./).map((cells) => cells[0]!).filter((c) => c !== "Situation" && !/^-+$/.test(c));
    assert.deepEqual(situations, Object.keys(ENFORCEMENT));
  });

  test("Route decision raises for one permission: fail_closed drops it, fail-open keeps it", () => {
    const six = ["threads:read", "threads:write", "threads:delete", "runs:create", "runs:read", "runs:cancel"];
    const block = { enabled: true, roles: { guest: { routes: { allow: ["threads:read"] } } } };
    assert.deepEqual(six.filter((r) => decideResource(rbacPolicyOf(block)!, "editor", "route", r).allowed), []);
    assert.deepEqual(six.filter((r) => decideResource(rbacPolicyOf({ ...block, fail_closed: false })!, "editor", "route", r).allowed), six);
  });

  test("Layer 1: provider raises (unknown role) → fail_closed: [] / fail-open: original tools", () => {
    const closed = rbacPolicyOf(EXAMPLE)!;
    assert.deepEqual(filterToolsForRole(closed, "editor", tools), { tools: [], error: "Unknown role 'editor'; known roles: ['admin', 'guest', 'user']" });
    const open = rbacPolicyOf({ ...EXAMPLE, fail_closed: false })!;
    assert.deepEqual(filterToolsForRole(open, "editor", tools).tools, tools);
  });

  test("Layer 1: denied tools removed, order kept, never adds", () => {
    const p = rbacPolicyOf(EXAMPLE)!;
    assert.deepEqual(filterToolsForRole(p, "user", tools), { tools: ["ls", "read_file", "write_file", "task"] });
    assert.deepEqual(filterToolsForRole(p, "guest", tools), { tools: ["ls", "read_file"] }, "a guest allowlist strips framework tools such as task");
    assert.deepEqual(filterToolsForRole(p, null, tools).tools, ["ls", "read_file", "write_file", "task"], "no role → default role");
  });

  test("Layer 2: provider raises → fail_closed: denied with oap.evaluator_error / fail-open: the call runs", () => {
    const closed = rbacPolicyOf(EXAMPLE)!.decideTool("editor", "read_file");
    assert.deepEqual([closed.allowed, closed.reasonCode, closed.message, closed.policyId], [false, "oap.evaluator_error", "guardrail provider error (fail-closed)", undefined]);
    const open = rbacPolicyOf({ ...EXAMPLE, fail_closed: false })!.decideTool("editor", "read_file");
    assert.deepEqual([open.allowed, open.reasonCode, open.message], [true, "oap.evaluator_error", "guardrail provider error (fail-open)"]);
  });

  test("Layer 2: a tool call with an empty name raises for every policy shape → fail_closed decides", () => {
    for (const roles of [{ user: {} }, { user: { tools: { allow: "*" } } }]) {
      const d = rbacPolicyOf({ enabled: true, roles })!.decideTool("user", "");
      assert.deepEqual([d.allowed, d.reasonCode, d.error], [false, "oap.evaluator_error", "target must be a non-empty string, got ''"]);
      assert.equal(rbacPolicyOf({ enabled: true, fail_closed: false, roles })!.decideTool("user", "").allowed, true);
    }
  });

  test("default role not declared (construction would fail): a request without a role gets the fail_closed outcome", () => {
    const d = rbacPolicyOf({ enabled: true, default_role: "nobody", roles: { admin: {} } })!.decideTool(null, "ls");
    assert.deepEqual([d.allowed, d.reasonCode], [false, "oap.evaluator_error"]);
  });

  test("routes: allow [threads:read, runs:read] → exactly those of the six permissions", () => {
    const p = rbacPolicyOf({ enabled: true, roles: { guest: { routes: { allow: ["threads:read", "runs:read"] } } } })!;
    const six = ["threads:read", "threads:write", "threads:delete", "runs:create", "runs:read", "runs:cancel"];
    assert.deepEqual(six.filter((r) => decideResource(p, "guest", "route", r).allowed), ["threads:read", "runs:read"]);
  });

  test("models: allow list, deny, wildcard", () => {
    const p = rbacPolicyOf({ enabled: true, roles: { user: { models: { allow: ["gpt-4o"] } }, admin: { models: { allow: "*", deny: ["o1"] } } } })!;
    assert.deepEqual(pick(decideResource(p, "user", "model", "gpt-4o")), ALLOW);
    assert.deepEqual(pick(decideResource(p, "user", "model", "o1")), DENY);
    assert.deepEqual(pick(decideResource(p, "admin", "model", "o1")), DENY);
    assert.deepEqual(pick(decideResource(p, "admin", "model", "x")), ALLOW);
  });
});

// ---------------------------------------------------------------------------------------------------------
// A.1.5 construction messages, word for word
// ---------------------------------------------------------------------------------------------------------

interface Rule {
  name: string;
  block: Json;
  message: string;
  path: (string | number)[];
}

const role = (body: Json) => ({ enabled: true, roles: { user: body } });
const tools = (policy: Json) => role({ tools: policy });
const P = "role 'user' resource 'tools'";

const RULES: Rule[] = [
  { name: "roles missing (enabled)", block: { enabled: true }, message: "missing required provider config key 'roles'", path: [] },
  { name: "roles a string", block: { roles: "admin" }, message: "roles must be a dict, got str", path: ["roles"] },
  { name: "roles a list", block: { roles: ["admin"] }, message: "roles must be a dict, got list", path: ["roles"] },
  { name: "roles null", block: { roles: null }, message: "roles must be a dict, got NoneType", path: ["roles"] },
  { name: "roles an int", block: { roles: 3 }, message: "roles must be a dict, got int", path: ["roles"] },
  { name: "roles a float", block: { roles: 1.5 }, message: "roles must be a dict, got float", path: ["roles"] },
  { name: "roles a bool", block: { roles: true }, message: "roles must be a dict, got bool", path: ["roles"] },
  { name: "empty role name", block: { roles: { "": {} } }, message: "role name must be a non-empty string, got ''", path: ["roles", ""] },
  { name: "role body null (YAML `user:`)", block: role(null), message: "role 'user' config must be a dict, got NoneType", path: ["roles", "user"] },
  { name: "role body a list", block: role(["tools"]), message: "role 'user' config must be a dict, got list", path: ["roles", "user"] },
  { name: "role body a string", block: role("admin"), message: "role 'user' config must be a dict, got str", path: ["roles", "user"] },
  { name: "empty resource key", block: role({ "": { allow: "*" } }), message: "role 'user' has invalid resource key ''", path: ["roles", "user", ""] },
  ...(
    [
      ["tool", "tools"],
      ["model", "models"],
      ["skill", "skills"],
      ["mcp_server", "mcp_servers"],
      ["route", "routes"],
    ] as const
  ).map(([alias, plural]) => ({
    name: `reserved alias ${alias}`,
    block: role({ [alias]: { allow: "*" } }),
    message: `role 'user' resource key '${alias}' is a reserved request alias; use '${plural}' in RBAC config`,
    path: ["roles", "user", alias],
  })),
  { name: "resource body a list", block: tools(["bash"]), message: `${P} must be a dict, got list`, path: ["roles", "user", "tools"] },
  { name: "resource body a string", block: tools("*"), message: `${P} must be a dict, got str`, path: ["roles", "user", "tools"] },
  { name: "resource body null", block: tools(null), message: `${P} must be a dict, got NoneType`, path: ["roles", "user", "tools"] },
  { name: "resource body a bool", block: tools(true), message: `${P} must be a dict, got bool`, path: ["roles", "user", "tools"] },
  { name: "misspelled policy key", block: tools({ alow: "*" }), message: `${P}: unknown policy keys ['alow']; supported: ['allow', 'deny']`, path: ["roles", "user", "tools", "alow"] },
  {
    name: "unknown policy keys next to valid ones, sorted by repr",
    block: tools({ permt: [], allow: "*", alow: 1 }),
    message: `${P}: unknown policy keys ['alow', 'permt']; supported: ['allow', 'deny']`,
    path: ["roles", "user", "tools", "permt"],
  },
  {
    name: "unknown policy keys sorted by repr (a quote-bearing key sorts first)",
    block: tools({ b: 1, "it's": 2 }),
    message: `${P}: unknown policy keys ["it's", 'b']; supported: ['allow', 'deny']`,
    path: ["roles", "user", "tools", "b"],
  },
  { name: "allow: null", block: tools({ allow: null }), message: `${P}: allow must not be null; omit the key, or use '*' / bool / list`, path: ["roles", "user", "tools", "allow"] },
  { name: "allow string other than *", block: tools({ allow: "all" }), message: `${P}: allow string must be '*', got 'all'`, path: ["roles", "user", "tools", "allow"] },
  { name: "allow empty string", block: tools({ allow: "" }), message: `${P}: allow string must be '*', got ''`, path: ["roles", "user", "tools", "allow"] },
  { name: "allow string with a quote", block: tools({ allow: "it's" }), message: `${P}: allow string must be '*', got "it's"`, path: ["roles", "user", "tools", "allow"] },
  { name: "allow list: int item", block: tools({ allow: ["bash", 1] }), message: `${P}: allow list contains non-string or empty item 1`, path: ["roles", "user", "tools", "allow", 1] },
  { name: "allow list: empty item", block: tools({ allow: [""] }), message: `${P}: allow list contains non-string or empty item ''`, path: ["roles", "user", "tools", "allow", 0] },
  { name: "allow list: null item", block: tools({ allow: [null] }), message: `${P}: allow list contains non-string or empty item None`, path: ["roles", "user", "tools", "allow", 0] },
  { name: "allow list: bool item", block: tools({ allow: [true] }), message: `${P}: allow list contains non-string or empty item True`, path: ["roles", "user", "tools", "allow", 0] },
  { name: "allow list: float item", block: tools({ allow: [1.5] }), message: `${P}: allow list contains non-string or empty item 1.5`, path: ["roles", "user", "tools", "allow", 0] },
  { name: "allow list: list item", block: tools({ allow: [["a"]] }), message: `${P}: allow list contains non-string or empty item ['a']`, path: ["roles", "user", "tools", "allow", 0] },
  { name: "allow list: dict item", block: tools({ allow: [{ name: "a" }] }), message: `${P}: allow list contains non-string or empty item {'name': 'a'}`, path: ["roles", "user", "tools", "allow", 0] },
  { name: "allow an int", block: tools({ allow: 1 }), message: `${P}: allow must be '*', bool, or list of strings, got int`, path: ["roles", "user", "tools", "allow"] },
  { name: "allow a float", block: tools({ allow: 0.5 }), message: `${P}: allow must be '*', bool, or list of strings, got float`, path: ["roles", "user", "tools", "allow"] },
  { name: "allow a dict", block: tools({ allow: {} }), message: `${P}: allow must be '*', bool, or list of strings, got dict`, path: ["roles", "user", "tools", "allow"] },
  { name: "deny: null", block: tools({ deny: null }), message: `${P}: deny must not be null; omit the key for no deny list`, path: ["roles", "user", "tools", "deny"] },
  { name: "deny list: empty item", block: tools({ deny: ["bash", ""] }), message: `${P}: deny list contains non-string or empty item ''`, path: ["roles", "user", "tools", "deny", 1] },
  { name: "deny list: int item", block: tools({ deny: [7] }), message: `${P}: deny list contains non-string or empty item 7`, path: ["roles", "user", "tools", "deny", 0] },
  { name: "deny list: null item", block: tools({ deny: [null] }), message: `${P}: deny list contains non-string or empty item None`, path: ["roles", "user", "tools", "deny", 0] },
  { name: "deny a string", block: tools({ deny: "bash" }), message: `${P}: deny must be a list of strings, got str`, path: ["roles", "user", "tools", "deny"] },
  { name: "deny a bool", block: tools({ deny: true }), message: `${P}: deny must be a list of strings, got bool`, path: ["roles", "user", "tools", "deny"] },
  { name: "deny a dict", block: tools({ deny: {} }), message: `${P}: deny must be a list of strings, got dict`, path: ["roles", "user", "tools", "deny"] },
  { name: "deny an int", block: tools({ deny: 0 }), message: `${P}: deny must be a list of strings, got int`, path: ["roles", "user", "tools", "deny"] },
];

/** The "Exact inner message" column of the spec's RBAC-constructor table, as patterns. */
function constructorTemplates(): { rule: string; template: string; pattern: RegExp }[] {
  const table = SPEC.slice(SPEC.indexOf("RBAC constructor (`deerflow/authz/rbac.py`)"), SPEC.indexOf("RBAC request time"));
  return tableRows(table, /./)
    .filter((cells) => /^L\d/.test(cells[2] ?? ""))
    .map((cells) => {
      const template = firstCode(cells[1]!)!;
      const source = template
        .split(/(\['<k>'\]|'<v>'|<[a-z]+>)/)
        .map((part) => {
          if (part === "['<k>']") return "\\[.*\\]"; // a Python list of reprs: one key or more, either quote
          if (part === "'<v>'") return `(?:'.*'|".*")`; // a repr: either quote
          if (/^<[a-z]+>$/.test(part)) return ".*";
          return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        })
        .join("");
      return { rule: stripMarkup(cells[0]!), template, pattern: new RegExp(`^${source}$`) };
    });
}

describe("A.1.5 construction messages", () => {
  test("every message here is one of the spec's templates, and every template but the provider-kwarg one is tested", () => {
    const templates = constructorTemplates();
    assert.equal(templates.length, 16);
    const used = new Set<string>();
    for (const rule of RULES) {
      const matching = templates.filter((t) => t.pattern.test(rule.message));
      assert.ok(matching.length >= 1, `${rule.name}: ${rule.message} matches no spec template`);
      for (const t of matching) used.add(t.template);
    }
    const untested = templates.filter((t) => !used.has(t.template)).map((t) => t.rule);
    assert.deepEqual(untested, ["unknown provider kwarg (e.g. RFC's `role_mapping`, typo `rolez`)"], "only the provider kwarg rule is out of reach: the block is flattened");
  });

  for (const rule of RULES) {
    test(rule.name, () => {
      const problems = rbacConstructionProblems(rule.block);
      assert.deepEqual(problems[0], { message: rule.message, jsonPath: rule.path, kind: "invalid" });
      const roles = (rule.block as { roles?: unknown }).roles;
      assert.throws(() => RbacProvider.construct(roles), new RbacError(rule.message), "the provider raises the same first message");
    });
  }

  test("a valid block has no problems", () => {
    assert.deepEqual(rbacConstructionProblems(EXAMPLE), []);
    assert.deepEqual(rbacConstructionProblems({ enabled: true, roles: { user: {} } }), []);
    assert.deepEqual(rbacConstructionProblems(undefined), []);
  });

  test("missing roles is reported only when enabled (DeerFlow builds nothing otherwise)", () => {
    assert.deepEqual(rbacConstructionProblems({ enabled: false }), []);
    assert.deepEqual(rbacConstructionProblems({}), []);
  });

  test("all problems, in the order DeerFlow meets them", () => {
    const block = {
      enabled: true,
      default_role: "nobody",
      roles: {
        a: { tools: { alow: "*", allow: null, deny: ["x", 1, ""] }, tool: [] },
        "": null,
        b: { models: { allow: "any" } },
      },
    };
    assert.deepEqual(
      rbacConstructionProblems(block).map((p) => [p.kind, p.message]),
      [
        ["invalid", "role 'a' resource 'tools': unknown policy keys ['alow']; supported: ['allow', 'deny']"],
        ["invalid", "role 'a' resource 'tools': allow must not be null; omit the key, or use '*' / bool / list"],
        ["invalid", "role 'a' resource 'tools': deny list contains non-string or empty item 1"],
        ["invalid", "role 'a' resource 'tools': deny list contains non-string or empty item ''"],
        ["invalid", "role 'a' resource key 'tool' is a reserved request alias; use 'tools' in RBAC config"],
        ["invalid", "role 'a' resource 'tool' must be a dict, got list"],
        ["invalid", "role name must be a non-empty string, got ''"],
        ["invalid", "role '' config must be a dict, got NoneType"],
        ["invalid", "role 'b' resource 'models': allow string must be '*', got 'any'"],
        [
          "default-role-undefined",
          "Invalid authorization default_role for provider 'deerflow.authz.rbac:RbacAuthorizationProvider': authorization.default_role 'nobody' is not defined; known roles: ['', 'a', 'b']",
        ],
      ],
    );
  });
});

describe("default_role (factory)", () => {
  const PREFIX = "Invalid authorization default_role for provider 'deerflow.authz.rbac:RbacAuthorizationProvider': ";
  test("not declared → DeerFlow's message, roles sorted", () => {
    assert.deepEqual(rbacConstructionProblems({ enabled: true, default_role: "member", roles: { guest: {}, admin: {} } }), [
      { message: `${PREFIX}authorization.default_role 'member' is not defined; known roles: ['admin', 'guest']`, jsonPath: ["default_role"], kind: "default-role-undefined" },
    ]);
  });
  test("omitted → the default 'user' must be declared", () => {
    assert.deepEqual(rbacConstructionProblems({ enabled: true, roles: { admin: {} } }), [
      { message: `${PREFIX}authorization.default_role 'user' is not defined; known roles: ['admin']`, jsonPath: ["roles"], kind: "default-role-undefined" },
    ]);
    assert.deepEqual(rbacConstructionProblems({ enabled: true, roles: { user: {} } }), []);
  });
  test("empty", () => {
    assert.deepEqual(rbacConstructionProblems({ enabled: true, default_role: "", roles: { user: {} } }).map((p) => p.message), [
      `${PREFIX}authorization.default_role must be a non-empty string, got ''`,
    ]);
  });
  test("only when enabled", () => {
    assert.deepEqual(rbacConstructionProblems({ enabled: false, default_role: "member", roles: { guest: {} } }), []);
    assert.deepEqual(rbacConstructionProblems({ default_role: "member", roles: { guest: {} } }), []);
  });
  test("an empty role map", () => {
    assert.deepEqual(rbacConstructionProblems({ enabled: true, roles: {} }).map((p) => p.message), [`${PREFIX}authorization.default_role 'user' is not defined; known roles: []`]);
  });
});

describe("Python reprs", () => {
  test("str", () => {
    assert.equal(pyStrRepr("a"), "'a'");
    assert.equal(pyStrRepr("it's"), `"it's"`);
    assert.equal(pyStrRepr(`it's "x"`), `'it\\'s "x"'`);
    assert.equal(pyStrRepr("a\\b\n\t"), "'a\\\\b\\n\\t'");
    assert.equal(pyStrRepr("\u0000\u007f\u00a0\u00e9\u200b"), "'\\x00\\x7f\\xa0é\\u200b'");
    assert.equal(pyStrRepr("😀"), "'😀'");
  });
  test("numbers and containers", () => {
    assert.deepEqual([1, -3, 0, 1.5, 0.1, 1e-5, 0.0001, 1e22, 123456.789, -2.5e-7].map(pyNumberRepr), ["1", "-3", "0", "1.5", "0.1", "1e-05", "0.0001", "10000000000000000000000", "123456.789", "-2.5e-07"]);
    assert.equal(pyRepr([null, true, false, "x", { a: [1] }]), "[None, True, False, 'x', {'a': [1]}]");
  });
  test("sorted() by code point", () => {
    assert.deepEqual(pySorted(["b", "B", "a", "😀", "\uffff", ""]), ["", "B", "a", "b", "\uffff", "😀"]);
    // Without surrogates (the built-in comparison is used then), and with one far down a long list.
    assert.deepEqual(pySorted(["\uffff", "~", "\ue000", "Z", "a b", "a", "é"]), ["Z", "a", "a b", "~", "é", "\ue000", "\uffff"]);
    const many = Array.from({ length: 2000 }, (_, i) => `r${(i * 7919) % 2000}`);
    assert.deepEqual(pySorted([...many, "\ue000", "😀"]).slice(-2), ["\ue000", "😀"]);
    assert.deepEqual(pySorted(many), [...many].sort());
  });
  test("repr of plain names and of names that need escapes", () => {
    assert.equal(pyStrRepr("team-7-ops_9 x"), "'team-7-ops_9 x'");
    assert.equal(pyStrRepr(""), "''");
    assert.equal(pyStrRepr("a\\b"), "'a\\\\b'");
    assert.equal(pyStrRepr("~\u007f"), "'~\\x7f'");
  });
  test("Pydantic lax bool", () => {
    assert.deepEqual(["yes", "On", "1", 1, true, "t", "y"].map(pydanticBool), [true, true, true, true, true, true, true]);
    assert.deepEqual(["no", "OFF", "0", 0, false, "f", "n"].map(pydanticBool), [false, false, false, false, false, false, false]);
    assert.deepEqual(["maybe", 2, null, [], ""].map(pydanticBool), [undefined, undefined, undefined, undefined, undefined]);
  });
});
