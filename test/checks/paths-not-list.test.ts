import { test } from "node:test";
import assert from "node:assert/strict";
import { createDeepAgent } from "deepagents";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";
import { ScriptedModel } from "../helpers/deepagentsRuntime";

const CODE = "paths-not-list";

/** What the real deepagents-js 1.14.1 says when it builds an agent with this rule: its exception, or undefined. */
function realRefusal(paths: string): string | undefined {
  try {
    createDeepAgent({ model: new ScriptedModel(new Map(), []) as never, permissions: [{ operations: ["read"], paths: paths as never, mode: "deny" }] });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

test("fires on a string the runtime refuses, with the exception the real deepagents-js throws (V17)", () => {
  const [finding] = expectFindings(config(`"permissions": [{ "operations": ["read"], "paths": ⟦"/abc"⟧, "mode": "deny" }]`), CODE);
  assert.equal(finding!.severity, "error");
  assert.equal(finding!.message, 'deepagents-js 1.14.1 refuses "paths" as a string when it builds the agent: it reads each character as a path.');
  const real = realRefusal("/abc");
  assert.equal(real, 'path must be absolute: "a"');
  assert.equal(finding!.detail, `deepagents-js 1.14.1 iterates the string and throws for "a": Error: ${real}`);
  // No longer left to the schema, which would only say "not an array".
  assert.deepEqual(findings(config(`"permissions": [{ "operations": ["read"], "paths": "/abc", "mode": "deny" }]`)).map((f) => f.code), [CODE]);
});

test("names deepagents-py's own exception, and the other runtime's in compatibleWith", () => {
  const [py] = findings(`{ "version": 1, "runtime": "deepagents-py", "permissions": [{ "operations": ["read"], "paths": "/abc", "mode": "deny" }] }`, CODE);
  assert.equal(py!.detail, `deepagents-py 0.7.8 iterates the string and throws for "a": ValueError: Permission path must start with '/': 'a'`);
  const [both] = findings(`{ "version": 1, "compatibleWith": ["deepagents-py"], "permissions": [{ "operations": ["read"], "paths": "/x", "mode": "deny" }] }`, CODE);
  assert.match(both!.detail!, /^deepagents-js 1\.14\.1 iterates .* "x": Error: path must be absolute: "x" deepagents-py 0\.7\.8 \(in compatibleWith\) iterates .* "x": ValueError/);
});

test("a string the runtime builds (every character accepted) is a warning that says which patterns it makes", () => {
  for (const [paths, patterns] of [["/", '["/"]'], ["", "[]: it never matches"]] as const) {
    assert.equal(realRefusal(paths), undefined, `the real runtime builds ${JSON.stringify(paths)}`);
    const [finding] = findings(config(`"permissions": [{ "operations": ["read"], "paths": ${JSON.stringify(paths)}, "mode": "deny" }]`), CODE);
    assert.equal(finding!.severity, "warning");
    assert.equal(finding!.detail, `Both runtimes iterate it, so this rule's patterns are ${patterns}.`);
  }
});

test("does not fire on a list", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["read"], "paths": ["/abc"] }, { "operations": ["read"], "paths": [] }]`), CODE);
});

test("fix: the string as a one-pattern list, safe only when the runtime accepts that pattern", () => {
  const text = config(`"permissions": [{ "operations": ["read"], "paths": "/secrets/**", "mode": "deny" }]`);
  const [finding] = findings(text, CODE);
  assert.deepEqual(finding!.fixes!.map((f) => [f.title, f.safe]), [['Write it as a list: ["/secrets/**"]', true]]);
  const fixed = applyFix(text, finding!);
  assert.ok(fixed.includes('"paths": ["/secrets/**"]'));
  assert.deepEqual(findings(fixed).filter((f) => f.severity === "error"), []);
  const relative = config(`"permissions": [{ "operations": ["read"], "paths": "secrets", "mode": "deny" }]`);
  const [notSafe] = findings(relative, CODE);
  assert.equal(notSafe!.fixes![0]!.safe, false);
  assert.deepEqual(findings(applyFix(relative, notSafe!)).map((f) => f.code), ["path-not-absolute"]);
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`"permissions": [
    // agent-sandbox-ignore paths-not-list
    { "operations": ["read"], "paths": "/abc", "mode": "deny" }
  ]`), CODE);
});
