/**
 * The dry-run runner, outcome by outcome and runtime by runtime, on the vectors of deepagents-semantics.md
 * (§1.3 canonicalisation, §3.2–§3.5 tools, §11) and DeerFlow's denial text; the conformance suite checks the same
 * engine step by step against the real deepagents-js.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { runScenario, type StepInput } from "../../server/src/engine/dryrun/runner";
import { memoryWorkspace } from "../../server/src/engine/workspace/source";

const SAMPLES = { "README.md": "hello\nworld\n", "secrets/key": "SECRET", "src/a.ts": "const x = 1;\n", ".env": "TOKEN=1\n", "proj/app.log": "x\n", "proj/sub/deep.txt": "d\n" };

function run(config: Record<string, unknown>, steps: StepInput[], role: string | null = null, agent = "main") {
  const { model } = checkConfigText(JSON.stringify({ version: 1, workspace: { root: "./ws", mountAt: "/workspace" }, ...config }));
  return runScenario(model!, { agent, role, steps }, memoryWorkspace(SAMPLES));
}
const step = (tool: string, args: Record<string, unknown>, more: Partial<StepInput> = {}): StepInput => ({ tool, args, ...more });
const DENY_SECRETS = [{ operations: ["read", "write"], paths: ["/workspace/secrets/**"], mode: "deny" }];
const FS = { type: "filesystem", rootDir: "/srv", virtualMode: true };

test("deepagents-js: a denied read names the deciding rule; a .-segment path reads the secret on a filesystem backend (T1, T6, T7)", () => {
  const r = run({ backend: FS, permissions: DENY_SECRETS }, [
    step("read_file", { file_path: "/workspace/secrets/key" }),
    step("read_file", { file_path: "/workspace/secrets/./key" }),
    step("read_file", { file_path: "/./workspace/secrets/key" }),
    step("write_file", { file_path: "/workspace/secrets/./new", content: "x" }),
  ]);
  assert.deepEqual(r.steps.map((s) => [s.outcome, s.output]), [
    ["permission-denied", "Error: permission denied for read on /workspace/secrets/key"],
    ["ok", "@@ lines 1-1 of 1 @@\nSECRET"],
    ["ok", "@@ lines 1-1 of 1 @@\nSECRET"],
    ["ok", "Successfully wrote to '/workspace/secrets/./new'"],
  ]);
  assert.deepEqual(r.steps[0]!.rule, { index: 0, pattern: "/workspace/secrets/**", mode: "deny" });
});

test("deepagents-js: on a state backend a .-segment key is another key (file not found), and the write makes an odd key (§1.3)", () => {
  const r = run({ backend: { type: "state" }, permissions: DENY_SECRETS }, [
    step("read_file", { file_path: "/workspace/secrets/./key" }),
    step("write_file", { file_path: "/workspace/secrets/./new", content: "x" }),
    step("ls", { path: "/workspace/secrets/." }),
  ]);
  assert.deepEqual(r.steps.map((s) => [s.outcome, s.output]), [
    ["error", "Error: File '/workspace/secrets/./key' not found"],
    ["ok", "Successfully wrote to '/workspace/secrets/./new'"],
    ["ok", "/workspace/secrets/./new (1 bytes)"],
  ]);
});

test("deepagents-js: invalid paths are errors only while the agent has rules; delete validates always (§1.3, §3.5, §11.3)", () => {
  const withRules = run({ backend: FS, permissions: DENY_SECRETS }, [
    step("read_file", { file_path: "secrets/key" }),
    step("read_file", { file_path: "/workspace/../secrets/key" }),
    step("ls", { path: "" }),
  ]);
  assert.deepEqual(withRules.steps.map((s) => [s.outcome, s.output]), [
    ["error", 'Error: path must be absolute: "secrets/key"'],
    ["error", 'Error: path must not contain "..": "/workspace/../secrets/key"'],
    ["error", "Error: path must be a non-empty string"],
  ]);
  const noRules = run({ backend: FS }, [
    step("read_file", { file_path: "workspace/README.md" }),
    step("read_file", { file_path: "/workspace/a..b" }),
    step("delete", { file_path: "workspace/README.md" }),
    step("ls", { path: "/workspace/missing" }),
    step("glob", { pattern: "*.nothing", path: "/workspace" }),
  ]);
  assert.deepEqual(noRules.steps.map((s) => [s.outcome, s.output]), [
    // No rules: the raw relative path reaches the backend, which reads it under its root.
    ["ok", "@@ lines 1-2 of 2 @@\nhello\nworld"],
    // FilesystemBackend refuses `..` anywhere, even inside a name.
    ["error", "Error: Error reading file '/workspace/a..b': Path traversal not allowed"],
    ["error", 'Error: path must be absolute: "workspace/README.md"'],
    ["ok", "No files found in /workspace/missing"],
    ["ok", "No files found matching pattern '*.nothing'"],
  ]);
});

test("deepagents-js: ls, glob and grep drop denied entries; the root .env survives /**/.env (§3.3)", () => {
  const r = run({ backend: FS, permissions: [{ operations: ["read"], paths: ["/workspace/secrets/**", "/**/.env"], mode: "deny" }] }, [
    step("ls", { path: "/workspace" }),
    step("glob", { pattern: "**/*", path: "/workspace" }),
    step("grep", { pattern: "E", path: "/workspace" }),
  ]);
  assert.equal(r.steps[0]!.output, "/workspace/proj/ (directory)\n/workspace/README.md (12 bytes)\n/workspace/src/ (directory)");
  assert.equal(r.steps[1]!.output, "/workspace/proj/app.log\n/workspace/proj/sub/deep.txt\n/workspace/README.md\n/workspace/src/a.ts");
  assert.equal(r.steps[2]!.output, "No matches found for pattern 'E'");
});

