import { before, test } from "node:test";
import assert from "node:assert/strict";
import type { JsonNode } from "../../server/src/engine/config/parse";
import { addKey, insertElements, removeElements, removeKey, renameKey, replaceWith, moveBefore, suppressing } from "../../server/src/engine/fixOperations";
import { applyEdits } from "../../server/src/engine/fixes";
import { DEEPAGENTS_JS, DEEPAGENTS_PY } from "../../server/src/engine/sources/dialects";
import { sourceFixRenderer } from "../../server/src/engine/sources/fixRenderer";
import { readAgents } from "../../server/src/engine/sources";
import { loadGrammars } from "../helpers/sources";

// The operations a check's fix is made of, each written in TypeScript or Python at the model's source spans, and
// nothing written where the model's node is not the literal it stands for.

before(loadGrammars);

const child = (n: JsonNode, key: string) => n.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1];

function ts(text: string) {
  const agent = readAgents(text, "typescript")[0]!;
  return { root: agent.model.root, render: sourceFixRenderer(text, "typescript", DEEPAGENTS_JS), text };
}

function py(text: string) {
  const agent = readAgents(text, "python")[0]!;
  return { root: agent.model.root, render: sourceFixRenderer(text, "python", DEEPAGENTS_PY), text };
}

test("TypeScript: insert, remove and move list elements, replace a value, add a key to the options and to a middleware", () => {
  const { root, render, text } = ts(`import { createDeepAgent, createFilesystemMiddleware } from "deepagents";
createDeepAgent({
  permissions: [{ operations: ["read"], paths: ["/a/**"] }, { operations: ["write"], paths: ["b"], mode: "deny" }],
  middleware: [createFilesystemMiddleware({ tools: ["ls"] })],
});`);
  const rules = child(root, "permissions")!;
  const tools = child(child(root, "middleware")!.children![0]!, "tools")!;
  const fs = child(root, "middleware")!.children![0]!;
  const path = child(rules.children![1]!, "paths")!.children![0]!;
  assert.equal(applyEdits(text, render.render([insertElements(tools, 0, ["read_file"])])).includes('tools: ["read_file", "ls"]'), true);
  assert.equal(applyEdits(text, render.render([removeElements(rules, rules.children![0]!)])).includes('permissions: [{ operations: ["write"]'), true);
  assert.match(applyEdits(text, render.render([moveBefore(rules, rules.children![1]!, rules.children![0]!)])), /permissions: \[\{ operations: \["write"\].*\}, \{ operations: \["read"\]/);
  assert.equal(applyEdits(text, render.render([replaceWith(path, "/b")])).includes('paths: ["/b"]'), true);
  assert.equal(applyEdits(text, render.render([addKey(fs, "backend", { type: "state" })])), text, "a backend object is a constructor call: not written");
  assert.match(applyEdits(text, render.render([addKey(root, "subagents", [])])), /mode: "deny" \}\],\n {2}middleware: \[.*\],\n {2}subagents: \[\],\n\}\);/);
  assert.equal(applyEdits(text, render.render([addKey(fs, "permissions", [{ operations: ["read"], paths: ["/x"] }])])).includes('createFilesystemMiddleware({ tools: ["ls"], permissions: [{ operations: ["read"], paths: ["/x"] }] })'), true);
  assert.deepEqual(render.render([replaceWith(path, suppressing(["path-not-absolute"], "b"))]), [], "no ignore note in source");
});

test("TypeScript: a list from a spread or a concatenation, and a synthesised value, are not edited", () => {
  const { root, render } = ts(`import { createDeepAgent, StateBackend } from "deepagents";
const base = [{ operations: ["read"], paths: ["/a"] }];
createDeepAgent({ permissions: [...base, { operations: ["write"], paths: ["/b"] }], backend: new StateBackend() });`);
  const rules = child(root, "permissions")!;
  assert.deepEqual(render.render([removeElements(rules, rules.children![1]!)]), []);
  assert.deepEqual(render.render([replaceWith(child(child(root, "backend")!, "type")!, "store")]), []);
});

test("Python: keyword arguments, dict keys, FilesystemPermission rules, True/None", () => {
  const { root, render, text } = py(`from deepagents import create_deep_agent, FilesystemPermission
from deepagents.middleware import FilesystemMiddleware
from deepagents.backends import CompositeBackend, StateBackend, StoreBackend
agent = create_deep_agent(
    backend=CompositeBackend(StateBackend(), {"memories/": StoreBackend()}),
    middleware=[FilesystemMiddleware(tools=["ls"])],
    subagents=[{"name": "w", "description": "Writes", "tools": []}],
)`);
  const fs = child(root, "middleware")!.children![0]!;
  const routes = child(child(root, "backend")!, "routes")!;
  const subagent = child(root, "subagents")!.children![0]!;
  assert.match(applyEdits(text, render.render([addKey(fs, "permissions", [{ operations: ["write"], paths: ["/x"], mode: "deny" }])])), /FilesystemMiddleware\(tools=\["ls"\], _permissions=\[FilesystemPermission\(operations=\["write"\], paths=\["\/x"\], mode="deny"\)\]\)/);
  assert.match(applyEdits(text, render.render([renameKey(routes.children![0]!.children![0]!, "/memories/")])), /\{"\/memories\/": StoreBackend\(\)\}/);
  assert.match(applyEdits(text, render.render([addKey(subagent, "systemPrompt", null)])), /"tools": \[\], "system_prompt": None\}/);
  assert.match(applyEdits(text, render.render([removeKey(child(subagent, "tools")!)!])), /\{"name": "w", "description": "Writes"\}/);
  assert.match(applyEdits(text, render.render([addKey(root, "permissions", [])])), /"tools": \[\]\}\],\n {4}permissions=\[\],\n\)/);
});
