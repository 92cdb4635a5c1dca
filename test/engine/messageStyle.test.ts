/**
 * The wording of every diagnostic (test/helpers/messageStyle.ts): one plain-text sentence of under 20 words that
 * ends with a period, with no backticks and no "§" (editors show messages as plain text; users have no spec), the
 * rest in the detail, plain too; fix titles without backticks. Every check test holds each finding it meets to
 * this (test/helpers/checkFixture.ts); this file runs the whole engine over a corpus that makes every code fire,
 * each in several of its wordings, and over the shipped example and the CLI's every-section fixture.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { checkConfigText, type CheckOptions } from "../../server/src/engine/checkConfig";
import { checkDryRunText } from "../../server/src/engine/checkDryRun";
import { MAX_RUN_STEPS } from "../../server/src/engine/dryrun/runner";
import { memoryWorkspace, type WorkspaceSource } from "../../server/src/engine/workspace/source";
import { knownCodes } from "../../server/src/engine/checks/index";
import { checkDeerFlowConfigText } from "../../server/src/engine/deerflow/checkDeerFlow";
import type { Finding } from "../../server/src/engine/diagnostics";
import { millionFileWorkspace } from "../helpers/dryRunBadInputs";
import { MAX_MESSAGE_WORDS, STYLE_EXEMPT_CODES, styleProblems } from "../helpers/messageStyle";

const ROOT = join(__dirname, "..", "..");
const cfg = (members: string) => `{\n  "version": 1,\n  ${members}\n}\n`;
const DENY = `[{ "operations": ["write"], "paths": ["/secrets/**"], "mode": "deny" }]`;
const rules = (list: string, extra = "") => cfg(`${extra}"permissions": [${list}]`);
const rule = (paths: string, more = `"mode": "deny"`) => `{ "operations": ["read"], "paths": [${paths}], ${more} }`;
const PY = `"runtime": "deepagents-py",\n  `;
const BOTH = `"compatibleWith": ["deepagents-py"],\n  `;
const authz = (block: string, extra = "") => cfg(`${extra}"authorization": ${block}`);

/** Skills on a disk of their own (the skill checks read SKILL.md files). */
const skills: CheckOptions = {
  readFile: (p) => ({ "./skills/review/SKILL.md": "---\nname: review\nallowed-tools: Read, Grep\n---\n", "./skills/other/SKILL.md": "---\nallowed-tools:\n  - read_file\n  - web_serch\n---\n" })[p],
  fileExists: (p) => p.startsWith("./skills/"),
  listDirectory: (p) => (p === "./skills" ? ["review", "other"] : undefined),
};

