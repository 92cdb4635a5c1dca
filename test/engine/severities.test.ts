/**
 * Severities, suppressions and the default runtime are engine options, applied by the engine's entry points for
 * every kind of file: a host passes them and shows what comes back.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { checkDryRunText } from "../../server/src/engine/checkDryRun";

const SCENARIO = `{
  "config": "agent-sandbox.jsonc",
  "steps": [
    { "tool": "read_file", "first": 1 }, // agent-sandbox-ignore schema
    // agent-sandbox-ignore all
    { "tool": "ls", "second": 2 },
    { "tool": "write_file", "third": 3 }
  ]
}
`;

test("a dry-run scenario: suppression comments and severity overrides are applied by checkDryRunText", () => {
  const plain = checkDryRunText(SCENARIO);
  assert.deepEqual(plain.findings.map((f) => [f.code, f.severity, plain.lines.positionAt(f.span.start).line]), [["schema", "error", 6]]);
  assert.match(plain.findings[0]!.message, /"third"/);
  const warned = checkDryRunText(SCENARIO, { severities: { schema: "warning" } });
  assert.deepEqual(warned.findings.map((f) => [f.code, f.severity]), [["schema", "warning"]]);
  assert.deepEqual(checkDryRunText(SCENARIO, { severities: { schema: "off" } }).findings, []);
  // Other codes' overrides leave it alone; a syntax error is a finding like any other.
  assert.deepEqual(checkDryRunText(SCENARIO, { severities: { "json-syntax": "off" } }).findings.map((f) => f.severity), ["error"]);
  const broken = checkDryRunText(`{ "config": "a.jsonc", "steps": [ }`, { severities: { "json-syntax": "hint" } });
  assert.ok(broken.findings.length > 0 && broken.findings.every((f) => f.code === "json-syntax" && f.severity === "hint"));
});

test("the default runtime is an option: the file's own text, unchanged, checked as that runtime", () => {
  const text = '{\n  "version": 1,\n  "permissions": [{ "operations": ["write"], "paths": ["/x/**"], "mode": "interrupt" }]\n}\n';
  const py = checkConfigText(text, { defaultRuntime: "deepagents-py" });
  assert.equal(py.model?.runtime.id, "deepagents-py");
  assert.equal(py.model?.runtimeNode, undefined);
  assert.equal(py.lines.text, text);
  const named = checkConfigText(text.replace('"version": 1,', '"version": 1, "runtime": "deepagents-py",'));
  assert.deepEqual(py.findings.map((f) => f.code), named.findings.map((f) => f.code));
  assert.ok(checkConfigText(text).findings.some((f) => f.code === "mode-unknown"), "deepagents-js has no interrupt mode");
  // A file that names a runtime keeps it, and one that names an unknown runtime is not given the default.
  assert.equal(checkConfigText('{ "version": 1, "runtime": "deepagents-js" }', { defaultRuntime: "deepagents-py" }).model?.runtime.id, "deepagents-js");
  assert.equal(checkConfigText('{ "version": 1, "runtime": "nope" }', { defaultRuntime: "deepagents-py" }).model?.runtime.id, "deepagents-js");
});
