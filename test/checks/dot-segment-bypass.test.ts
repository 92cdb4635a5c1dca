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
  // The denied paths live on a store route; `/./mem/key` goes to the filesystem default, another file altogether,
  // which the rule never protected (review finding, 4 Dec).
  expectNoFindings(config(`"backend": { "type": "composite", "default": { "type": "filesystem", "rootDir": "/srv" }, "routes": { "/mem/": { "type": "store" } } },
  "permissions": [{ "operations": ["read"], "paths": ["/mem/**"], "mode": "deny" }]`), CODE);
  expectNoFindings(config(`${FILESYSTEM}"permissions": [
    { "operations": ["read"], "paths": ["/.", "/./@(*|.)*(/*|/.)", "/secrets/*(*/|./).*(/*|/.)"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" }
  ]`), CODE);
});

test("still fires behind a guard that stops at one `.` segment (micromatch's `**` skips the second)", () => {
  const [finding] = expectFindings(config(`${FILESYSTEM}"permissions": [
    ⟦{ "operations": ["read"], "paths": ["/**/./**", "/./**"], "mode": "deny" }⟧,
    { "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" }
  ]`), CODE);
  assert.equal(finding!.witness, "/secrets/././key");
  const rules = new CompiledRuleList(deepagentsJs, [
    { operations: ["read"], paths: ["/**/./**", "/./**"], mode: "deny" },
    { operations: ["read"], paths: ["/secrets/**"], mode: "deny" },
  ]);
  assert.equal(decideToolPath(deepagentsJs, rules, "read", "/secrets/././key").outcome, "allow");
});

/** Every canonical deepagents-js path up to `depth` segments over `names`. */
function universe(names: readonly string[], depth: number): string[] {
  const out: string[] = [];
  let level = [""];
  for (let d = 0; d < depth; d++) {
    level = level.flatMap((p) => names.map((n) => `${p}/${n}`));
    out.push(...level);
  }
  return out.filter((p) => {
    const c = deepagentsJs.canonicalToolPath(p, true);
    return c.ok && c.path === p;
  });
}

test("fix: insert a first rule that denies every path with a `.` segment, anchored on the deny rules' folders", () => {
  const text = config(`${FILESYSTEM}"permissions": [
    { "operations": ["read"], "paths": ["/workspace/**"], "mode": "allow" },
    { "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" },
    { "operations": ["write"], "paths": ["/data/private/*.key"], "mode": "deny" }
  ]`);
  const [finding] = findings(text, CODE);
  assert.deepEqual(finding!.fixes!.map((f) => [f.title, f.safe]), [["Insert a first rule that denies every path with a `.` segment", false]]);
  const fixed = applyFix(text, finding!);
  const readGuard = ["/.", "/./@(*|.)*(/*|/.)", "/secrets/*(*/|./).*(/*|/.)"];
  const writeGuard = ["/.", "/./@(*|.)*(/*|/.)", "/data/.", "/data/./@(*|.)*(/*|/.)", "/data/private/*(*/|./).*(/*|/.)"];
  const list = (items: string[]) => JSON.stringify(items).replace(/","/g, '", "');
  assert.ok(fixed.includes(`"permissions": [
    /* agent-sandbox-ignore pattern-runtime-syntax */ { "operations": ["read"], "paths": ${list(readGuard)}, "mode": "deny" },
    /* agent-sandbox-ignore pattern-runtime-syntax */ { "operations": ["write"], "paths": ${list(writeGuard)}, "mode": "deny" },
    { "operations": ["read"], "paths": ["/workspace/**"], "mode": "allow" },`), fixed);
  expectNoFindings(fixed, CODE);
  // The guard is JS-only syntax on purpose; the inserted comment says so. Nothing new at error level.
  assert.deepEqual(findings(fixed, "pattern-runtime-syntax"), []);
  assert.deepEqual(findings(fixed).filter((f) => f.severity === "error"), []);

  // Proof, by the runtime's own decisions over every canonical path up to depth 4: a path with `.` segments is
  // denied whenever its dot-free twin is, and no dot-free path changes its decision.
  const original: PermissionRuleInput[] = [
    { operations: ["read"], paths: ["/workspace/**"], mode: "allow" },
    { operations: ["read"], paths: ["/secrets/**"], mode: "deny" },
    { operations: ["write"], paths: ["/data/private/*.key"], mode: "deny" },
  ];
  const before = new CompiledRuleList(deepagentsJs, original);
  const after = new CompiledRuleList(deepagentsJs, [
    { operations: ["read"], paths: readGuard, mode: "deny" },
    { operations: ["write"], paths: writeGuard, mode: "deny" },
    ...original,
  ]);
  const paths = universe(["secrets", "data", "private", "a.key", ".", ".env", "workspace"], 4);
  assert.ok(paths.length > 2000);
  for (const op of ["read", "write"] as const) {
    for (const path of paths) {
      const segments = path.split("/").slice(1);
      const twin = `/${segments.filter((s) => s !== ".").join("/")}`;
      if (segments.includes(".")) {
        if (before.decide(op, twin).decision === "deny") assert.equal(after.decide(op, path).decision, "deny", `${op} ${path}`);
      } else {
        assert.equal(after.decide(op, path).decision, before.decide(op, path).decision, `${op} ${path}`);
      }
    }
  }
  // What the brief's shorter guard would have left open (micromatch 4.0.8): two `.` segments.
  const short = new CompiledRuleList(deepagentsJs, [{ operations: ["read"], paths: ["/**/./**", "/./**"], mode: "deny" }, ...original]);
  assert.equal(decideToolPath(deepagentsJs, short, "read", "/secrets/././key").outcome, "allow");
  assert.equal(decideToolPath(deepagentsJs, after, "read", "/secrets/././key").outcome, "deny");
});

test("fix: a deny whose first segment is a wildcard gets one guard for the whole tree, for its operation only", () => {
  const text = config(`${FILESYSTEM}"permissions": [{ "operations": ["read"], "paths": ["/**/.env", "/secrets/**"], "mode": "deny" }, { "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" }]`);
  const fixed = applyFix(text, findings(text, CODE)[0]!);
  // The write guard keeps the anchors of the write denies: a wildcard anchor would block every directory delete.
  assert.ok(fixed.includes(`"permissions": [/* agent-sandbox-ignore pattern-runtime-syntax */ { "operations": ["read"], "paths": ["/*(*/|./).*(/*|/.)"], "mode": "deny" }, /* agent-sandbox-ignore pattern-runtime-syntax */ { "operations": ["write"], "paths": ["/.", "/./@(*|.)*(/*|/.)", "/secrets/*(*/|./).*(/*|/.)"], "mode": "deny" }, { "operations"`), fixed);
  expectNoFindings(fixed, CODE);
  const guard = deepagentsJs.compilePattern("/*(*/|./).*(/*|/.)");
  for (const path of universe(["a", ".", ".env"], 4)) assert.equal(guard.matches(path), path.split("/").includes("."), path);
});

test("silenced by an ignore comment above the rule", () => {
  expectNoFindings(config(`${FILESYSTEM}"permissions": [
    // agent-sandbox-ignore dot-segment-bypass
    { "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" }
  ]`), CODE);
});
