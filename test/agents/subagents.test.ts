/**
 * §4.4 S1–S5 (who gets which filesystem tools), §6.1 permission inheritance, §6.2 the general-purpose subagent,
 * §6.4 and §11.4–11.5 custom middleware inheritance, for both runtimes where they differ. (S6, a compiled
 * subagent, cannot be written in the config format: its tools are whatever it was compiled with.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { agentsOf, findAgent, rulesForAgent } from "../../server/src/engine/agents/agents";
import { effectiveTools } from "../../server/src/engine/agents/effectiveTools";
import { modelOf, visibleTools } from "./helpers";

const SEVEN = ["ls", "read_file", "write_file", "edit_file", "delete", "glob", "grep"];
const READ_ONLY = { type: "filesystem", tools: ["read_file", "ls", "glob", "grep"] };
const worker = (extra: Record<string, unknown> = {}) => ({ name: "worker", description: "does work", ...extra });

/** [row, config, { agent: visible tools }] for deepagents-js 1.14.1 */
const S: [string, Record<string, unknown>, Record<string, string[]>][] = [
  ["S1 defaults", {}, { main: [...SEVEN, "task"], "general-purpose": SEVEN }],
  ["S2 custom FS [read_file, ls, glob, grep]; the general-purpose subagent inherits it by name", { middleware: [READ_ONLY] }, { main: ["ls", "read_file", "glob", "grep", "task"], "general-purpose": ["ls", "read_file", "glob", "grep"] }],
  ["S3 same; a declarative subagent without FS middleware gets every tool", { middleware: [READ_ONLY], subagents: [worker()] }, { main: ["ls", "read_file", "glob", "grep", "task"], worker: SEVEN }],
  ["S4 a declarative subagent with its own FS [read_file]", { subagents: [worker({ middleware: [{ type: "filesystem", tools: ["read_file"] }] })] }, { main: [...SEVEN, "task"], worker: ["read_file"] }],
  ["S5 a forked subagent inherits the parent's custom FS (1.14.1) and carries task", { middleware: [READ_ONLY], subagents: [worker({ mode: "fork" })] }, { main: ["ls", "read_file", "glob", "grep", "task"], worker: ["ls", "read_file", "glob", "grep", "task"] }],
  [
    "a forked subagent's own FS middleware wins over the parent's (dist mergeMiddleware(parent, own))",
    { middleware: [READ_ONLY], subagents: [worker({ mode: "fork", middleware: [{ type: "filesystem", tools: ["read_file", "write_file"] }] })] },
    { worker: ["read_file", "write_file", "task"] },
  ],
  ["a declared general-purpose subagent replaces the built-in one and inherits nothing", { middleware: [READ_ONLY], subagents: [{ name: "general-purpose", description: "mine" }] }, { "general-purpose": SEVEN }],
  ["subagent user tools: its own, else the parent's", { tools: ["web_search"], subagents: [worker({ tools: ["fetch_url"] }), { name: "b", description: "b" }, { name: "c", description: "c", tools: [] }] }, { worker: [...SEVEN, "fetch_url"], b: [...SEVEN, "web_search"], c: SEVEN, "general-purpose": [...SEVEN, "web_search"] }],
];

for (const [row, config, expected] of S) {
  test(`deepagents-js: ${row}`, () => {
    for (const [agent, tools] of Object.entries(expected)) assert.deepEqual(visibleTools(config, agent), tools, agent);
  });
}

test("deepagents-py has no forked subagents: mode fork is a plain declarative subagent (no inheritance, no task)", () => {
  assert.deepEqual(visibleTools({ runtime: "deepagents-py", middleware: [READ_ONLY], subagents: [worker({ mode: "fork" })] }, "worker"), SEVEN);
});

test("the general-purpose subagent exists unless one is declared; agents are listed main, general-purpose, subagents", () => {
  assert.deepEqual(agentsOf(modelOf({ subagents: [worker()] })).map((a) => a.name), ["main", "general-purpose", "worker"]);
  assert.deepEqual(agentsOf(modelOf({ subagents: [worker(), { name: "general-purpose", description: "x" }] })).map((a) => a.name), ["main", "worker", "general-purpose"]);
});

