import { test } from "node:test";
import assert from "node:assert/strict";
import { checkDryRunText } from "../../server/src/engine/checkDryRun";

const messages = (text: string) => checkDryRunText(text).findings.map((f) => `${f.code}: ${f.message}${f.detail !== undefined ? ` ${f.detail}` : ""}`);

test("the steps of a `task` call are checked like the scenario's own", () => {
  // `args` was any object, so a typo inside a subagent's steps went unnoticed.
  const text = `{
    "config": "./agent-sandbox.jsonc",
    "steps": [
      { "tool": "task", "args": { "subagent_type": "auditor", "description": "review", "steps": [
        { "tool": "write_file", "expct": "ok" },
        { "tool": "write_file", "expect": "okk" },
        { "tol": "ls" },
        "not-a-step"
      ] } }
    ]
  }`;
  assert.deepEqual(messages(text), [
    'schema: Unknown key "expct" (did you mean "expect"?).',
    'schema: "okk" is not allowed here (did you mean "ok"?). Expected "ok" or "permission-denied" or "tool-unavailable" or "authorization-denied" or "error" or an object.',
    'schema: Missing required key "tool".',
    'schema: Unknown key "tol" (did you mean "tool"?).',
    "schema: Expected an object, found a string.",
  ]);
  // Other arguments are the tool's own, whatever they are.
  assert.deepEqual(messages(`{ "config": "./a.jsonc", "steps": [{ "tool": "grep", "args": { "pattern": "x", "anything": [1] } }] }`), []);
});
