import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli";
import { SOURCE_FIXTURES } from "../helpers/sources";

// `agent-sandbox check` on source files and folders of them: the same text, JSON and SARIF as for configs.

const run = runCli;

test("a folder: only the files that call the runtime are reported, with SARIF locations in the source", async () => {
  const folder = mkdtempSync(join(tmpdir(), "agent-sandbox-sources-cli-"));
  try {
    mkdirSync(join(folder, "src"));
    writeFileSync(join(folder, "src", "agent.py"), readFileSync(join(SOURCE_FIXTURES, "py", "set-tools.py"), "utf8"));
    writeFileSync(join(folder, "src", "agent.ts"), readFileSync(join(SOURCE_FIXTURES, "ts", "alias-import.ts"), "utf8"));
    for (let i = 0; i < 50; i++) writeFileSync(join(folder, "src", `util${i}.ts`), `export const x${i} = ${i};\n`);
    writeFileSync(join(folder, "src", "other.py"), "import os\n");
    const json = await run(["check", folder, "--format", "json"]);
    const report = JSON.parse(json.out) as { files: { path: string; diagnostics: { code: string; range: { start: { line: number } } }[] }[]; summary: { files: number } };
    assert.deepEqual(report.files.map((f) => f.path.split("/").slice(-2).join("/")), ["src/agent.py", "src/agent.ts"]);
    assert.equal(report.summary.files, 2);
    assert.deepEqual(report.files[0]!.diagnostics.map((d) => d.code), ["tools-not-list"]);
    assert.deepEqual(report.files[1]!.diagnostics.map((d) => d.code).sort(), ["path-not-absolute", "path-parent-segment"]);
    assert.equal(json.code, 1, "an error-level finding");
    const sarif = JSON.parse((await run(["check", join(folder, "src", "agent.py"), "--format", "sarif"])).out) as {
      runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }[] }[];
    };
    const [result] = sarif.runs[0]!.results;
    assert.equal(result!.ruleId, "tools-not-list");
    assert.match(result!.locations[0]!.physicalLocation.artifactLocation.uri, /src\/agent\.py$/);
    // The set on line 5 of the fixture: `FilesystemMiddleware(tools={"read_file", "ls"})`.
    assert.equal(result!.locations[0]!.physicalLocation.region.startLine, 5);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("a source file named on the command line is reported even when it calls nothing; --fix changes nothing in it", async () => {
  const folder = mkdtempSync(join(tmpdir(), "agent-sandbox-sources-cli-"));
  try {
    const plain = join(folder, "plain.ts");
    writeFileSync(plain, "export const x = 1;\n");
    const result = await run(["check", plain, "--format", "json"]);
    assert.equal(result.code, 0);
    assert.deepEqual((JSON.parse(result.out) as { files: { diagnostics: unknown[] }[] }).files.map((f) => f.diagnostics), [[]]);
    const agent = join(folder, "agent.ts");
    const text = readFileSync(join(SOURCE_FIXTURES, "ts", "alias-import.ts"), "utf8");
    writeFileSync(agent, text);
    await run(["check", agent, "--fix"]);
    assert.equal(readFileSync(agent, "utf8"), text);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
