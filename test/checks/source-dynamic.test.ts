import { before, test } from "node:test";
import assert from "node:assert/strict";
import { checkSource, loadGrammars } from "../helpers/sources";
import { styleProblems } from "../helpers/messageStyle";

// A value that needs running the code is never read as "none": the model leaves it out and lists it, the checks
// that would need it say nothing, and one information finding per call says what was not read.

before(loadGrammars);

const codes = (text: string, language: "typescript" | "python") => checkSource(text, language).findings.map((f) => f.code);

test("permissions from a call: not read as no permissions", () => {
  const text = `import { createDeepAgent, createFilesystemMiddleware } from "deepagents";
import { loadRules } from "./rules";
createDeepAgent({
  permissions: loadRules(),
  middleware: [createFilesystemMiddleware({ tools: ["read_file", "write_file"] })],
  subagents: [{ name: "w", description: "Writes", permissions: [] }],
});`;
  const { findings, agents } = checkSource(text, "typescript");
  // Without the dynamic value, a custom middleware without rules next to top-level rules, and a subagent that drops
  // them, would both be reported; with it, neither is.
  assert.deepEqual(findings.map((f) => f.code), ["source-dynamic"]);
  assert.equal(findings[0]!.message, "Permissions come from loadRules(): not analysed.");
  assert.equal(findings[0]!.severity, "information");
  assert.equal(text.slice(findings[0]!.span.start, findings[0]!.span.end), "loadRules()");
  assert.deepEqual(findings.flatMap(styleProblems), []);
  const model = agents[0]!.model;
  assert.equal(model.permissions, undefined);
  assert.deepEqual(model.dynamic!.map((d) => [d.field, d.expression]), [["permissions", "loadRules()"]]);
});

test("the same options with the rules written out are reported", () => {
  const text = `import { createDeepAgent, createFilesystemMiddleware } from "deepagents";
createDeepAgent({
  permissions: [{ operations: ["write"], paths: ["/secrets/**"], mode: "deny" }],
  middleware: [createFilesystemMiddleware({ tools: ["read_file", "write_file"] })],
});`;
  assert.ok(codes(text, "typescript").includes("middleware-drops-permissions"));
});

test("a backend from a helper function: the capability checks stay silent", () => {
  const known = `from deepagents import create_deep_agent
from deepagents.middleware import FilesystemMiddleware
from deepagents.backends import StateBackend
agent = create_deep_agent(backend=StateBackend(), middleware=[FilesystemMiddleware(backend=StateBackend(), tools=["read_file", "execute"])])`;
  assert.ok(codes(known, "python").includes("tool-unavailable"));
  const helper = known.replace("backend=StateBackend(), tools", "backend=make_backend(), tools");
  const { findings } = checkSource(helper, "python");
  assert.deepEqual(findings.map((f) => f.code), ["source-dynamic"]);
  assert.equal(findings[0]!.message, "The backend of the filesystem middleware of the agent comes from make_backend(): not analysed.");
});

test("parameters, imports from other modules, environment reads and unknown spreads are dynamic", () => {
  const text = `import { createDeepAgent } from "deepagents";
import { sharedRules } from "./shared";
export function build(subagents) {
  return createDeepAgent({ ...baseOptions(), permissions: sharedRules, subagents, systemPrompt: process.env.PROMPT });
}`;
  const { findings, agents } = checkSource(text, "typescript");
  assert.deepEqual(findings.map((f) => f.code), ["source-dynamic"]);
  assert.deepEqual(agents[0]!.model.dynamic!.map((d) => d.expression).sort(), ["baseOptions()", "process.env.PROMPT", "sharedRules", "subagents"]);
  assert.equal(findings[0]!.related!.length, 3);
  assert.deepEqual(findings.flatMap(styleProblems), []);
  // A template literal: its backticks are not written into the message.
  const template = checkSource(text.replace("process.env.PROMPT", "`${process.env.PROMPT}`").replace("...baseOptions(), ", ""), "typescript").findings;
  assert.deepEqual(template.flatMap(styleProblems), []);
});

test("a name bound twice is dynamic; a name bound once is read", () => {
  const twice = `from deepagents import create_deep_agent, FilesystemPermission
RULES = [FilesystemPermission(operations=["read"], paths=["relative"])]
if debug:
    RULES = []
agent = create_deep_agent(permissions=RULES)`;
  assert.deepEqual(codes(twice, "python"), ["source-dynamic"]);
  assert.deepEqual(codes(twice.replace(/if debug:\n    RULES = \[\]\n/, ""), "python"), ["path-not-absolute"]);
});

test("a middleware the front end cannot see may replace the filesystem one: the tool checks stay silent", () => {
  const text = `from deepagents import create_deep_agent
from my_company.middleware import audit_middleware
agent = create_deep_agent(tools=[], middleware=[audit_middleware()])`;
  const { agents, findings } = checkSource(text, "python");
  assert.deepEqual(findings.map((f) => f.code), ["source-dynamic"]);
  assert.deepEqual(agents[0]!.model.dynamic!.map((d) => d.field), ["middleware"]);
});

test("a file that does not import the runtime is not read; a same-named function of its own is not the runtime", () => {
  assert.deepEqual(checkSource(`function createDeepAgent(o) { return o; }\ncreateDeepAgent({ permissions: [{ operations: ["read"], paths: ["x"] }] });`, "typescript").agents, []);
  assert.deepEqual(checkSource(`from other import create_deep_agent\n# deepagents\ncreate_deep_agent(permissions=[FilesystemPermission(operations=["read"], paths=["x"])])`, "python").agents, []);
});
