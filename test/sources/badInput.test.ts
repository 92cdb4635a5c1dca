import { before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkSource, loadGrammars, SOURCE_FIXTURES } from "../helpers/sources";
import { SOURCE_BAD_INPUTS } from "../helpers/sourceBadInputs";

// Bad input in a source file: a clear diagnostic or silence, never a crash or a hang (bench/sources.ts times them).

before(loadGrammars);

for (const input of SOURCE_BAD_INPUTS) {
  test(`bad input: ${input.name}`, () => {
    const result = checkSource(input.text(), input.language);
    assert.deepEqual(result.findings.map((f) => f.code).filter((c) => c === "internal-error"), []);
    input.expect(result);
  });
}

for (const [folder, file, language] of [["ts", "namespace-import.ts", "typescript"], ["py", "middleware-drops.py", "python"]] as const) {
  test(`half-typed at every character: ${file}`, () => {
    const text = readFileSync(join(SOURCE_FIXTURES, folder, file), "utf8");
    const seen = new Set<string>();
    for (let end = 0; end <= text.length; end++) {
      const result = checkSource(text.slice(0, end), language, { analysis: false });
      assert.ok(!result.findings.some((f) => f.code === "internal-error"), `cut at ${end}`);
      for (const f of result.findings) {
        assert.ok(f.span.end <= end, `cut at ${end}: ${f.code} is outside the text`);
        seen.add(f.code);
      }
    }
    // The whole file's findings appear before it is complete: the parser recovers from the missing end.
    assert.ok(seen.has("middleware-drops-permissions"), [...seen].join(", "));
  });
}

test("a call cut inside its options: the complete options before the cut are checked", () => {
  const ts = `import { createDeepAgent } from "deepagents";
export const agent = createDeepAgent({
  permissions: [{ operations: ["read"], paths: ["secrets/**"], mode: "deny" }],
  middleware: [createFilesystemMiddleware({ tools: ["ls", `;
  assert.deepEqual(checkSource(ts, "typescript").findings.map((f) => [f.code, ts.slice(f.span.start, f.span.end)]), [["path-not-absolute", '"secrets/**"']]);
  const py = `from deepagents import create_deep_agent, FilesystemPermission
agent = create_deep_agent(
    permissions=[FilesystemPermission(operations=["read"], paths=["x"])],
    middleware=[FilesystemMiddleware(tools=["ls", `;
  assert.deepEqual(checkSource(py, "python").findings.map((f) => [f.code, py.slice(f.span.start, f.span.end)]), [["path-not-absolute", '"x"']]);
});