test("delete: the subtree geometry blocks a folder and cites every deny pattern; a plain file goes first-match (§3.5 D5, D8, D14, D22, D25)", () => {
  const cases: [unknown[], string, string][] = [
    [[{ operations: ["write"], paths: ["/workspace/proj/*"], mode: "deny" }], "/workspace/proj/sub", "Error: permission denied for write on /workspace/proj/sub (matches deny rule(s): /workspace/proj/*)"],
    [[{ operations: ["write"], paths: ["/workspace/proj/*.log"], mode: "deny" }], "/workspace/proj/app.log", "Error: permission denied for write on /workspace/proj/app.log (matches deny rule(s): /workspace/proj/*.log)"],
    [[{ operations: ["write"], paths: ["/workspace/proj/**"], mode: "deny" }], "/workspace/proj", "Error: permission denied for write on /workspace/proj (matches deny rule(s): /workspace/proj/**)"],
    [[{ operations: ["write"], paths: ["/workspace/proj/**"] }, { operations: ["write"], paths: ["/**"], mode: "deny" }], "/workspace/proj/app.log", "Deleted /workspace/proj/app.log"],
    [[{ operations: ["write"], paths: ["/workspace/proj/**"] }, { operations: ["write"], paths: ["/**"], mode: "deny" }], "/workspace/proj/sub", "Error: permission denied for write on /workspace/proj/sub (matches deny rule(s): /**)"],
    [[{ operations: ["write"], paths: ["/workspace/proj/a/**"], mode: "deny" }, { operations: ["write"], paths: ["/workspace/proj/b/**", "/other/**"], mode: "deny" }], "/workspace/proj", "Error: permission denied for write on /workspace/proj (matches deny rule(s): /workspace/proj/a/**, /workspace/proj/b/**)"],
  ];
  for (const [permissions, target, output] of cases) {
    const r = run({ backend: FS, permissions }, [step("delete", { file_path: target })]);
    assert.equal(r.steps[0]!.output, output, JSON.stringify(permissions));
    if (output.startsWith("Error")) {
      assert.equal(r.steps[0]!.outcome, "permission-denied");
      assert.ok(r.steps[0]!.denyPatterns!.length >= 1 && r.steps[0]!.rule);
    }
  }
  // The delete goes to the overlay: a later step no longer sees the folder.
  const r = run({ backend: FS }, [step("delete", { file_path: "/workspace/proj" }), step("ls", { path: "/workspace/proj" })]);
  assert.deepEqual(r.steps.map((s) => s.output), ["Deleted /workspace/proj", "No files found in /workspace/proj"]);
});

test("edit_file: exact matching, multiple occurrences need replace_all, later steps see the edit", () => {
  const r = run({ backend: FS }, [
    step("edit_file", { file_path: "/workspace/README.md", old_string: "o", new_string: "0" }),
    step("edit_file", { file_path: "/workspace/README.md", old_string: "o", new_string: "0", replace_all: true }),
    step("edit_file", { file_path: "/workspace/README.md", old_string: "zzz", new_string: "0" }),
    step("read_file", { file_path: "/workspace/README.md" }),
  ]);
  assert.deepEqual(r.steps.map((s) => [s.outcome, s.output]), [
    ["error", "Error: String 'o' has multiple occurrences (appears 2 times) in file. Use replace_all=True to replace all instances, or provide a more specific string with surrounding context."],
    ["ok", "Successfully replaced 2 occurrence(s) in '/workspace/README.md'"],
    ["error", "Error: String not found in file: 'zzz'"],
    ["ok", "@@ lines 1-2 of 2 @@\nhell0\nw0rld"],
  ]);
});

test("tool-unavailable carries the effective-tools reason; an unknown tool is not called", () => {
  const r = run({ backend: { type: "store" }, middleware: [{ type: "filesystem", tools: ["read_file", "ls"], permissions: [], backend: { type: "store" } }] }, [
    step("execute", { command: "ls" }),
    step("write_file", { file_path: "/workspace/x", content: "" }),
    step("read_fil", { file_path: "/workspace/x" }),
  ]);
  assert.deepEqual(r.steps.map((s) => s.outcome), ["tool-unavailable", "tool-unavailable", "tool-unavailable"]);
  assert.match(r.steps[0]!.reason!, /execute/);
  assert.match(r.steps[1]!.reason!, /^write_file is hidden: not in the tools allowlist/);
});

