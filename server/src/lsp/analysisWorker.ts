/**
 * The worker thread of the language server's second phase (exactPhase.ts), bundled as dist/analysis-worker.js:
 * full checks, exact rule analysis included, one at a time, off the thread that answers requests. The analysis
 * keeps its compiled patterns and per-rule-list results between jobs (automata caches), so re-checking after an
 * edit that did not touch the rules costs little.
 */
import { parentPort } from "node:worker_threads";
import { runExactJob, type ExactJob } from "./exactJob";

const port = parentPort;
if (port) port.on("message", (job: ExactJob) => port.postMessage(runExactJob(job)));