/** [config, options?]: each makes one or more codes fire, most in more than one wording. */
const CORPUS: [string, CheckOptions?][] = [
  [cfg(`${PY}"middleware": [{ "type": "filesystem", "tools": "ls" }]`)],
  ["{ \"version\": 1, "],
  [""],
  ["[]"],
  [cfg(`"permisions": [],\n  "runtime": "deepagents-ts",\n  "tools": "web_search",\n  "name": "a",\n  "name": "b"`)],
  [cfg(`"runtime": "deepagents-python"`)],
  [authz(`{ "enabled": "maybe", "roles": { "user": { "tools": { "allow": "*" } } }, "provider": {} }`)],
  [cfg(`"systemPrompt": "x",\n  "systemPromptFile": "./AGENTS.md"`)],
  [rules([rule(`"relative/x", "", 3, "/a/../b", "/a/~", "!x"`)].join(","))],
  [rules([rule(`"relative/x", "", 3, "/a/../b", "/a/~", "/a\\\\..\\\\b"`)].join(","), PY + BOTH.replace("deepagents-py", "deepagents-js"))],
  [rules([rule(`"/workspace/", "/secrets//**", "/x/**/", "/data/{1..10..2}.txt", "/data/{01..03}.txt", "/d/{1..20}/**", "/a/{1..3}{5..20..5}"`)].join(","))],
  [rules([rule(`"/workspace/", "/a/*/"`)].join(","), PY)],
  [rules([rule(`"/workspace/", "/secrets//**"`)].join(","), PY + `"compatibleWith": ["deepagents-js"],\n  `)],
  [rules([rule(`"/data/[!a].txt", "/**/.env", "/**/*.txt", "/data/@(a|b).txt", "/a/(b|c)", "/a|/b"`)].join(","), BOTH)],
  [rules([rule(`"/data/@(a|b).txt"`)].join(","), PY)],
  [rules([rule(`"/{${Array.from({ length: 12 }, (_, i) => `a${i},b${i}`).join("}{")}}"`)].join(","), PY)],
  [rules([rule(`"/${"x".repeat(70000)}"`)].join(","))],
  [rules([
    `{ "operations": ["read"], "paths": [], "mode": "deny" }`,
    `{ "operations": [], "paths": ["/x"], "mode": "deny" }`,
    `{ "operations": ["read", "raed", "delete", "exec"], "paths": ["/y"], "mode": "block" }`,
    `{ "operations": ["read"], "paths": ["/z"], "mode": "Deny" }`,
    `{ "operations": ["read"], "paths": "/abc", "mode": "deny" }`,
    `{ "operations": ["read"], "paths": "/", "mode": "deny" }`,
    `{ "operations": ["write"], "paths": ["/z"], "mode": "interrupt" }`,
    `{ "operations": "readwrite", "paths": ["/a"], "mode": "deny" }`,
    `{ "operations": "rw", "paths": ["/b"], "mode": "deny" }`,
  ].join(",\n    "))],
  [rules(`{ "operations": [], "paths": ["/s/**"], "mode": "deny" }`)],
  [rules([
    `{ "operations": ["read", "write"], "paths": ["/workspace/**"], "mode": "allow" }`,
    `{ "operations": ["read", "write"], "paths": ["/workspace/.env"], "mode": "deny" }`,
    `{ "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" }`,
    `{ "operations": ["read"], "paths": ["/secrets/key.pem"], "mode": "deny" }`,
    `{ "operations": ["read", "write"], "paths": ["/**"], "mode": "deny" }`,
    `{ "operations": ["read", "write"], "paths": ["/other/**"] }`,
  ].join(",\n    "), BOTH)],
  [rules([
    ...Array.from({ length: 12 }, (_, i) => `{ "operations": ["read"], "paths": ["/w/k${i}/**", "/w/k${i}"], "mode": "allow" }`),
    `{ "operations": ["read"], "paths": [${Array.from({ length: 12 }, (_, i) => `"/w/k${i}/**"`).join(", ")}], "mode": "deny" }`,
    `{ "operations": ["read"], "paths": ["/w/**"], "mode": "deny" }`,
  ].join(",\n    "))],
  [rules(`{ "operations": ["read"], "paths": ["/ws/**"], "mode": "deny" }, { "operations": ["read"], "paths": ["/ws"], "mode": "deny" }, { "operations": ["read"], "paths": ["/ws/a"], "mode": "deny" }`, BOTH)],
  [rules(`{ "operations": ["write"], "paths": ["/x"], "mode": "interrupt" }`, PY + `"compatibleWith": ["deepagents-js"],\n  `)],
  [authz(`{
    "enabled": true, "default_role": "member",
    "roles": {
      "user": {
        "tools": { "allow": null, "deny": "execute" },
        "tool": { "allow": "*" },
        "models": { "allow": "any" },
        "routes": { "alow": ["threads:read"] },
        "skills": ["x"],
        "sandbox": { "allow": ["a", "", 3], "deny": null }
      },
      "": {},
      "guest": null
    }
  }`)],
  [authz(`{ "enabled": true, "roles": ["admin"] }`)],
  [authz(`{ "enabled": true }`)],
  [authz(`{ "enabled": false, "roles": { "user": { "tools": { "deny": "bash" } } } }`)],
  [authz(`{ "enabled": true, "roles": { "admin": {} } }`)],
  [authz(`{ "enabled": true, "default_role": "", "roles": { "user": {} } }`)],
  [authz(`{ "enabled": true, "default_role": "x", "roles": { ${Array.from({ length: 30 }, (_, i) => `"r${i}": {}`).join(", ")} } }`)],
  [authz(`{ "enabled": true, "roles": {
    "locked": { "tools": { "allow": false }, "models": { "allow": [] }, "routes": { "allow": false } },
    "user": {
      "tools": { "allow": ["github_*", "ls", "*"], "deny": ["read_?ile", "[wx]*", "*", "Bash", "READ_FILE", "web_serch", "ask_clarifcation"] },
      "models": { "allow": ["gpt-4*", "*", "gpt-4"] },
      "tols": { "allow": [] }, "modles": {}, "xyz": {}, "rotues": {},
      "skills": { "allow": [] }, "sandbox": { "allow": [] }, "mcp_servers": { "allow": [] }
    },
    "guest": { "tools": {}, "tols": { "allow": [] } }
  } }`, `"tools": ["github_create_issue", "github_list_repos", "web_search"],\n  `)],
  [authz(`{ "enabled": true, "roles": { ${Array.from({ length: 150 }, (_, i) => `"r${i}": { "tools": { "allow": ["nope_${i}", "x*"] }, "tols": {} }`).join(", ")} } }`)],
  [cfg(`"permissions": ${DENY},\n  "backend": { "type": "sandbox" }`)],
  [cfg(`${PY}"permissions": ${DENY},\n  "backend": { "type": "sandbox", "factory": true },\n  "middleware": [{ "type": "filesystem", "tools": ["ls"] }]`)],
  [cfg(`"permissions": ${DENY},\n  "backend": { "type": "sandbox", "factory": true },\n  "compatibleWith": ["deepagents-py"]`)],
  [cfg(`"permissions": [{ "operations": ["write"], "paths": ["/secrets/**", "relative"], "mode": "deny" }],\n  "backend": { "type": "composite", "default": { "type": "sandbox" }, "routes": { "/memories": { "type": "store" } } },\n  "middleware": [{ "type": "filesystem", "tools": ["read_file", "execute"] }]`)],
  [cfg(`"permissions": ${DENY},\n  "backend": { "type": "composite", "default": { "type": "sandbox" }, "routes": {} },\n  "middleware": [{ "type": "filesystem", "tools": "ls" }]`)],
  [cfg(`${PY}"permissions": ${DENY},\n  "backend": { "type": "composite", "default": { "type": "sandbox" }, "routes": { "/memories/": { "type": "store" } } },\n  "middleware": [{ "type": "filesystem", "tools": ["ls", "grep"] }]`)],
  [cfg(`"backend": { "type": "sandbox" },\n  "permissions": ${DENY},\n  "middleware": [{ "type": "filesystem", "tools": ["read_file", "grpe", "web_search", "execute", "ls", "ls"], "toolDescriptions": { "grpe": "x" } }],\n  "tools": ["web_search", "ls", "task", "web_search"],\n  "interruptOn": { "write_fil": true },\n  "subagents": [
    { "name": "a", "middleware": [{ "type": "filesystem" }], "tools": ["execute"], "interruptOn": { "exeucte": true } },
    { "name": "a", "description": "  ", "permissions": ${DENY}, "middleware": [{ "type": "filesystem" }] },
    { "name": "f", "description": "f", "mode": "fork", "permissions": ${DENY} },
    { "name": "n", "description": "n", "permissions": null }
  ]`)],
  [cfg(`${PY}"tools": ["ls"],\n  "middleware": [{ "type": "filesystem", "backend": { "type": "custom", "name": "ro", "capabilities": { "execute": false, "delete": false } }, "tools": ["read_file", "execute", "delete"] }],\n  "subagents": [{ "name": "a", "description": "a" }, { "name": "a", "description": "b" }]`)],
  [cfg(`"backend": { "type": "composite", "default": { "type": "state" }, "routes": { "/memories": { "type": "store" }, "/instructions.md": { "type": "store" } } }`)],
  [cfg(`"tools": ["web_search"],\n  "skills": ["./skills"]`), skills],
];

