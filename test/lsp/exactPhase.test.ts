/**
 * The editor's second phase (server/src/lsp/exactPhase.ts): a newer edit drops the work of an older one, both
 * waiting and running, and a dropped job's result is never handed to anyone. Run in this thread (no worker file),
 * which takes the same path as the worker through `runExactJob` and the shared flags.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DROPPED_JOB, runExactJob, type ExactJobResult } from "../../server/src/lsp/exactJob";
import { ExactPhase } from "../../server/src/lsp/exactPhase";

const PATH = "/nonexistent/agent-sandbox.jsonc";
const SHADOWED = '{ "version": 1, "permissions": [\n { "operations": ["read"], "paths": ["/w/**"] },\n { "operations": ["read"], "paths": ["/w/a.md"], "mode": "deny" }\n] }';
const job = (text: string) => ({ fsPath: PATH, text, settings: { severities: {} }, kind: "config" as const });

describe("second phase (exact rule analysis in the background)", () => {
  it("runs a job: the full check's findings, analysis included", async () => {
    const phase = new ExactPhase(undefined, () => {});
    const result = await phase.run("a", job(SHADOWED));
    assert.ok(result?.ok, "finished");
    assert.ok(result.findings.some((f) => f.code === "rule-shadowed"), "the analysis's own finding is in");
    assert.equal(phase.busy, false);
  });

  it("a newer job for the same file drops the one that is running: its caller hears undefined, the newer one runs", async () => {
    const log: string[] = [];
    const phase = new ExactPhase(undefined, (m) => log.push(m));
    const newText = SHADOWED.replace("/w/a.md", "/w/b/c.md");
    const older = phase.run("a", job(SHADOWED));
    const newer = phase.run("a", job(newText));
    assert.equal(await older, undefined);
    const result = await newer;
    assert.ok(result?.ok);
    const shadowed = result.findings.find((f) => f.code === "rule-shadowed");
    assert.match(newText.slice(shadowed!.span.start, shadowed!.span.end), /\/w\/b\/c\.md/, "the newer text's finding");
    assert.equal(phase.busy, false);
    assert.deepEqual(log, []);
  });

  it("another file's job is not dropped by a newer job of its neighbour", async () => {
    const phase = new ExactPhase(undefined, () => {});
    const a = phase.run("a", job(SHADOWED));
    const b1 = phase.run("b", job(SHADOWED));
    const b2 = phase.run("b", job(SHADOWED));
    assert.ok((await a)?.ok, "a runs to the end");
    assert.equal(await b1, undefined, "b's waiting job was replaced");
    assert.ok((await b2)?.ok);
  });

  it("a job flagged as dropped does not run, and one dropped while it ran sends back nothing of its result", () => {
    const flags = new Int32Array(new SharedArrayBuffer(4));
    Atomics.store(flags, DROPPED_JOB, 7);
    assert.deepEqual(runExactJob({ id: 7, ...job(SHADOWED) }, flags), { id: 7, dropped: true });
    const other = runExactJob({ id: 8, ...job(SHADOWED) }, flags);
    assert.ok("ok" in other && other.ok, "another id runs");
  });
});

describe("the analysis worker (dist/analysis-worker.js) stops a job dropped while it runs", () => {
  it("answers `interrupted` long before the job would have finished, then serves the next job in full", async () => {
    const { Worker } = await import("node:worker_threads");
    const { join } = await import("node:path");
    const { generateConfigText } = await import("../../bench/generate");
    const flags = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(join(__dirname, "..", "..", "dist", "analysis-worker.js"), { workerData: { flags } });
    const results: ExactJobResult[] = [];
    const waiters: ((r: ExactJobResult) => void)[] = [];
    worker.on("message", (r: ExactJobResult) => (waiters.shift() ?? ((x) => results.push(x)))(r));
    const next = () => new Promise<ExactJobResult>((resolve) => (results.length ? resolve(results.shift()!) : waiters.push(resolve)));
    try {
      // A small job first, so that the worker is up and its engine loaded when the large one starts.
      worker.postMessage({ id: 1, ...job(SHADOWED) });
      assert.ok("ok" in (await next()));
      // 300 rules, nothing compiled yet: most of a second of work. Dropped 50 ms in, it stops at its next budget
      // check (every few milliseconds).
      const large = generateConfigText(300, 21, "https://agent-sandbox.dev/schemas/agent-sandbox.schema.json");
      worker.postMessage({ id: 2, ...job(large) });
      setTimeout(() => Atomics.store(flags, DROPPED_JOB, 2), 50);
      assert.deepEqual(await next(), { id: 2, dropped: true, interrupted: true });
      // Nothing half-done was kept: the same text analysed again gives what this thread computes.
      worker.postMessage({ id: 3, ...job(large) });
      const result = await next();
      const here = runExactJob({ id: 3, ...job(large) });
      assert.ok("ok" in result && result.ok && "ok" in here && here.ok);
      assert.deepEqual(result.findings, here.findings);
    } finally {
      await worker.terminate();
    }
  });
});
