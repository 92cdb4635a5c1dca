/**
 * A large dry-run scenario in the language server (engineFacade.ts `SCENARIO_STATIC_OFF_THREAD_CHARS`): the thread
 * that answers requests only parses it and checks its shape; its static checks (config, agent, role, tools,
 * arguments) and then its run are the worker's, each shown when done, each dropped when a newer text comes; and
 * the complete diagnostics are `check`'s on the same file.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { before, describe, it } from "node:test";
import type { Diagnostic } from "vscode-languageserver-protocol/node";
import { SCENARIO_STATIC_OFF_THREAD_CHARS } from "../../server/src/lsp/engineFacade";
import { ScenarioRunRequest, type ScenarioRunResult } from "../../server/src/protocol";
import { FIXTURES, type Fixture } from "./fixtures";
import { rangeText, ROOT, type LspTestClient } from "./lspClient";
import { serverSession } from "./session";

const CONFIG = FIXTURES.research.text.replace("‸", "");
const README = { tool: "read_file", args: { file_path: "/workspace/README.md" }, expect: "ok" };

/** 1,500 steps that hold, with an unknown tool at step 3 and a failing expectation at step 1,000. */
function largeScenario(more: Record<string, unknown> = {}): Fixture {
  const steps: unknown[] = Array.from({ length: 1500 }, () => README);
  steps[2] = { tool: "read_fil", args: { file_path: "/workspace/README.md" } };
  steps[999] = { tool: "read_file", args: { file_path: "/workspace/.env" }, expect: "ok" };
  const text = `${JSON.stringify({ config: "./agent-sandbox.jsonc", role: "user", ...more, steps }, null, 2)}\n`;
  return { file: "large.dryrun.jsonc", files: { ...FIXTURES.research.files, "agent-sandbox.jsonc": CONFIG }, text };
}
const codesOf = (ds: readonly Diagnostic[]) => ds.map((d) => d.code);

describe("a large dry-run scenario: its static checks off the request thread too", () => {
  const session = serverSession();
  let client: LspTestClient;
  before(() => {
    client = session.client;
  });

  it("is large by the server's measure", () => {
    assert.ok(largeScenario().text.length >= SCENARIO_STATIC_OFF_THREAD_CHARS, `${largeScenario().text.length} characters`);
  });

  it("the first answer has its shape alone; its static findings come next, then the run's; the whole is `check`'s", async () => {
    const opened = await session.open(largeScenario());
    const first = await client.pullDiagnostics(opened.uri);
    assert.deepEqual(codesOf(first), [], "no static check ran on the request thread");
    const checks = () => client.checks.filter((c) => c.uri === opened.uri && c.version === opened.doc.version);
    assert.equal(checks()[0]?.analysis, "pending");
    // The static checks' findings are out (one warning) while the run is still to come.
    const staticDone = await client.waitForCheck((c) => c.uri === opened.uri && c.analysis === "pending" && c.counts.warnings === 1);
    assert.equal(staticDone.counts.errors, 0);
    const complete = await client.pullCompleteDiagnostics(opened.uri);
    assert.deepEqual(codesOf(complete), ["scenario-tool-unknown", "scenario-expectation-failed"]);
    assert.equal(rangeText(opened.doc, complete[0]!.range), '"read_fil"');
    assert.deepEqual(checks().map((c) => [c.analysis, c.counts.warnings]), [["pending", 0], ["pending", 1], ["done", 2]]);
    let out: string;
    try {
      out = execFileSync(process.execPath, [join(ROOT, "dist", "cli.js"), "check", "--format", "json", opened.path], { encoding: "utf8" });
    } catch (error) {
      out = (error as { stdout: string }).stdout;
    }
    const cli = (JSON.parse(out) as { files: { diagnostics: { code: string; message: string; range: unknown }[] }[] }).files[0]!.diagnostics;
    assert.deepEqual(complete.map((d) => ({ code: d.code, message: d.message, range: d.range })), cli.map((d) => ({ code: d.code, message: d.message, range: d.range })));
    const run = (await client.request<ScenarioRunResult>(ScenarioRunRequest.method, { uri: opened.uri }))!;
    assert.equal(run.ran, true);
    assert.equal(run.steps.length, 1500);
    assert.equal(run.steps[999]!.result?.passed, false);
  });

  it("a large scenario that cannot run is complete after its static checks, and says why", async () => {
    const opened = await session.open(largeScenario({ agent: "nobody" }));
    const complete = await client.pullCompleteDiagnostics(opened.uri);
    assert.deepEqual(codesOf(complete), ["scenario-agent-unknown", "scenario-tool-unknown"]);
    const run = (await client.request<ScenarioRunResult>(ScenarioRunRequest.method, { uri: opened.uri }))!;
    assert.equal(run.ran, false);
    assert.match(run.reason!, /nobody/);
    assert.deepEqual(client.checks.filter((c) => c.uri === opened.uri).map((c) => c.analysis), ["pending", "done"]);
  });

  it("edits in a row: only the newest text's static checks and run are answered (an older job is dropped, its result never shown)", async () => {
    const opened = await session.open(largeScenario());
    void client.pullDiagnostics(opened.uri);
    const base = largeScenario().text;
    await client.replaceAll(opened.uri, base.replace('"read_fil"', '"read_fi"'));
    await client.replaceAll(opened.uri, base.replace('"read_fil"', '"write_fil"').replace('"file_path": "/workspace/.env"', '"file_path": "/workspace/README.md"'));
    const complete = await client.pullCompleteDiagnostics(opened.uri);
    assert.deepEqual(codesOf(complete), ["scenario-tool-unknown"]);
    assert.equal(rangeText(client.document(opened.uri), complete[0]!.range), '"write_fil"');
    // The older texts' checks never reached the client as complete.
    const version = client.document(opened.uri).version;
    assert.deepEqual(client.checks.filter((c) => c.uri === opened.uri && c.analysis === "done").map((c) => c.version), [version]);
  });

  it("an unsaved edit of its config re-checks it against the editor's text, in the worker", async () => {
    const opened = await session.open(largeScenario());
    assert.deepEqual(codesOf(await client.pullCompleteDiagnostics(opened.uri)), ["scenario-tool-unknown", "scenario-expectation-failed"]);
    const config = pathToFileURL(join(opened.folder, "agent-sandbox.jsonc")).href;
    await client.open(config, CONFIG, "agent-sandbox");
    const withoutEnvRule = CONFIG.replace('"paths": ["/workspace/.env", "/workspace/secrets/**"]', '"paths": ["/workspace/secrets/**"]');
    assert.notEqual(withoutEnvRule, CONFIG);
    await client.replaceAll(config, withoutEnvRule);
    const end = Date.now() + 60_000;
    let codes: unknown[] = [];
    while (Date.now() < end) {
      codes = codesOf(await client.pullCompleteDiagnostics(opened.uri));
      if (codes.length === 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(codes, ["scenario-tool-unknown"]);
    await client.close(config);
  });
});
