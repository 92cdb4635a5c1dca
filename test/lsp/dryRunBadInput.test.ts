/**
 * The dry run's bad inputs in the editor (test/helpers/dryRunBadInputs.ts, as the CLI's and the engine's tests
 * have them): each scenario opened in the language server gets a clear diagnostic, never an internal error, a
 * failed request or a hang, and its run (when it has one) is Test Explorer's to show. How long each takes is
 * section 9 of `npm run bench`, not an assertion here. The 1,000,000-file workspace is the engine's test
 * (test/checks/scenario-run-stopped.test.ts, over a view that lists it on demand): a million files are not written
 * to disk for a test, and the server reads the sample workspace through the same limited view as the CLI.
 */
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import type { Diagnostic } from "vscode-languageserver-protocol/node";
import { ScenarioRunRequest, type ScenarioRunResult } from "../../server/src/protocol";
import { deepTaskText, hundredThousandSteps, ONE_MEGABYTE, tenMegabyteScenario } from "../helpers/dryRunBadInputs";
import { FIXTURES, type Fixture } from "./fixtures";
import { rangeText, type LspTestClient } from "./lspClient";
import { serverSession } from "./session";

const CONFIG = FIXTURES.research.text.replace("‸", "");
const scenario = (text: string): Fixture => ({ file: "bad.dryrun.jsonc", files: { ...FIXTURES.research.files, "agent-sandbox.jsonc": CONFIG }, text });
const brief = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.code}: ${d.message}`);

describe("the dry run's bad inputs in the language server", () => {
  const session = serverSession();
  let client: LspTestClient;
  const run = async (uri: string) => (await client.request<ScenarioRunResult>(ScenarioRunRequest.method, { uri }))!;
  before(() => {
    client = session.client;
  });

  it("a 10 MB scenario: one json-syntax error saying it is too large, and no run", async () => {
    const opened = await session.open(scenario(tenMegabyteScenario("./agent-sandbox.jsonc")));
    assert.deepEqual(brief(await client.pullCompleteDiagnostics(opened.uri)), ["json-syntax: The file is 10.0 MB: files over 4 MB are not analysed."]);
    const result = await run(opened.uri);
    assert.equal(result.available, false);
    assert.match(result.reason!, /files over 4 MB are not analysed/);
    await client.close(opened.uri);
  });

  it("100,000 steps: the run stops at its limit, said on the step where it stopped", async () => {
    const opened = await session.open(scenario(hundredThousandSteps("./agent-sandbox.jsonc")));
    const found = await client.pullCompleteDiagnostics(opened.uri);
    assert.deepEqual(brief(found), ["scenario-run-stopped: The dry run stopped at this step: the scenario has more than 20,000 steps."]);
    assert.equal(rangeText(opened.doc, found[0]!.range), '"ls"');
    const result = await run(opened.uri);
    assert.equal(result.ran, true);
    assert.equal(result.passed, false);
    assert.equal(result.steps.length, 100_000);
    assert.equal(result.steps[19_999]!.result?.index, 20_000);
    assert.equal(result.steps[20_000]!.result, undefined, "the steps after the limit have no result");
    await client.close(opened.uri);
  });

  it("a task nested 10,000 deep: one json-syntax error at the parser's nesting limit", async () => {
    const opened = await session.open(scenario(deepTaskText("./agent-sandbox.jsonc")));
    const found = await client.pullCompleteDiagnostics(opened.uri);
    assert.deepEqual(brief(found), ["json-syntax: Nesting deeper than 128 levels: the file was not analysed further."]);
    await client.close(opened.uri);
  });

  it("a step with a 1 MB argument: it runs, and its outcome and expectation are shown like any step's", async () => {
    const text = JSON.stringify({ config: "./agent-sandbox.jsonc", role: "user", steps: [
      { tool: "write_file", args: { file_path: "/workspace/notes/big.md", content: ONE_MEGABYTE }, expect: "ok" },
      { tool: "grep", args: { pattern: ONE_MEGABYTE, path: "/workspace/notes" }, expect: "error" },
    ] });
    const opened = await session.open(scenario(text));
    const found = await client.pullCompleteDiagnostics(opened.uri);
    assert.deepEqual(brief(found), ["scenario-expectation-failed: Expected error, but the dry run gives ok."]);
    const result = await run(opened.uri);
    assert.deepEqual(result.steps.map((s) => s.result?.outcome), ["ok", "ok"]);
    assert.ok(result.transcript.length < 200_000, `a transcript of ${result.transcript.length} characters`);
    await client.close(opened.uri);
  });

  it("a sample workspace with a symbolic link loop, a link up and a link out: the run ends and shows only what is inside", async () => {
    const opened = await session.open(scenario(JSON.stringify({ config: "./agent-sandbox.jsonc", role: "user", steps: [
      { tool: "glob", args: { pattern: "**", path: "/workspace" }, expect: { outcome: "ok", outputExcludes: "zq-outside" } },
      { tool: "grep", args: { pattern: "zq", path: "/workspace" }, expect: { outcome: "ok", outputExcludes: "zq-outside" } },
      { tool: "read_file", args: { file_path: "/workspace/loop1" }, expect: "error" },
    ] })));
    const sample = join(opened.folder, "sample");
    writeFileSync(join(opened.folder, "outside.txt"), "zq-outside\n");
    symlinkSync(join(sample, "loop1"), join(sample, "loop2"));
    symlinkSync(join(sample, "loop2"), join(sample, "loop1"));
    mkdirSync(join(sample, "deep"));
    symlinkSync(sample, join(sample, "deep", "up"));
    symlinkSync(join(opened.folder, "outside.txt"), join(sample, "out.txt"));
    // The links were made after the open: a change of the text checks it again against them.
    await client.replaceAll(opened.uri, `${opened.doc.getText()}\n`);
    assert.deepEqual(brief(await client.pullCompleteDiagnostics(opened.uri)), []);
    const result = await run(opened.uri);
    assert.deepEqual(result.steps.map((s) => s.result?.outcome), ["ok", "ok", "error"]);
    assert.doesNotMatch(result.transcript, /zq-outside/);
    await client.close(opened.uri);
  });
});
