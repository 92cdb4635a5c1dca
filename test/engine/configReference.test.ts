import { before, test } from "node:test";
import assert from "node:assert/strict";
import { checkConfigReference, configReference, scenarioConfigLanguage } from "../../server/src/engine/configReference";
import { loadGrammars } from "../helpers/sources";

before(loadGrammars);

test("a reference: a config file, a source file, or a source file's line", () => {
  assert.deepEqual(configReference("./agent-sandbox.jsonc"), { file: "./agent-sandbox.jsonc" });
  assert.deepEqual(configReference("src/agent.ts"), { file: "src/agent.ts", language: "typescript" });
  assert.deepEqual(configReference("src/agent.ts:12"), { file: "src/agent.ts", line: 12, language: "typescript" });
  assert.deepEqual(configReference("agents\\app.py:3"), { file: "agents\\app.py", line: 3, language: "python" });
  // `:LINE` only after a source file's name; a declaration file is no source this product reads.
  assert.deepEqual(configReference("c:12"), { file: "c:12" });
  assert.deepEqual(configReference("agent-sandbox.jsonc:4"), { file: "agent-sandbox.jsonc:4" });
  assert.deepEqual(configReference("types.d.ts"), { file: "types.d.ts" });
});

test("the call on a line: any line of it; a nested call wins over the one around it", () => {
  const text = `import { createDeepAgent } from "deepagents";
const outer = createDeepAgent({
  subagents: [{ name: "x", description: "y", runnable: createDeepAgent({
    permissions: [],
  }) }],
});
`;
  const at = (line: number) => checkConfigReference(configReference(`a.ts:${line}`), text);
  assert.equal(at(2).agent?.call.span.start, text.indexOf("createDeepAgent({\n  sub"));
  assert.equal(at(4).agent?.call.span.start, text.indexOf("createDeepAgent({\n    perm"));
  assert.equal(at(6).agent?.call.span.start, text.indexOf("createDeepAgent({\n  sub"));
  assert.match(at(7).error!, /^line 7 is on no call of createDeepAgent; its calls are on lines 2 and 3$/);
  assert.deepEqual(at(7).callLines, [2, 3]);
  assert.equal(at(7).model, undefined);
  assert.match(checkConfigReference(configReference("a.ts"), text).error!, /^it has 2 calls of createDeepAgent, on lines 2 and 3: name one as a\.ts:LINE$/);
  assert.match(checkConfigReference(configReference("a.py"), "import os\n").error!, /^it has no call of create_deep_agent imported from deepagents$/);
});

test("the findings of the call named, wherever they are written; a config file is checked as one", () => {
  const text = `import { createDeepAgent } from "deepagents";
const rules = [{ operations: "read", paths: ["/a"], mode: "deny" }];
export const a = createDeepAgent({ permissions: rules });
export const b = createDeepAgent({ permissions: [{ operations: ["read"], paths: ["relative"] }] });
`;
  const codes = (line: number) => checkConfigReference(configReference(`a.ts:${line}`), text).findings.map((f) => f.code);
  assert.deepEqual(codes(3), ["operations-not-list"]);
  assert.deepEqual(codes(4), ["path-not-absolute"]);
  assert.deepEqual(checkConfigReference(configReference("x.jsonc"), '{ "version": 1, "permissions": [{ "operations": ["read"], "paths": "/abc" }] }').findings.map((f) => f.code), ["paths-not-list"]);
});

test("a scenario's config language, without parsing a scenario that names no source file", () => {
  assert.equal(scenarioConfigLanguage('{ "config": "agent.py:4", "steps": [] }'), "python");
  assert.equal(scenarioConfigLanguage('{ "config": "./agent-sandbox.jsonc", "steps": [] }'), undefined);
  // A step's argument that looks like a source file is not the config.
  assert.equal(scenarioConfigLanguage('{ "config": "c.jsonc", "steps": [{ "tool": "read_file", "args": { "file_path": "/w/a.ts" } }] }'), undefined);
});
