/** Explain Decision's pickers, as the client builds them (client/src/explainInput.ts: plain data, no VS Code). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { operationItems, pathInputOptions } from "../../client/src/explainInput";
import { effectiveToolsOfConfig } from "../../server/src/lsp/customRequests";
import { analyze } from "../../server/src/lsp/engineFacade";

test("the path box selects the pre-filled folder, so that typing a whole path replaces it", () => {
  const options = pathInputOptions("main", "read", "/workspace");
  assert.equal(options.value, "/workspace/");
  // The caret at the end made /workspace//workspace/a.txt of a typed /workspace/a.txt.
  assert.deepEqual(options.valueSelection, [0, "/workspace/".length]);
  assert.equal(options.title, "Explain: read by main");
  assert.deepEqual(pathInputOptions("main", "write", "/data//").valueSelection, [0, "/data/".length]);
  assert.equal(pathInputOptions("main", "write", undefined).value, "/");
});

/** The tools the server sends for an agent (the effectiveTools request, no role), as the client gets them. */
function toolsOf(config: object, agent: string) {
  const text = JSON.stringify(config);
  const result = effectiveToolsOfConfig(analyze("/tmp/agent-sandbox.jsonc", text, { severities: {} }, "config"), { uri: "file:///tmp/agent-sandbox.jsonc", agent, role: null });
  assert.ok(result.available, result.reason);
  return result.tables[0]!.tools;
}

test("the operation picker says which tools each operation stands for, and when the agent has none", () => {
  // A read-only allowlist: no tool of this agent writes.
  const readOnly = toolsOf({ version: 1, middleware: [{ type: "filesystem", tools: ["read_file", "ls", "grep"] }] }, "main");
  assert.deepEqual(operationItems(readOnly), [
    { label: "read", description: "by ls, read_file, grep" },
    { label: "write", description: "this agent has no write tool" },
  ]);
  const all = toolsOf({ version: 1 }, "main");
  assert.deepEqual(operationItems(all), [
    { label: "read", description: "by ls, read_file, glob, grep" },
    { label: "write", description: "by write_file, edit_file, delete" },
  ]);
  // A user tool named like a filesystem one is not decided by path rules: it has no operation.
  const named = toolsOf({ version: 1, tools: ["ls"], middleware: [{ type: "filesystem", tools: ["read_file"] }] }, "main");
  assert.equal(operationItems(named)[0]!.description, "by read_file");
});