/** Scenario files, checked against an in-memory config and workspace: each makes one or more scenario codes fire. */
const SCENARIO_FILES: Record<string, string> = {
  "agent-sandbox.jsonc": JSON.stringify({
    version: 1,
    backend: { type: "filesystem", rootDir: "./ws", virtualMode: true },
    permissions: [{ operations: ["read", "write"], paths: ["/workspace/.env"], mode: "deny" }],
    subagents: [{ name: "auditor", description: "d" }],
    authorization: { enabled: true, default_role: "user", roles: { user: { tools: { allow: "*" } }, guest: { tools: { allow: ["read_file"] } } } },
    workspace: { root: "./ws", mountAt: "/workspace" },
  }),
  "bad.jsonc": JSON.stringify({ version: 1, permissions: [{ operations: ["read"], paths: ["relative/x"], mode: "deny" }] }),
};
const SCENARIOS: unknown[] = [
  { config: "./nope.jsonc", steps: [] },
  { config: "./bad.jsonc", steps: [] },
  { config: "./agent-sandbox.jsonc", agent: "auditr", role: "gust", steps: [] },
  {
    config: "./agent-sandbox.jsonc",
    steps: [
      { tool: "read_fil", args: { file_path: "/workspace/README.md" } },
      { tool: "write_file", args: { file_path: "/workspace/a.txt" } },
      { tool: "read_file", args: { file_path: "/workspace/.env" }, expect: "ok" },
      { tool: "task", args: { subagent_type: "auditorr", description: "x" } },
    ],
  },
];

