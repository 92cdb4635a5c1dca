import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "backend-factory-unsupported";
const TYPE_ERROR =
  "TypeError: backend must be an initialized backend instance. Backend factories were removed in deepagents 0.7; pass StateBackend(), CompositeBackend(...), or another BackendProtocol instance instead.";

test("fires in deepagents-py on a backend given as a factory, with or without permissions, quoting the TypeError", () => {
  const [f] = expectFindings(config(`"runtime": "deepagents-py",\n  "backend": { "type": "sandbox", ⟦"factory": true⟧ }`), CODE);
  assert.equal(f!.severity, "error");
  assert.equal(f!.message, "deepagents-py 0.7.8 takes no backend factories: it refuses this backend when it builds the agent.");
  assert.equal(f!.detail, `Constructing the agent's filesystem middleware, it raises ${TYPE_ERROR}`);
  // A custom filesystem middleware's own backend, and deepagents-py in compatibleWith.
  const [m] = expectFindings(config(`"compatibleWith": ["deepagents-py"],\n  "middleware": [{ "type": "filesystem", "backend": { "type": "sandbox", ⟦"factory": true⟧ } }]`), CODE);
  assert.equal(m!.message, "deepagents-py 0.7.8 (in compatibleWith) takes no backend factories: it refuses this backend when it builds the agent.");
  assert.match(m!.detail!, /^Constructing the filesystem middleware/);
});

test("with permissions, the sandbox guard's finding says it comes next", () => {
  const text = config(`"runtime": "deepagents-py",\n  "backend": { "type": "sandbox", "factory": true },\n  "permissions": [{ "operations": ["read"], "paths": ["/s/**"], "mode": "deny" }]`);
  expectFindings(text.replace('"factory": true', '⟦"factory": true⟧'), CODE);
  assert.match(findings(text, "permissions-with-sandbox")[0]!.detail!, /Once the backend given as a factory \(backend-factory-unsupported\) is fixed, it throws: NotImplementedError/);
});

test("does not fire in deepagents-js (it takes factories), or on an instance", () => {
  expectNoFindings(config(`"backend": { "type": "sandbox", "factory": true }`), CODE);
  expectNoFindings(config(`"runtime": "deepagents-py",\n  "backend": { "type": "sandbox" }`), CODE);
  expectNoFindings(config(`"runtime": "deepagents-py",\n  "backend": { "type": "sandbox", "factory": false }`), CODE);
});

test("fix (not safe): remove the factory key; the finding goes, nothing new at error level", () => {
  const text = config(`"runtime": "deepagents-py",\n  "backend": { "type": "sandbox", "provider": "modal", "factory": true }`);
  const [f] = findings(text, CODE);
  assert.deepEqual(f!.fixes!.map((x) => [x.title, x.safe]), [['Give the backend as an instance: remove "factory": true', false]]);
  const fixed = applyFix(text, f!);
  assert.match(fixed, /"backend": \{ "type": "sandbox", "provider": "modal" \}/);
  assert.deepEqual(findings(fixed).filter((x) => x.severity === "error"), []);
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`"runtime": "deepagents-py",\n  "backend": {\n    "type": "sandbox",\n    // agent-sandbox-ignore backend-factory-unsupported\n    "factory": true\n  }`), CODE);
});

test("tools: under deepagents-py no filesystem tool of a refused middleware is visible", async () => {
  const { effectiveTools } = await import("../../server/src/engine/agents/effectiveTools");
  const { checkConfigText } = await import("../../server/src/engine/checkConfig");
  const model = checkConfigText(config(`"runtime": "deepagents-py",\n  "backend": { "type": "sandbox", "factory": true }`)).model!;
  const tools = effectiveTools(model, "main")!;
  assert.deepEqual(tools.filter((t) => t.visible && t.kind === "filesystem").map((t) => t.name), []);
  assert.match(tools.find((t) => t.name === "read_file")!.reason!, /refuses a backend given as a factory .*TypeError: backend must be an initialized backend instance\)$/);
});