// §6.1: parent = deny read,write /secrets/**
const PARENT = [{ operations: ["read", "write"], paths: ["/secrets/**"], mode: "deny" }];
const OWN = [{ operations: ["write"], paths: ["/**"], mode: "deny" }];

/** [subagent permissions (undefined: omitted), JS → which list, Python → which list] */
const INHERITANCE: [string, unknown, "parent" | "own" | "none", "parent" | "own" | "none"][] = [
  ["omitted", undefined, "parent", "parent"],
  ["[]", [], "none", "none"],
  ["null", null, "parent", "none"],
  ["[deny write /**]", OWN, "own", "own"],
];

for (const [label, permissions, js, py] of INHERITANCE) {
  test(`§6.1 subagent permissions ${label}: JS ${js}, Python ${py}`, () => {
    for (const [runtime, expected] of [
      ["deepagents-js", js],
      ["deepagents-py", py],
    ] as const) {
      const spec: Record<string, unknown> = { name: "worker", description: "w" };
      if (permissions !== undefined) spec.permissions = permissions;
      const model = modelOf({ runtime, permissions: PARENT, subagents: [spec] });
      const rules = rulesForAgent(model, findAgent(model, "worker")!);
      const which = rules.list === undefined ? "none" : rules.list === model.permissions ? "parent" : "own";
      assert.equal(which, expected, `${runtime}: ${rules.why}`);
    }
  });
}

test("§6.1/§6.2: the general-purpose subagent and the main agent take the top-level permissions", () => {
  const model = modelOf({ permissions: PARENT });
  assert.equal(rulesForAgent(model, findAgent(model, "general-purpose")!).list, model.permissions);
  assert.equal(rulesForAgent(model, findAgent(model, "main")!).source, "top-level");
});

test("§6.1 last vector / §11.5: parent rules only on a custom FS middleware: the general-purpose subagent has them, a declarative one does not", () => {
  const model = modelOf({ middleware: [{ type: "filesystem", permissions: PARENT }], subagents: [worker()] });
  const custom = model.middleware[0]!.permissions;
  assert.equal(rulesForAgent(model, findAgent(model, "general-purpose")!).list, custom);
  assert.equal(rulesForAgent(model, findAgent(model, "worker")!).list, undefined);
});

test("§4.4 / #5388: a custom FS middleware without permissions drops the top-level rules for main and general-purpose; declarative subagents keep them", () => {
  const model = modelOf({ permissions: PARENT, middleware: [{ type: "filesystem", tools: ["read_file", "write_file"] }], subagents: [worker()] });
  assert.equal(rulesForAgent(model, findAgent(model, "main")!).list, undefined);
  assert.equal(rulesForAgent(model, findAgent(model, "general-purpose")!).list, undefined);
  assert.equal(rulesForAgent(model, findAgent(model, "worker")!).list, model.permissions);
});

test("§11.4: a forked subagent that inherits the parent's custom FS middleware loses its own permissions", () => {
  const model = modelOf({ middleware: [{ type: "filesystem", tools: ["read_file"] }], subagents: [worker({ mode: "fork", permissions: OWN })] });
  const rules = rulesForAgent(model, findAgent(model, "worker")!);
  assert.equal(rules.list, undefined);
  assert.match(rules.why, /forked subagent inherits the parent's custom filesystem middleware/);
});

test("§11.8: a custom FS middleware without backend hides execute even on a sandbox; the general-purpose subagent too", () => {
  const config = { backend: { type: "sandbox" }, middleware: [{ type: "filesystem" }] };
  for (const agent of ["main", "general-purpose"]) {
    const execute = effectiveTools(modelOf(config), agent)!.find((t) => t.name === "execute")!;
    assert.equal(execute.hiddenBy, "backend", agent);
  }
});

test("§11.1: only the main agent (and a fork) has task; 1.14.1 binds no write_todos", () => {
  const config = { tools: ["write_todos"], subagents: [worker(), worker({ name: "forky", mode: "fork" })] };
  assert.ok(visibleTools(config, "main").includes("task"));
  assert.ok(visibleTools(config, "main").includes("write_todos"), "a user tool named write_todos is accepted");
  assert.ok(!visibleTools(config, "worker").includes("task"));
  assert.ok(!visibleTools(config, "general-purpose").includes("task"));
  assert.ok(visibleTools(config, "forky").includes("task"));
});
