/** The scenario checks, each firing and not firing, on scenario texts checked against an in-memory config. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkDryRunText } from "../../server/src/engine/checkDryRun";
import { memoryWorkspace } from "../../server/src/engine/workspace/source";

const CONFIG = JSON.stringify({
  version: 1,
  backend: { type: "filesystem", rootDir: "./ws", virtualMode: true },
  tools: ["web_search"],
  permissions: [{ operations: ["read", "write"], paths: ["/workspace/.env"], mode: "deny" }],
  subagents: [{ name: "auditor", description: "d" }],
  authorization: { enabled: true, default_role: "user", roles: { user: { tools: { allow: "*" } }, guest: { tools: { allow: ["read_file"] } } } },
  workspace: { root: "./ws", mountAt: "/workspace" },
});
const FILES: Record<string, string> = { "agent-sandbox.jsonc": CONFIG, "bad.jsonc": JSON.stringify({ version: 1, permissions: [{ operations: ["read"], paths: ["relative/x"], mode: "deny" }] }) };

function check(scenario: unknown) {
  const text = JSON.stringify(scenario, null, 2);
  const { findings, lines } = checkDryRunText(text, {
    readFile: (p) => FILES[p.replace(/^\.\//, "")],
    workspace: () => memoryWorkspace({ "README.md": "hi\n", ".env": "X=1\n" }),
  });
  return findings.map((f) => ({ code: f.code, message: f.message, at: text.slice(f.span.start, f.span.end), detail: f.detail, fix: f.fixes?.[0]?.title, line: lines.positionAt(f.span.start).line }));
}
const codes = (s: unknown) => check(s).map((f) => f.code);
const base = (more: Record<string, unknown> = {}) => ({ config: "./agent-sandbox.jsonc", steps: [{ tool: "read_file", args: { file_path: "/workspace/README.md" }, expect: "ok" }], ...more });

test("a clean scenario whose expectations hold has no findings", () => {
  assert.deepEqual(check(base({ role: "guest" })), []);
});

test("scenario-config-missing and scenario-config-invalid sit on the config key", () => {
  const missing = check(base({ config: "./nope.jsonc" }));
  assert.deepEqual(missing.map((f) => [f.code, f.message, f.at]), [["scenario-config-missing", "The config this scenario names cannot be read.", '"./nope.jsonc"']]);
  const invalid = check(base({ config: "./bad.jsonc", steps: [] }));
  assert.deepEqual(invalid.map((f) => [f.code, f.at]), [["scenario-config-invalid", '"./bad.jsonc"']]);
  assert.match(invalid[0]!.detail!, /path-not-absolute/);
});

test("scenario-agent-unknown: the scenario's agent and a task's subagent_type, with did-you-mean", () => {
  const found = check(base({ agent: "auditr", steps: [{ tool: "task", args: { subagent_type: "auditorr", description: "x" } }] }));
  assert.deepEqual(found.map((f) => [f.code, f.at, f.fix]), [
    ["scenario-agent-unknown", '"auditorr"', 'Change to "auditor"'],
    ["scenario-agent-unknown", '"auditr"', 'Change to "auditor"'],
  ]);
  assert.deepEqual(codes(base({ agent: "general-purpose" })), []);
});

test("scenario-role-unknown, with did-you-mean; none for a known role", () => {
  const found = check(base({ role: "gest" }));
  assert.deepEqual(found.map((f) => [f.code, f.message, f.fix]), [["scenario-role-unknown", 'The config has no role named "gest".', 'Change to "guest"']]);
});

test("scenario-tool-unknown: not a filesystem tool, task or a user tool of the config", () => {
  const found = check(base({ steps: [{ tool: "read_fil", args: { file_path: "/workspace/README.md" } }, { tool: "web_search", args: {} }] }));
  assert.deepEqual(found.map((f) => [f.code, f.at, f.fix]), [["scenario-tool-unknown", '"read_fil"', 'Change to "read_file"']]);
});

test("scenario-args-invalid: a missing or mistyped argument of a built-in tool, inside task steps too", () => {
  const found = check(base({ steps: [
    { tool: "write_file", args: { file_path: "/workspace/a" } },
    { tool: "read_file", args: { file_path: 3 } },
    { tool: "read_file", args: { path: "/workspace/README.md" } },
    { tool: "task", args: { subagent_type: "auditor", description: "x", steps: [{ tool: "grep", args: { pattern: "x", output_mode: "lines" } }] } },
  ] }));
  assert.deepEqual(found.map((f) => [f.code, f.detail!.split(".")[0]]), [
    ["scenario-args-invalid", "content is required"],
    ["scenario-args-invalid", "file_path must be a string, not number"],
    ["scenario-args-invalid", "output_mode must be one of files_with_matches, content, count"],
  ]);
});

test("scenario-expectation-failed: on the expectation, with the actual outcome, its reason and a fix", () => {
  const found = check(base({ steps: [
    { tool: "read_file", args: { file_path: "/workspace/.env" }, expect: "ok" },
    { tool: "read_file", args: { file_path: "/workspace/./.env" }, expect: { outcome: "permission-denied" } },
    { tool: "read_file", args: { file_path: "/workspace/README.md" }, expect: { outcome: "ok", outputContains: "bye" } },
    { tool: "read_file", args: { file_path: "/workspace/README.md" }, expect: "ok" },
  ] }));
  assert.deepEqual(found.map((f) => [f.code, f.message, f.at, f.fix]), [
    ["scenario-expectation-failed", "Expected ok, but the dry run gives permission-denied.", '"ok"', "Expect permission-denied"],
    ["scenario-expectation-failed", "Expected permission-denied, but the dry run gives ok.", '{\n        "outcome": "permission-denied"\n      }', "Expect ok"],
    ["scenario-expectation-failed", "The step's output does not meet its expectation.", '{\n        "outcome": "ok",\n        "outputContains": "bye"\n      }', undefined],
  ]);
  assert.match(found[0]!.detail!, /Decided by rule 0 \(deny \/workspace\/\.env\)\. The runtime answers: Error: permission denied for read on \/workspace\/\.env/);
  for (const f of found) assert.ok(f.message.split(" ").length < 20 && !f.message.includes("`"), f.message);
});

test("without a host that reads files only the shape is checked", () => {
  assert.deepEqual(checkDryRunText(JSON.stringify(base({ agent: "nobody" }))).findings, []);
});
