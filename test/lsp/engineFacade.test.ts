/** The server's narrow door to the engine: the defaultRuntime setting and what it composes from engine answers. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { analyze, patternFacts, sampleFilesDecidedBy, ruleAt } from "../../server/src/lsp/engineFacade";

const PATH = "/nonexistent/agent-sandbox.jsonc";

describe("engine facade", () => {
  for (const [name, text] of [
    ["a plain file", '{\n  "version": 1,\n  "permissions": [{ "operations": ["write"], "paths": ["/x/**"], "mode": "interrupt" }]\n}\n'],
    ["a trailing comma", '{ "version": 1, "permissions": [{ "operations": ["write"], "paths": ["/x/**"], "mode": "interrupt" }], }'],
    ["a comment before the closing brace", '{ "version": 1, "permissions": [{ "operations": ["write"], "paths": ["/x/**"], "mode": "interrupt" }] // end\n}'],
  ] as const) {
    it(`defaultRuntime applies to ${name} that names no runtime, and keeps every offset`, () => {
      const js = analyze(PATH, text, { severities: {} });
      const py = analyze(PATH, text, { severities: {}, defaultRuntime: "deepagents-py" });
      assert.equal(js.model?.runtime.id, "deepagents-js");
      assert.equal(py.model?.runtime.id, "deepagents-py");
      assert.equal(py.runtimeFromSetting, "deepagents-py");
      assert.ok(js.findings.some((f) => f.code === "mode-unknown"));
      assert.ok(!py.findings.some((f) => f.code === "mode-unknown" || f.code === "json-syntax" || f.code === "schema"));
      for (const f of py.findings) assert.ok(f.span.end <= text.length, `${f.code} stays inside the text`);
      // The same as a file that names deepagents-py itself, on the rules' own text.
      const named = checkConfigText(text.replace('"version": 1,', '"version": 1, "runtime": "deepagents-py",'));
      assert.deepEqual(py.findings.map((f) => f.code), named.findings.map((f) => f.code));
    });
  }

  it("a file that names its runtime keeps it whatever the setting", () => {
    const text = '{ "version": 1, "runtime": "deepagents-js" }';
    assert.equal(analyze(PATH, text, { severities: {}, defaultRuntime: "deepagents-py" }).model?.runtime.id, "deepagents-js");
  });

  it("findings on the root span keep their end inside the text", () => {
    const text = '{ "permissions": [] }';
    const py = analyze(PATH, text, { severities: {}, defaultRuntime: "deepagents-py" });
    const plain = analyze(PATH, text, { severities: {} });
    assert.deepEqual(py.findings.map((f) => [f.code, f.span]), plain.findings.map((f) => [f.code, f.span]));
  });

  it("which sample files a rule decides follows first-match-wins in its own list", () => {
    const text = '{ "version": 1, "permissions": [\n { "operations": ["read"], "paths": ["/w/.env"], "mode": "deny" },\n { "operations": ["read", "write"], "paths": ["/w/**"] }\n] }';
    const a = analyze(PATH, text, { severities: {} });
    const sample = { mountAt: "/w", files: ["/w/.env", "/w/a.md", "/w/src/b.py"], folders: ["/w/src"], truncated: false };
    const second = ruleAt(a.model!, text.indexOf('"/w/**"'))!;
    assert.equal(second.rule.index, 1);
    assert.deepEqual(sampleFilesDecidedBy(a.model!, second.list, second.rule, sample), [
      { operation: "read", decided: ["/w/a.md", "/w/src/b.py"] },
      { operation: "write", decided: ["/w/.env", "/w/a.md", "/w/src/b.py"] },
    ]);
    const facts = patternFacts(a.model!, "/w/**", sample);
    assert.deepEqual(facts.matchedFiles, ["/w/.env", "/w/a.md", "/w/src/b.py"]);
    assert.equal(facts.exact, false);
  });
});
