import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";
import { deepagentsJs } from "../../server/src/engine/runtime";
import { CompiledRuleList, type PermissionRuleInput } from "../../server/src/engine/permissions/ruleList";
import { decideToolPath } from "../../server/src/engine/permissions/decideToolPath";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "../helpers/scratch";

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
  assert.equal(finding!.message, "Agent main can read /secrets/./key with read_file: dot segments bypass this deny.");
  assert.equal(
    finding!.detail,
    'deepagents-js 1.14.1 keeps "." segments in tool paths, and its matcher never lets * or ** match one: read_file("/secrets/./key") is not denied by these rules, though /secrets/key is, and the filesystem backend opens that same file. Agent main has read_file. Deny "." segments in a first rule.',
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
  assert.match(routed!.detail!, /the filesystem backend behind the route \/data\/ opens that same file/);
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
  // which the rule never protected.
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

test("only operations an agent of the list can perform with a tool that opens the file count", () => {
  // The main agent's custom middleware registers no write tool, and the general-purpose subagent inherits it:
  // nobody governed by these rules can write, so only the read is a bypass, and only reads get a guard.
  const readOnly = (rules: string) => config(`${FILESYSTEM}"middleware": [{ "type": "filesystem", "backend": { "type": "filesystem", "rootDir": "/srv/agent", "virtualMode": true }, "tools": ["ls", "read_file", "glob"], "permissions": [
    ${rules}
  ] }]`);
  expectNoFindings(readOnly(`{ "operations": ["write"], "paths": ["/secrets/**"], "mode": "deny" }`), CODE);
  const text = readOnly(`⟦{ "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" }⟧`);
  const [finding] = expectFindings(text, CODE);
  assert.equal(finding!.message, "Agent main can read /secrets/./key with read_file: dot segments bypass this deny.");
  const fixed = applyFix(text.replace(/[⟦⟧]/g, ""), finding!);
  assert.ok(fixed.includes(`/* agent-sandbox-ignore pattern-runtime-syntax */ { "operations": ["read"], "paths": ["/.", "/./@(*|.)*(/*|/.)", "/secrets/*(*/|./).*(/*|/.)"], "mode": "deny" },`), fixed);
  assert.ok(!fixed.includes(`"operations": ["write"], "paths": ["/."`), fixed);
  expectNoFindings(fixed, CODE);
  // ls, glob and grep do not open the file (they filter what they list): without read_file there is no read bypass.
  // (A middleware without read_file is refused, so read_file is hidden here by a role instead.)
  expectNoFindings(config(`${FILESYSTEM}"authorization": { "enabled": true, "default_role": "user", "roles": { "user": { "tools": { "allow": "*", "deny": ["read_file", "write_file", "edit_file"] } } } },
  "permissions": [{ "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" }]`), CODE);
});

test("names the agent that can exploit it, and the role that lets it", () => {
  // Top-level rules govern only the subagent that inherits them: the main agent (and general-purpose) use the
  // custom middleware's own list, which has no deny.
  const [finding] = expectFindings(config(`${FILESYSTEM}"middleware": [{ "type": "filesystem", "backend": { "type": "filesystem", "rootDir": "/srv/agent", "virtualMode": true }, "tools": ["read_file"] }],
  "permissions": [⟦{ "operations": ["write"], "paths": ["/secrets/**"], "mode": "deny" }⟧],
  "subagents": [{ "name": "writer", "description": "d" }]`), CODE);
  assert.equal(finding!.message, "Agent writer can write /secrets/./key with write_file: dot segments bypass this deny.");
  // Authorization: only the role admin may write.
  const [byRole] = expectFindings(config(`${FILESYSTEM}"authorization": { "enabled": true, "default_role": "user", "roles": { "user": { "tools": { "allow": "*", "deny": ["write_file", "edit_file"] } }, "admin": { "tools": { "allow": "*" } } } },
  "permissions": [⟦{ "operations": ["write"], "paths": ["/secrets/**"], "mode": "deny" }⟧]`), CODE);
  assert.equal(byRole!.message, "Agent main can write /secrets/./key with write_file: dot segments bypass this deny.");
  assert.match(byRole!.detail!, /Agent main has write_file \(as role "admin"\)\./);
  // No role may write: nothing to report.
  expectNoFindings(config(`${FILESYSTEM}"authorization": { "enabled": true, "default_role": "user", "roles": { "user": { "tools": { "allow": "*", "deny": ["write_file", "edit_file"] } } } },
  "permissions": [{ "operations": ["write"], "paths": ["/secrets/**"], "mode": "deny" }]`), CODE);
});

test("a path routed to a store is a different key, however the composite routes its dot-free twin", () => {
  // CompositeBackend.getBackendAndKey routes /memories (the prefix without its slash) to the store too: the rule
  // protects the store's root, and /./memories opens the filesystem default's folder, another thing altogether.
  const memories = `"backend": { "type": "composite", "default": { "type": "filesystem", "rootDir": "/srv" }, "routes": { "/memories/": { "type": "store" } } },\n  `;
  expectNoFindings(config(`${memories}"permissions": [{ "operations": ["read", "write"], "paths": ["/memories"], "mode": "deny" }]`), CODE);
  expectNoFindings(config(`${memories}"permissions": [{ "operations": ["read", "write"], "paths": ["/memories/**", "/memories"], "mode": "deny" }]`), CODE);
  // A deny on the filesystem side still fires, with a witness the filesystem default serves.
  const [finding] = expectFindings(config(`${memories}"permissions": [⟦{ "operations": ["read"], "paths": ["/memories/**", "/etc/**"], "mode": "deny" }⟧]`), CODE);
  assert.equal(finding!.witness, "/etc/./key");
  assert.match(finding!.detail!, /the filesystem backend \(the composite's default\) opens that same file/);
});

test("the real deepagents-js tools: read_file, write_file and edit_file open the dotted path; ls, glob, grep and delete do not", async () => {
  const { FilesystemBackend, createFilesystemMiddleware } = await import("deepagents");
  const root = scratchDir("dot-segment");
  const reset = () => {
    rmSync(join(root, "secrets"), { recursive: true, force: true });
    mkdirSync(join(root, "secrets"));
    writeFileSync(join(root, "secrets", "key"), "SECRET\n");
  };
  const middleware = createFilesystemMiddleware({
    backend: new FilesystemBackend({ rootDir: root, virtualMode: true }),
    permissions: [{ operations: ["read", "write"], paths: ["/secrets/**"], mode: "deny" }],
  } as never);
  const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const tool = middleware.tools!.find((t) => t.name === name) as unknown as { invoke(a: unknown, c: unknown): Promise<unknown> };
    const result = (await tool.invoke(args, { toolCall: { id: "1", name, args } })) as { content: unknown };
    return JSON.stringify(result.content);
  };
  const secrets = () => readdirSync(join(root, "secrets")).sort().map((f) => `${f}:${readFileSync(join(root, "secrets", f), "utf8").trim()}`).join(" ");
  reset();
  assert.match(await call("read_file", { file_path: "/secrets/./key" }), /SECRET/);
  assert.match(await call("read_file", { file_path: "/secrets/key" }), /permission denied for read on \/secrets\/key/);
  await call("write_file", { file_path: "/secrets/./new", content: "n" });
  assert.equal(secrets(), "key:SECRET new:n");
  reset();
  await call("edit_file", { file_path: "/secrets/./key", old_string: "SECRET", new_string: "X" });
  assert.equal(secrets(), "key:X");
  reset();
  for (const [name, args] of [["ls", { path: "/secrets/." }], ["glob", { pattern: "*", path: "/secrets/." }], ["grep", { pattern: "SECRET", path: "/secrets/." }]] as const) {
    assert.match(await call(name, args), /^"No (files found|matches found)/, name);
  }
  assert.match(await call("delete", { file_path: "/secrets/./key" }), /permission denied for write/);
  assert.equal(secrets(), "key:SECRET");
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
  assert.deepEqual(finding!.fixes!.map((f) => [f.title, f.safe]), [["Insert a first rule that denies every path with a . segment", false]]);
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
