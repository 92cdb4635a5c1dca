/**
 * How soon the editor's analysis worker (dist/analysis-worker.js, as the language server runs it) is free again
 * when the job it is running is dropped (the user typed on): the time from the drop to the worker's answer,
 * against the time the same job takes in full. The job is the 1,000-rule benchmark config with nothing compiled
 * yet, the longest a user waits for.
 *
 *   npm run build && node --import tsx bench/cancel.ts [ms before the drop, default 100]
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { DROPPED_JOB, type ExactJob, type ExactJobResult } from "../server/src/lsp/exactJob";
import { SCHEMA_URI } from "./check";
import { generateConfigText } from "./generate";

const dropAfterMs = Number(process.argv[2] ?? 100);
const flags = new Int32Array(new SharedArrayBuffer(4));
const worker = new Worker(join(__dirname, "..", "dist", "analysis-worker.js"), { workerData: { flags } });
const job = (id: number, text: string): ExactJob => ({ id, fsPath: "/bench/agent-sandbox.jsonc", text, settings: { severities: {} }, kind: "config" });
const waiting: ((result: ExactJobResult) => void)[] = [];
worker.on("message", (result: ExactJobResult) => waiting.shift()?.(result));
const run = (j: ExactJob) => new Promise<ExactJobResult>((resolve) => (waiting.push(resolve), worker.postMessage(j)));

(async () => {
  // The worker up and its engine loaded, as in an editor that has checked a file already.
  await run(job(1, '{ "version": 1 }'));
  const text = generateConfigText(1000, 21, SCHEMA_URI);
  let droppedAt = 0;
  const answer = run(job(2, text));
  setTimeout(() => {
    droppedAt = performance.now();
    Atomics.store(flags, DROPPED_JOB, 2);
  }, dropAfterMs);
  const dropped = await answer;
  const freeAfterMs = performance.now() - droppedAt;
  const start = performance.now();
  const full = await run(job(3, text));
  const fullMs = performance.now() - start;
  console.log(`dropped ${dropAfterMs} ms into a cold 1,000-rule analysis: the worker answered ${JSON.stringify(dropped)} ${freeAfterMs.toFixed(1)} ms later`);
  console.log(`the same analysis in full, right after (patterns partly compiled by then): ${fullMs.toFixed(0)} ms (${"ok" in full && full.ok ? "ok" : "failed"})`);
  await worker.terminate();
})();