/** Scenarios whose run stops at a limit: too many steps, and a sample workspace too large to list. */
const STOPPED_SCENARIOS: [unknown, (() => WorkspaceSource)?][] = [
  [{ config: "./agent-sandbox.jsonc", steps: Array.from({ length: MAX_RUN_STEPS + 1 }, () => ({ tool: "ls", args: { path: "/workspace" } })) }],
  [{ config: "./agent-sandbox.jsonc", steps: [{ tool: "glob", args: { pattern: "**", path: "/workspace" } }] }, () => millionFileWorkspace()],
];

function scenarioFindings(scenario: unknown, workspace = () => memoryWorkspace({ "README.md": "hi\n", ".env": "X=1\n" })): Finding[] {
  return checkDryRunText(JSON.stringify(scenario, null, 2), {
    readFile: (p) => SCENARIO_FILES[p.replace(/^\.\//, "")],
    workspace,
  }).findings;
}
const stoppedFindings = () => STOPPED_SCENARIOS.flatMap(([scenario, workspace]) => scenarioFindings(scenario, workspace));

/** DeerFlow's config.yaml checked in place: what only YAML can get wrong. */
const YAML_CORPUS = ["authorization:\n  enabled: [\n", "authorization: {enabled: true}\nt: !custom x\n", "a: 1\n---\nb: 2\n"];

function yamlFindings(text: string): Finding[] {
  const found = checkDeerFlowConfigText(text, { named: true }).findings;
  assert.deepEqual(found.flatMap(styleProblems), []);
  return found;
}

function findingsOf([text, options]: [string, CheckOptions?]): Finding[] {
  return checkConfigText(text, { analysis: true, ...options }).findings;
}

test("the corpus makes every code fire but internal-error (and those reworded on their own branches)", () => {
  const seen = new Set([...CORPUS.flatMap(findingsOf), ...SCENARIOS.flatMap((s) => scenarioFindings(s)), ...stoppedFindings(), ...YAML_CORPUS.flatMap(yamlFindings)].map((f) => f.code));
  // source-dynamic fires only on source files (its wordings are held to the style in test/checks/source-dynamic.test.ts).
  assert.deepEqual(knownCodes().filter((c) => !seen.has(c) && c !== "internal-error" && c !== "source-dynamic" && !STYLE_EXEMPT_CODES.has(c)), []);
});

test("every message of the corpus, the example and the every-section fixture is in the house style", () => {
  const files = [join(ROOT, "examples", "research-agent", "agent-sandbox.jsonc"), join(ROOT, "test", "cli", "fixtures", "every-section", "agent-sandbox.jsonc")];
  const entries: [string, CheckOptions?][] = [...CORPUS, ...files.map((f): [string] => [readFileSync(f, "utf8")])];
  const all = [...entries.flatMap(findingsOf), ...SCENARIOS.flatMap((s) => scenarioFindings(s)), ...stoppedFindings()];
  const problems = all.filter((f) => !STYLE_EXEMPT_CODES.has(f.code)).flatMap(styleProblems);
  assert.deepEqual(problems, []);
});

test("the style check itself: it catches what it is for", () => {
  const f = (message: string, more: Partial<Finding> = {}) => styleProblems({ code: "x", message, ...more });
  assert.deepEqual(f('Unknown key "a b c d e f" (did you mean "x"?).'), []);
  assert.equal(f("The `tools` list is wrong.").length, 1);
  assert.equal(f("See §1.3 for why.").length, 1);
  assert.equal(f("No period at the end").length, 1);
  assert.equal(f("Two sentences here. And another one.").length, 1);
  assert.equal(f(`${Array(MAX_MESSAGE_WORDS + 1).fill("word").join(" ")}.`).length, 1);
  assert.deepEqual(f(`${Array(MAX_MESSAGE_WORDS).fill("word").join(" ")}.`), []);
  assert.equal(f("Fine.", { detail: "It throws `x`." }).length, 1);
  assert.equal(f("Fine.", { fixes: [{ title: "Remove `x`", edits: [], safe: false }] }).length, 1);
  assert.equal(f("Fine.", { related: [{ message: "decides `read /x`", span: { start: 0, end: 0 } }] }).length, 1);
});
