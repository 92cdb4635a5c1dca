/**
 * The editor's second phase (server/src/lsp/exactPhase.ts): a newer edit drops the work of an older one, both
 * waiting and running, and a dropped job's result is never handed to anyone. Run in this thread (no worker file),
 * which takes the same path as the worker through `runExactJob` and the shared flags.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DROPPED_JOB, runExactJob } from "../../server/src/lsp/exactJob";
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
