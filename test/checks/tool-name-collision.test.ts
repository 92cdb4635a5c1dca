import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings } from "../helpers/checkFixture";

const CODE = "tool-name-collision";

test("fires (error) on a top-level user tool named like a built-in tool, with TOOL_NAME_COLLISION's message", () => {
  const [ls, task] = expectFindings(config(`"tools": ["web_search", ⟦"ls"⟧, ⟦"task"⟧]`), CODE);
  assert.equal(ls!.severity, "error");
  assert.equal(ls!.message, '"ls" is the name of a built-in tool: deepagents-js 1.14.1 refuses to construct the agent.');
  assert.equal(ls!.detail, "It throws: ConfigurationError: Tool name(s) [ls, task] conflict with built-in tools. Rename your custom tools to avoid this.");
  assert.equal(task!.severity, "error");
  expectFindings(config(`"tools": [⟦"start_async_task"⟧, ⟦"list_async_tasks"⟧]`), CODE);
});

test("a subagent's own tool with such a name: a warning, it fails only when the agent runs", () => {
  const [f] = expectFindings(config(`"subagents": [{ "name": "a", "description": "a", "tools": [⟦"execute"⟧] }]`), CODE);
  assert.equal(f!.severity, "warning");
  assert.equal(f!.message, '"execute" is the name of a built-in tool: subagent "a" fails when it runs.');
  assert.match(f!.detail!, /does not check a subagent's own tools at construction/);
});

test("deepagents-py does not refuse it: a warning", () => {
  const [f] = expectFindings(config(`"runtime": "deepagents-py",\n  "tools": [⟦"grep"⟧]`), CODE);
  assert.equal(f!.severity, "warning");
});

test("does not fire on other names (write_todos is not a built-in in 1.14.1)", () => {
  expectNoFindings(config(`"tools": ["web_search", "write_todos"],\n  "subagents": [{ "name": "a", "description": "a", "tools": ["fetch_url"] }]`), CODE);
});

test("fixed by renaming the tool", () => {
  expectNoFindings(config(`"tools": ["web_search", "list_files"]`), CODE);
});
