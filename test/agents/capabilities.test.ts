/**
 * §4.3 visible-tool vectors A1–A10, for both runtimes: which filesystem tools the model sees for a backend and an
 * allowlist. (The A rows were observed through `createFilesystemMiddleware` + `wrapModelCall`; here each one is
 * written as a config, and the agent that sees it is named in the row.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { effectiveTools } from "../../server/src/engine/agents/effectiveTools";
import { modelOf, RUNTIMES, visibleTools } from "./helpers";

const SANDBOX = { type: "sandbox", provider: "local-shell" };
const STORE_WITHOUT_DELETE = { type: "custom", name: "store-no-delete", capabilities: { execute: false, delete: false } };
const SEVEN = ["ls", "read_file", "write_file", "edit_file", "delete", "glob", "grep"];
const EIGHT = [...SEVEN, "execute"];

interface Row {
  id: string;
  config: Record<string, unknown>;
  agent?: string;
  /** Visible tools per runtime (one list when both agree). */
  visible: string[] | { "deepagents-js": string[]; "deepagents-py": string[] };
}

const ROWS: Row[] = [
  { id: "A1 store, default tools", config: { backend: { type: "store" } }, visible: [...SEVEN, "task"] },
  { id: "A2 store without delete", config: { backend: STORE_WITHOUT_DELETE }, visible: ["ls", "read_file", "write_file", "edit_file", "glob", "grep", "task"] },
  { id: "A3 sandbox", config: { backend: SANDBOX }, visible: [...EIGHT, "task"] },
  {
    id: "A4 sandbox, tools [read_file, execute]",
    config: { backend: SANDBOX, middleware: [{ type: "filesystem", backend: SANDBOX, tools: ["read_file", "execute"] }] },
    visible: ["read_file", "execute", "task"],
  },
  {
    id: "A5 store, tools [read_file, execute, delete]",
    config: { backend: { type: "store" }, middleware: [{ type: "filesystem", backend: { type: "store" }, tools: ["read_file", "execute", "delete"] }] },
    visible: ["read_file", "delete", "task"],
  },
  {
    // Top-level user tools named `execute`/`delete` are refused at construction, so the row is a subagent's own tools.
    id: "A6 store without delete, user tools execute, delete, my_tool",
    config: { backend: STORE_WITHOUT_DELETE, subagents: [{ name: "worker", description: "w", tools: ["execute", "delete", "my_tool"] }] },
    agent: "worker",
    visible: {
      "deepagents-js": ["ls", "read_file", "write_file", "edit_file", "glob", "grep", "delete", "my_tool"],
      "deepagents-py": ["ls", "read_file", "write_file", "edit_file", "glob", "grep", "my_tool"],
    },
  },
  { id: "A7 composite(store, /sb/ → sandbox)", config: { backend: { type: "composite", default: { type: "store" }, routes: { "/sb/": SANDBOX } } }, visible: [...SEVEN, "task"] },
  { id: "A8 composite(sandbox, /m/ → store)", config: { backend: { type: "composite", default: SANDBOX, routes: { "/m/": { type: "store" } } } }, visible: [...EIGHT, "task"] },
  {
    id: "A9 composite(store without delete, …)",
    config: { backend: { type: "composite", default: STORE_WITHOUT_DELETE, routes: { "/m/": { type: "store" } } } },
    visible: [...SEVEN, "task"],
  },
  // A10 is observed in JS; deepagents-py 0.7 raises TypeError for a factory (§5.2), so its middleware registers nothing.
  { id: "A10 sandbox given as a factory", config: { backend: { type: "sandbox", factory: true } }, visible: { "deepagents-js": [...EIGHT, "task"], "deepagents-py": ["task"] } },
  { id: "custom backend with execute (an execute method and a non-empty id)", config: { backend: { type: "custom", name: "box", capabilities: { execute: true, delete: true } } }, visible: [...EIGHT, "task"] },
  { id: "custom backend with execute, without delete", config: { backend: { type: "custom", name: "runner", capabilities: { execute: true, delete: false } } }, visible: ["ls", "read_file", "write_file", "edit_file", "glob", "grep", "execute", "task"] },
  { id: "composite with a custom executing default", config: { backend: { type: "composite", default: { type: "custom", name: "box", capabilities: { execute: true, delete: false } }, routes: {} } }, visible: [...EIGHT, "task"] },
  { id: "backend omitted: a state factory", config: {}, visible: [...SEVEN, "task"] },
  { id: "filesystem backend", config: { backend: { type: "filesystem", rootDir: "/srv" } }, visible: [...SEVEN, "task"] },
];

for (const runtime of RUNTIMES) {
  for (const row of ROWS) {
    test(`${runtime}: ${row.id}`, () => {
      const expected = Array.isArray(row.visible) ? row.visible : row.visible[runtime];
      assert.deepEqual(visibleTools({ runtime, ...row.config }, row.agent ?? "main"), expected);
    });
  }
}

test("a hidden tool says which step hid it and why, in a sentence", () => {
  const tools = effectiveTools(modelOf({ backend: { type: "store" } }), "main")!;
  const execute = tools.find((t) => t.name === "execute")!;
  assert.deepEqual(
    { visible: execute.visible, kind: execute.kind, hiddenBy: execute.hiddenBy },
    { visible: false, kind: "filesystem", hiddenBy: "backend" },
  );
  assert.equal(execute.reason, "execute needs a sandbox backend; this agent's backend is store");
  const routed = effectiveTools(modelOf({ backend: { type: "composite", default: { type: "store" }, routes: { "/sb/": SANDBOX } } }), "main")!;
  assert.match(routed.find((t) => t.name === "execute")!.reason!, /a composite whose default is store .*"\/sb\/" does not count/);
  const allow = effectiveTools(modelOf({ middleware: [{ type: "filesystem", tools: ["read_file"] }] }), "main")!;
  assert.equal(allow.find((t) => t.name === "ls")!.reason, "not in the tools allowlist of the custom filesystem middleware (middleware #0)");
  const fallback = effectiveTools(modelOf({ backend: SANDBOX, middleware: [{ type: "filesystem" }] }), "main")!;
  assert.match(fallback.find((t) => t.name === "execute")!.reason!, /its own state backend \(middleware #0 has no "backend"/);
});

test("candidates come in a fixed order: 8 filesystem tools, user tools, then task; kinds are set", () => {
  const tools = effectiveTools(modelOf({ tools: ["web_search", "fetch_url", "web_search"] }), "main")!;
  assert.deepEqual(
    tools.map((t) => `${t.kind}:${t.name}`),
    ["ls", "read_file", "write_file", "edit_file", "delete", "glob", "grep", "execute"].map((n) => `filesystem:${n}`).concat(["user:web_search", "user:fetch_url", "task:task"]),
  );
  assert.equal(effectiveTools(modelOf({}), "nobody"), undefined);
});

test("a filesystem middleware the runtime refuses (§4.1: tools without read_file) shows no filesystem tool, whatever it lists", () => {
  for (const runtime of ["deepagents-js", "deepagents-py"]) {
    const model = modelOf({ version: 1, runtime, tools: ["web_search"], middleware: [{ type: "filesystem", tools: ["ls", "grep"] }] });
    const tools = effectiveTools(model, "main")!;
    assert.deepEqual(tools.filter((t) => t.visible && t.kind === "filesystem").map((t) => t.name), [], runtime);
    assert.match(tools.find((t) => t.name === "ls")!.reason!, /^not registered: deepagents-(js|py) .* refuses the custom filesystem middleware \(middleware #0\): .*read_file/, runtime);
  }
});
