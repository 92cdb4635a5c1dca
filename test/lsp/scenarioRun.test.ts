/**
 * Dry-run scenarios in the language server: `agentSandbox/runScenario` (what Test Explorer shows), the outcome of
 * each step as a code lens, the run in the second phase (off the thread that answers), a config's unsaved edits
 * re-running its scenarios, and the scenario's diagnostics equal to `check`'s on the same file.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { before, describe, it } from "node:test";
import type { CodeLens, Diagnostic } from "vscode-languageserver-protocol/node";
import { ScenarioRunRequest, type ScenarioRunResult, type ScenarioStepRun } from "../../server/src/protocol";
import { FIXTURES, type Fixture } from "./fixtures";
import { rangeText, ROOT, type LspTestClient } from "./lspClient";
import { serverSession, type Opened } from "./session";

const CONFIG = FIXTURES.research.text.replace("‸", "");

/** The research config beside it; step 2 expects to read `.env`, which rule 0 denies. */
const SCENARIO: Fixture = {
  file: "research.dryrun.jsonc",
  files: { ...FIXTURES.research.files, "agent-sandbox.jsonc": CONFIG },
  text: `{
  "config": "./agent-sandbox.jsonc",
  "role": "user",
  "steps": [
    { "tool": "read_file", "args": { "file_path": "/workspace/README.md" }, "expect": "ok" },
    { "tool": "read_file", "args": { "file_path": "/workspace/.env" }, "expect": "ok" },
    { "tool": "ls", "args": { "path": "/workspace" } },
    { "tool": "task", "args": { "subagent_type": "auditor", "description": "Review", "steps": [
      { "tool": "read_file", "args": { "file_path": "/workspace/README.md" }, "expect": { "outcome": "ok", "outputContains": "# Sample" } },
      { "tool": "write_file", "args": { "file_path": "/workspace/x.md", "content": "x" }, "expect": "permission-denied" }
    ] } }
  ]
}
`,
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Polls until `probe` gives a value (the server re-runs after its debounce, in its worker). */
async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const flatten = (steps: readonly ScenarioStepRun[]): ScenarioStepRun[] => steps.flatMap((s) => [s, ...flatten(s.steps ?? [])]);
const codesOf = (ds: readonly Diagnostic[]) => ds.map((d) => d.code);

describe("dry-run scenarios in the language server", () => {
  const session = serverSession();
  let client: LspTestClient;
  let scenario: Opened;
  const run = (uri: string) => client.request<ScenarioRunResult>(ScenarioRunRequest.method, { uri }) as Promise<ScenarioRunResult>;
  const lenses = async (uri: string) => ((await client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri } })) ?? []).map((l) => ({ line: l.range.start.line, title: l.command?.title }));

  before(async () => {
    client = session.client;
    scenario = await session.open(SCENARIO);
  });

  it("runScenario: each step with its outcome, a task's steps as its children, ranges on the steps, the transcript", async () => {
    const result = await run(scenario.uri);
    assert.equal(result.available, true);
    assert.equal(result.ran, true);
    assert.equal(result.passed, false);
    assert.equal(result.runtime, "deepagents-js 1.14.1");
    assert.equal(result.configUri, pathToFileURL(join(scenario.folder, "agent-sandbox.jsonc")).href);
    assert.deepEqual(result.steps.map((s) => s.id), ["0", "1", "2", "3"]);
    assert.deepEqual(result.steps[3]!.steps!.map((s) => s.id), ["3/0", "3/1"]);
    assert.deepEqual(
      flatten(result.steps).map((s) => [s.label, s.result?.outcome, s.result?.passed]),
      [
        ["read_file /workspace/README.md", "ok", true],
        ["read_file /workspace/.env", "permission-denied", false],
        ["ls /workspace", "ok", undefined],
        ["task auditor", "ok", undefined],
        ["read_file /workspace/README.md", "ok", true],
        ["write_file /workspace/x.md", "permission-denied", true],
      ],
    );
    const failing = result.steps[1]!;
    assert.equal(failing.result?.expected, "ok");
    assert.equal(failing.result?.outcomeText, "permission-denied by rule 0 (deny /workspace/.env)");
    assert.match(failing.result!.failure!, /expected ok, got permission-denied/);
    assert.match(failing.result!.output, /permission denied for read on \/workspace\/\.env/);
    // "Go to test" lands on the step; a failure points at its expectation.
    const doc = client.document(scenario.uri);
    assert.match(rangeText(doc, failing.range), /^\{ "tool": "read_file", "args": \{ "file_path": "\/workspace\/\.env" \}, "expect": "ok" \}$/);
    assert.equal(rangeText(doc, failing.expectRange!), '"ok"');
    assert.match(rangeText(doc, result.steps[3]!.steps![1]!.range), /^\{ "tool": "write_file"/);
    assert.equal(result.steps[3]!.steps![1]!.result?.agent, "auditor");
    assert.match(result.transcript, /^FAIL agent main, role user, deepagents-js 1\.14\.1\n/);
    assert.match(result.transcript, /✖ 2\. \[main\] read_file \/workspace\/\.env → permission-denied by rule 0 \(deny \/workspace\/\.env\)\n/);
    assert.match(result.transcript, /\n {4}✔ 6\. \[auditor\] write_file \/workspace\/x\.md → permission-denied by rule 0 \(deny \/\*\*\)\n/);
    assert.match(result.transcript, /\| # Sample/, "the outputs are in the transcript");
  });

  it("code lenses: each step's outcome on its line, a failed expectation said", async () => {
    const doc = client.document(scenario.uri);
    const lineOf = (snippet: string) => doc.positionAt(doc.getText().indexOf(snippet)).line;
    assert.deepEqual(await lenses(scenario.uri), [
      { line: lineOf('{ "tool": "read_file", "args": { "file_path": "/workspace/README.md" }, "expect": "ok"'), title: "✔ ok" },
      { line: lineOf('"/workspace/.env"'), title: "✖ permission-denied by rule 0 (deny /workspace/.env) · expected ok" },
      { line: lineOf('"tool": "ls"'), title: "✔ ok" },
      { line: lineOf('"tool": "task"'), title: "✔ ok" },
      { line: lineOf('"outputContains"'), title: "✔ ok" },
      { line: lineOf('"/workspace/x.md"'), title: "✖ permission-denied by rule 0 (deny /**)" },
    ]);
  });

  it("the run is the second phase: the first answer has the static findings, the expectation's come when it is done", async () => {
    const fresh = await session.open(SCENARIO);
    const first = await client.pullDiagnostics(fresh.uri);
    const check = client.checks.filter((c) => c.uri === fresh.uri).at(-1);
    assert.equal(check?.kind, "dry-run");
    assert.equal(check?.analysis, "pending");
    assert.ok(!codesOf(first).includes("scenario-expectation-failed"), codesOf(first).join(", "));
    const complete = await client.pullCompleteDiagnostics(fresh.uri);
    assert.deepEqual(codesOf(complete), ["scenario-expectation-failed"]);
    assert.equal(rangeText(client.document(fresh.uri), complete[0]!.range), '"ok"');
    assert.equal(complete[0]!.message, "Expected ok, but the dry run gives permission-denied.");
    await client.close(fresh.uri);
  });

  it("an unsaved edit of the config re-runs the scenario: its diagnostics, lenses and run follow; closing the config brings the disk's back", async () => {
    assert.equal((await run(scenario.uri)).passed, false, "it fails against the config as written");
    // The scenario's own config (the fixture wrote it beside the scenario), opened in the editor.
    const config = pathToFileURL(join(scenario.folder, "agent-sandbox.jsonc")).href;
    await client.open(config, CONFIG, "agent-sandbox");
    const withoutEnvRule = CONFIG.replace('"paths": ["/workspace/.env", "/workspace/secrets/**"]', '"paths": ["/workspace/secrets/**"]');
    assert.notEqual(withoutEnvRule, CONFIG);
    await client.replaceAll(config, withoutEnvRule);
    await eventually("the scenario to pass against the edited config", async () => ((await run(scenario.uri)).passed ? true : undefined));
    const lensTitles = (await lenses(scenario.uri)).map((l) => l.title);
    assert.equal(lensTitles[1], "✔ ok");
    assert.deepEqual(codesOf(await client.pullCompleteDiagnostics(scenario.uri)), []);
    // Closed without saving: the config on disk still denies .env.
    await client.close(config);
    await eventually("the scenario to fail again against the config on disk", async () => ((await run(scenario.uri)).passed ? undefined : true));
    assert.equal((await lenses(scenario.uri))[1]?.title, "✖ permission-denied by rule 0 (deny /workspace/.env) · expected ok");
    assert.deepEqual(codesOf(await client.pullCompleteDiagnostics(scenario.uri)), ["scenario-expectation-failed"]);
  });

  it("a scenario whose config is a source file's call: it runs against the call, and an unsaved edit of the source re-runs it", async () => {
    const source = `import { createDeepAgent } from "deepagents";

export const other = createDeepAgent({ permissions: [] });

export const agent = createDeepAgent({
  permissions: [{ operations: ["read"], paths: ["/workspace/.env"], mode: "deny" }],
});
`;
    const opened = await session.open({
      file: "source.dryrun.jsonc",
      files: { "agent.ts": source },
      text: `{ "config": "agent.ts:5", "steps": [{ "tool": "read_file", "args": { "file_path": "/workspace/.env" }, "expect": "permission-denied" }] }\n`,
    });
    const first = await run(opened.uri);
    assert.equal(first.ran, true, first.reason);
    assert.equal(first.passed, true, JSON.stringify(first.steps));
    assert.equal(first.configUri, pathToFileURL(join(opened.folder, "agent.ts")).href);
    const agentUri = pathToFileURL(join(opened.folder, "agent.ts")).href;
    await client.open(agentUri, source, "typescript");
    await client.replaceAll(agentUri, source.replace('mode: "deny"', 'mode: "allow"'));
    await eventually("the scenario to fail against the edited source", async () => ((await run(opened.uri)).passed ? undefined : true));
    assert.deepEqual(codesOf(await client.pullCompleteDiagnostics(opened.uri)), ["scenario-expectation-failed"]);
    await client.close(agentUri);
    await eventually("the scenario to pass again against the source on disk", async () => ((await run(opened.uri)).passed ? true : undefined));
    // Without a line, two calls are one too many: the scenario says which lines to choose from.
    const ambiguous = await session.open({ file: "ambiguous.dryrun.jsonc", files: { "agent.ts": source }, text: `{ "config": "agent.ts", "steps": [] }\n` });
    const diagnostics = await client.pullCompleteDiagnostics(ambiguous.uri);
    assert.deepEqual(codesOf(diagnostics), ["scenario-config-invalid"]);
  });

  it("a scenario file that is not open runs from disk (Test Explorer runs every scenario of the workspace)", async () => {
    const written = session.folder.write(SCENARIO);
    const result = await run(written.uri);
    assert.equal(result.ran, true);
    assert.equal(flatten(result.steps).length, 6);
    assert.equal(result.steps[1]!.result?.passed, false);
    assert.ok(result.steps[1]!.range.start.line > 0);
  });

  it("a scenario that cannot run says why, and still lists its steps", async () => {
    const unknownAgent = await session.open({ ...SCENARIO, text: SCENARIO.text.replace('"role": "user",', '"agent": "nobody",') });
    const result = await run(unknownAgent.uri);
    assert.equal(result.available, true);
    assert.equal(result.ran, false);
    assert.equal(result.passed, false);
    assert.match(result.reason!, /^The scenario cannot run: .*nobody/);
    assert.equal(result.steps.length, 4);
    assert.equal(result.steps[0]!.result, undefined);
    assert.deepEqual(await lenses(unknownAgent.uri), []);
    const config = await session.open({ text: CONFIG });
    const notScenario = await run(config.uri);
    assert.equal(notScenario.available, false);
    assert.match(notScenario.reason!, /not a dry-run scenario/);
  });

  it("only the newest text's run is answered: edits in a row while it runs", async () => {
    const many = await session.open({
      ...SCENARIO,
      text: JSON.stringify({ config: "./agent-sandbox.jsonc", role: "user", steps: Array.from({ length: 3000 }, (_, i) => ({ tool: "write_file", args: { file_path: `/workspace/f${i}.md`, content: "x" }, expect: "ok" })) }, null, 1),
    });
    void client.pullDiagnostics(many.uri);
    const last = JSON.stringify({ config: "./agent-sandbox.jsonc", role: "user", steps: [{ tool: "read_file", args: { file_path: "/workspace/.env" }, expect: "ok" }] }, null, 1);
    await client.replaceAll(many.uri, last.replace('"ok"', '"error"'));
    await client.replaceAll(many.uri, last);
    const result = await run(many.uri);
    assert.deepEqual(flatten(result.steps).map((s) => [s.label, s.result?.outcome]), [["read_file /workspace/.env", "permission-denied"]]);
    assert.deepEqual(codesOf(await client.pullCompleteDiagnostics(many.uri)), ["scenario-expectation-failed"]);
  });

  it("a scenario of 6,000 steps: 5,000 lenses (an editor slows down with more), every step in the run", async () => {
    const big = await session.open({
      ...SCENARIO,
      text: JSON.stringify({ config: "./agent-sandbox.jsonc", role: "user", steps: Array.from({ length: 6000 }, () => ({ tool: "read_file", args: { file_path: "/workspace/README.md" }, expect: "ok" })) }, null, 1),
    });
    const found = await lenses(big.uri);
    assert.equal(found.length, 5000);
    assert.ok(found.every((l) => l.title === "✔ ok"));
    const result = await run(big.uri);
    assert.equal(result.steps.length, 6000);
    assert.equal(result.steps[5999]!.result?.index, 6000);
    await client.close(big.uri);
  });

  it("parity: the scenario's diagnostics are `check`'s on the same file", async () => {
    const written = session.folder.write(SCENARIO);
    let out: string;
    try {
      out = execFileSync(process.execPath, [join(ROOT, "dist", "cli.js"), "check", "--format", "json", written.path], { encoding: "utf8" });
    } catch (error) {
      out = (error as { stdout: string }).stdout;
    }
    const cli = (JSON.parse(out) as { files: { diagnostics: { code: string; message: string; range: unknown }[] }[] }).files[0]!.diagnostics;
    await client.open(written.uri, SCENARIO.text, "agent-sandbox-dryrun");
    const lsp = await client.pullCompleteDiagnostics(written.uri);
    assert.deepEqual(
      lsp.map((d) => ({ code: d.code, message: d.message, range: d.range })),
      cli.map((d) => ({ code: d.code, message: d.message, range: d.range })),
    );
    assert.deepEqual(codesOf(lsp), ["scenario-expectation-failed"]);
  });
});
