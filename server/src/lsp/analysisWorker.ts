/**
 * The worker thread of the language server's second phase (exactPhase.ts), bundled as dist/analysis-worker.js:
 * the exact rule analysis of a file (its other checks are the first phase's), one job at a time, off the thread
 * that answers requests. The analysis keeps its compiled patterns and per-rule-list results between jobs
 * (automata caches), so re-checking after an edit that did not touch the rules costs little.
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { runExactJob, type ExactJob } from "./exactJob";
import { scenarioConfigLanguage } from "../engine/configReference";
import { isLanguageLoaded, loadLanguage, sourceLanguageOf } from "../engine/sources";
import { grammarFiles } from "../host/grammarFiles";

/**
 * The analysis is background work: on a machine with fewer free cores than busy threads (two cores, a build
 * running), a first phase that shares a core with it takes several times longer. Linux gives each thread its own
 * nice value, so this thread alone yields to the one answering requests (and to the user's other programs) and
 * still gets every core nobody else wants. Not lower than 5: sharing a core, the request thread then gets three
 * quarters of it, while on a machine busy with other work the analysis still gets a third of a normal share (at 10,
 * a tenth: a 1,000-rule analysis that took 33 s at load 10 took over 2 minutes). An unprivileged process cannot
 * raise a priority again, so this is set once, not around each first phase. Elsewhere the same call would lower the
 * whole server's priority (macOS, Windows), so it is made only with this thread's own id, which only Linux's /proc
 * gives.
 */
const ANALYSIS_THREAD_NICE = 5;

function lowerThisThreadsPriority(): void {
  if (process.platform !== "linux") return;
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").at(-1));
    if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) setPriority(tid, ANALYSIS_THREAD_NICE);
  } catch {
    /* no /proc, or not allowed: the thread keeps the server's priority */
  }
}

const port = parentPort;
if (port) {
  lowerThisThreadsPriority();
  const flags = (workerData as { flags?: Int32Array } | undefined)?.flags;
  // Jobs run in the order they come; one whose file needs a grammar this thread has not loaded yet (a source file,
  // a scenario whose config is one) waits for it, and the jobs after it wait in turn.
  let queue: Promise<void> = Promise.resolve();
  port.on("message", (job: ExactJob) => {
    queue = queue.then(async () => {
      const language = job.kind === "dry-run" ? scenarioConfigLanguage(job.text) : job.kind === "source" ? sourceLanguageOf(job.fsPath) : undefined;
      if (language && !isLanguageLoaded(language)) await loadLanguage(language, grammarFiles).catch(() => undefined);
      port.postMessage(runExactJob(job, flags, (progress) => port.postMessage(progress)));
    });
  });
}
