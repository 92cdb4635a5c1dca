import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "authz-tool-unknown";

test("fires on tool names no agent has, case-sensitively, with did-you-mean", () => {
  const found = expectFindings(
    config(`"tools": ["web_search"],
  "subagents": [{ "name": "researcher", "description": "r", "tools": ["fetch_url"] }],
  "authorization": { "enabled": true, "roles": {
    "user": { "tools": { "allow": "*", "deny": [⟦"Bash"⟧, "execute", ⟦"bash"⟧] } },
    "guest": { "tools": { "allow": ["read_file", ⟦"Read_File"⟧, "web_search", "fetch_url", "task", ⟦"websearch"⟧, ⟦"quantum_compile"⟧, "present_files"] } }
  } }`),
    CODE,
  );
  assert.ok(found.every((f) => f.severity === "warning"));
  assert.equal(found[0]!.message, 'No agent in this file has a tool named "Bash": this entry denies nothing.');
  assert.equal(
    found[0]!.detail,
    "The agents here have the eight filesystem tools, task, and the user tools declared here. DeerFlow compares tool names exactly and case-sensitively, so this entry denies nothing.",
  );
  assert.match(found[2]!.detail!, /compares tool names exactly, and case matters, so this entry allows nothing\. Did you mean "read_file"\?$/);
  assert.match(found[3]!.detail!, /Did you mean "web_search"\?$/);
  assert.doesNotMatch(found[4]!.detail!, /Did you mean/);
});

test("does not fire on known tools, glob-like names, or other resources", () => {
  expectNoFindings(
    config(`"tools": ["web_search"],
  "authorization": { "roles": { "user": {
    "tools": { "allow": ["ls", "read_file", "write_file", "edit_file", "delete", "glob", "grep", "execute", "task", "web_search", "*", "mcp_*"] },
    "models": { "allow": ["gpt-4o"] }, "tols": { "allow": ["nope"] }
  } } }`),
    CODE,
  );
});

test("DeerFlow's own tools are not unknown: a role written for DeerFlow names them (A.1.4's guest)", () => {
  expectNoFindings(
    config(`"authorization": { "roles": { "guest": { "tools": { "allow": ["read_file", "ask_clarification", "present_files", "describe_skill", "tool_search"] } } } }`),
    CODE,
  );
  // A misspelling of one is still reported, with the suggestion.
  const [f] = findings(config(`"authorization": { "roles": { "guest": { "tools": { "allow": ["ask_clarifcation"] } } } }`), CODE);
  assert.match(f!.detail!, /Did you mean "ask_clarification"\?$/);
});

test("fix: change to the suggestion", () => {
  const text = config(`"authorization": { "roles": { "guest": { "tools": { "allow": ["red_file"] } } } }`);
  const [f] = findings(text, CODE);
  assert.equal(f!.fixes![0]!.title, 'Change to "read_file"');
  const fixed = applyFix(text, f!);
  assert.match(fixed, /"allow": \["read_file"\]/);
  expectNoFindings(fixed, CODE);
});
