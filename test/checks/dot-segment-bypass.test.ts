import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";
import { deepagentsJs } from "../../server/src/engine/runtime";
import { CompiledRuleList, type PermissionRuleInput } from "../../server/src/engine/permissions/ruleList";
import { decideToolPath } from "../../server/src/engine/permissions/decideToolPath";

const CODE = "dot-segment-bypass";
const FILESYSTEM = `"backend": { "type": "filesystem", "rootDir": "/srv/agent", "virtualMode": true },\n  `;

test("fires once per rule list, on its first deny rule, with a call the rules let through", () => {
  const [finding] = expectFindings(
    config(`${FILESYSTEM}"permissions": [
    { "operations": ["read"], "paths": ["/workspace/**"], "mode": "allow" },
    ⟦{ "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" }⟧,
    { "operations": ["write"], "paths": ["/**"], "mode": "deny" }
  ]`),
    CODE,
  );
  assert.equal(finding!.severity, "warning");
  assert.equal(
    finding!.message,
    "deepagents-js 1.14.1 keeps `.` segments in tool paths, and its matcher never lets `*` or `**` match one: `read_file(\"/secrets/./key\")` is not denied by these rules, though `/secrets/key` is, and the `filesystem` backend opens that same file (§1.3). Deny `.` segments in a first rule.",
  );
  assert.equal(finding!.witness, "/secrets/./key");
  // The witness, through the runtime's own tool-path decision (T6): allowed, while its dot-free twin is denied.
  const rules = new CompiledRuleList(deepagentsJs, [
    { operations: ["read"], paths: ["/workspace/**"], mode: "allow" },
    { operations: ["read", "write"], paths: ["/secrets/**"], mode: "deny" },
    { operations: ["write"], paths: ["/**"], mode: "deny" },
  ]);
  assert.equal(decideToolPath(deepagentsJs, rules, "read", "/secrets/./key").outcome, "allow");
  assert.equal(decideToolPath(deepagentsJs, rules, "read", "/secrets/key").outcome, "deny");
});

test("fires for a sandbox, a composite routing to real files, and a subagent's own list", () => {
  expectFindings(
    config(`"backend": { "type": "sandbox", "provider": "local-shell" },
  "permissions": [⟦{ "operations": ["write"], "paths": ["/etc/**"], "mode": "deny" }⟧]`),
    CODE,
  );
  const [routed] = expectFindings(
    config(`"backend": { "type": "composite", "default": { "type": "state" }, "routes": { "/data/": { "type": "filesystem", "rootDir": "/srv" } } },
  "permissions": [⟦{ "operations": ["read"], "paths": ["/data/private/**"], "mode": "deny" }⟧]`),
    CODE,
  );
  assert.equal(routed!.witness, "/data/private/./key");
  assert.match(routed!.message, /the `filesystem` backend behind the route `\/data\/` opens that same file/);
  expectFindings(
    config(`${FILESYSTEM}"subagents": [{ "name": "auditor", "description": "d", "permissions": [
    ⟦{ "operations": ["read"], "paths": ["/secrets/*"], "mode": "deny" }⟧
  ] }]`),
    CODE,
  );
});

test("does not fire without real files, in deepagents-py, without deny rules, or when `.` segments are already denied", () => {
  const deny = `"permissions": [{ "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" }]`;
  expectNoFindings(config(deny), CODE); // a state backend keys raw strings
  expectNoFindings(config(`"backend": { "type": "store" },\n  ${deny}`), CODE);
  expectNoFindings(config(`"runtime": "deepagents-py",\n  ${FILESYSTEM}${deny}`), CODE);
  expectNoFindings(config(`${FILESYSTEM}"permissions": [{ "operations": ["read"], "paths": ["/secrets/**"] }]`), CODE);
  // The composite sends /secrets/./key to its state default: no real file behind it.
  expectNoFindings(config(`"backend": { "type": "composite", "default": { "type": "state" }, "routes": { "/data/": { "type": "filesystem" } } },\n  ${deny}`), CODE);
  expectNoFindings(config(`${FILESYSTEM}"permissions": [
    { "operations": ["read"], "paths": ["/**/./**", "/./**"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" }
  ]`), CODE);
});

test("fix: insert a first rule denying `/**/./**` and `/./**` for the deny rules' operations", () => {
  const text = config(`${FILESYSTEM}"permissions": [
    { "operations": ["read"], "paths": ["/workspace/**"], "mode": "allow" },
    { "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" },
    { "operations": ["write"], "paths": ["/**"], "mode": "deny" }
  ]`);
  const [finding] = findings(text, CODE);
  assert.deepEqual(finding!.fixes!.map((f) => [f.title, f.safe]), [['Insert a first rule denying "/**/./**" and "/./**"', false]]);
  const fixed = applyFix(text, finding!);
  assert.ok(fixed.includes(`"permissions": [
    { "operations": ["read", "write"], "paths": ["/**/./**", "/./**"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/workspace/**"], "mode": "allow" },`), fixed);
  expectNoFindings(fixed, CODE);
  assert.deepEqual(findings(fixed).filter((f) => f.severity === "error"), []);
  const guarded: PermissionRuleInput[] = [
    { operations: ["read", "write"], paths: ["/**/./**", "/./**"], mode: "deny" },
    { operations: ["read"], paths: ["/workspace/**"], mode: "allow" },
    { operations: ["read"], paths: ["/secrets/**"], mode: "deny" },
  ];
  const rules = new CompiledRuleList(deepagentsJs, guarded);
  for (const path of ["/secrets/./key", "/./secrets/key", "/workspace/./a"]) {
    assert.equal(decideToolPath(deepagentsJs, rules, "read", path).outcome, "deny", path);
  }
  assert.equal(decideToolPath(deepagentsJs, rules, "read", "/workspace/a").outcome, "allow");
});

test("silenced by an ignore comment above the rule", () => {
  expectNoFindings(config(`${FILESYSTEM}"permissions": [
    // agent-sandbox-ignore dot-segment-bypass
    { "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" }
  ]`), CODE);
});