test("authorization-denied: DeerFlow's text and reason code, one journal entry per denial, never the arguments", () => {
  const authorization = { enabled: true, fail_closed: true, default_role: "user", roles: { user: { tools: { allow: "*", deny: ["delete"] } }, guest: { tools: { allow: ["read_file"] } } } };
  const r = run({ backend: FS, authorization }, [
    step("delete", { file_path: "/workspace/README.md" }),
    step("read_file", { file_path: "/workspace/README.md" }),
  ], "user");
  assert.equal(r.steps[0]!.outcome, "authorization-denied");
  assert.equal(r.steps[0]!.output, "Guardrail denied: tool 'delete' was blocked (authz.denied). Reason: role 'user' is denied 'delete' on resource 'tool'. Choose an alternative approach.");
  assert.equal(r.steps[1]!.outcome, "ok");
  assert.deepEqual(r.journal, [{ tool: "delete", callId: "call_1", agent: "main", role: "user", policyId: "rbac:deny", reasonCodes: ["authz.denied"], failClosed: true }]);
  assert.ok(!JSON.stringify(r.journal).includes("README"));
  // An unknown role: the provider raises and fail_closed denies every tool.
  const unknown = run({ backend: FS, authorization }, [step("ls", {})], "editor");
  assert.equal(unknown.steps[0]!.outcome, "authorization-denied");
  assert.match(unknown.steps[0]!.output, /\(oap\.evaluator_error\)\. Reason: guardrail provider error \(fail-closed\)/);
  assert.equal(unknown.journal[0]!.policyId, null);
});

test("task runs the nested steps as that subagent, numbered after the task entry; expectations pass or fail", () => {
  const r = run({ backend: FS, permissions: DENY_SECRETS, subagents: [{ name: "auditor", description: "d", permissions: [] }] }, [
    step("task", { subagent_type: "auditor", description: "look" }, { steps: [step("read_file", { file_path: "/workspace/secrets/key" }, { expect: { outcome: "permission-denied" } })] }),
    step("task", { subagent_type: "nobody", description: "x" }),
  ]);
  assert.deepEqual(r.steps.map((s) => [s.index, s.agent, s.tool, s.outcome]), [[1, "main", "task", "ok"], [2, "auditor", "read_file", "ok"], [3, "main", "task", "error"]]);
  assert.equal(r.steps[1]!.passed, false);
  assert.equal(r.steps[1]!.failure, "expected permission-denied, got ok");
  assert.equal(r.passed, false);
  assert.equal(r.steps[2]!.output, "Error: invoked agent of type nobody, the only allowed types are `general-purpose`, `auditor`");
});

test("deepagents-py: validates always, hands the normalised path on, and its matcher leaves /workspace and dotfiles to /** rules (T2, T8, T13, T17)", () => {
  const r = run({ runtime: "deepagents-py", backend: FS, permissions: [{ operations: ["read"], paths: ["/workspace/secrets/**", "/**"], mode: "deny" }] }, [
    step("read_file", { file_path: "/workspace/secrets" }),
    step("read_file", { file_path: "workspace/secrets/key" }),
    step("read_file", { file_path: "/workspace/secrets/./key" }),
    step("read_file", { file_path: "/.env" }),
    step("read_file", { file_path: "/workspace/../x" }),
  ]);
  assert.deepEqual(r.steps.map((s) => [s.outcome, s.output]), [
    ["permission-denied", "Error: permission denied for read on /workspace/secrets"],
    ["permission-denied", "Error: permission denied for read on /workspace/secrets/key"],
    ["permission-denied", "Error: permission denied for read on /workspace/secrets/key"],
    // `/**` does not cover a dotfile in Python: allowed, and missing at the root of the backend.
    ["error", "Error: Error reading file '/.env': ENOENT: no such file or directory, stat '/.env'"],
    ["error", "Error: Path traversal not allowed: /workspace/../x"],
  ]);
});

test("delete of a dotfile under /proj/*: deepagents-js blocks it, deepagents-py's matcher does not (§3.5 D28)", () => {
  const config = (runtime: string) => ({ runtime, backend: FS, permissions: [{ operations: ["write"], paths: ["/workspace/proj/*"], mode: "deny" }] });
  const steps = [step("delete", { file_path: "/workspace/proj/app.log" }), step("delete", { file_path: "/workspace/proj/.env" })];
  const js = run(config("deepagents-js"), steps);
  assert.equal(js.steps[0]!.output, "Error: permission denied for write on /workspace/proj/app.log (matches deny rule(s): /workspace/proj/*)");
  assert.equal(js.steps[1]!.output, "Error: permission denied for write on /workspace/proj/.env (matches deny rule(s): /workspace/proj/*)");
  // Python's `*` skips the dotfile: no pattern blocks, and the backend answers that nothing is there.
  const py = run(config("deepagents-py"), steps);
  assert.equal(py.steps[0]!.outcome, "permission-denied");
  assert.deepEqual([py.steps[1]!.outcome, py.steps[1]!.output], ["error", "Error: '/workspace/proj/.env' not found"]);
});
