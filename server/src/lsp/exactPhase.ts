/**
 * The editor's second phase: full checks with the exact rule analysis, in a worker thread (dist/analysis-worker.js)
 * so that the thread answering requests never waits for it. One job runs at a time; at most one more per file waits.
 * A newer request for a file replaces its waiting job (which settles with `undefined` without running): stale work
 * is dropped before it starts. A job already running finishes (the analysis is synchronous code; terminating the
 * worker would also throw away its compiled patterns) and its caller discards the result if the text moved on.
 *
 * Without the worker file (e.g. run from source) or when a worker cannot start, jobs run in this thread, each on its
 * own turn of the event loop.
 */
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { runExactJob, type ExactJob, type ExactJobResult } from "./exactJob";

interface Waiting {
  key: string;
  job: ExactJob;
  resolve: (result: ExactJobResult | undefined) => void;
}

/** A heap limit for the worker: a pathological config ends that one job (reported), not the server. */
const WORKER_HEAP_MB = 1024;

export class ExactPhase {
  private worker: Worker | undefined;
  private running: Waiting | undefined;
  /** In arrival order (Map keeps insertion order), one per file. */
  private readonly waiting = new Map<string, Waiting>();
  private nextId = 1;
  private disposed = false;

  constructor(
    private workerFile: string | undefined,
    private readonly log: (message: string) => void,
  ) {}

  /** Queue the full check of `job.text`; settles with `undefined` when replaced by a newer request for `key` first. */
  run(key: string, job: Omit<ExactJob, "id">): Promise<ExactJobResult | undefined> {
    this.cancel(key);
    if (this.disposed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting.set(key, { key, job: { ...job, id: this.nextId++ }, resolve });
      this.pump();
    });
  }

  /** Drop the file's waiting job, if any. */
  cancel(key: string): void {
    const waiting = this.waiting.get(key);
    if (!waiting) return;
    this.waiting.delete(key);
    waiting.resolve(undefined);
  }

  /** Whether a job is running or waiting (tests and the benchmark wait for quiet). */
  get busy(): boolean {
    return this.running !== undefined || this.waiting.size > 0;
  }

  dispose(): void {
    this.disposed = true;
    for (const key of [...this.waiting.keys()]) this.cancel(key);
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }

  private pump(): void {
    if (this.running || this.disposed) return;
    const next = this.waiting.values().next();
    if (next.done) return;
    const waiting = next.value;
    this.waiting.delete(waiting.key);
    this.running = waiting;
    const worker = this.startWorker();
    if (worker) worker.postMessage(waiting.job);
    else setImmediate(() => this.finish(waiting.job.id, runExactJob(waiting.job)));
  }

  private finish(id: number, result: ExactJobResult): void {
    const running = this.running;
    if (!running || running.job.id !== id) return;
    this.running = undefined;
    running.resolve(result);
    this.pump();
  }

  private startWorker(): Worker | undefined {
    if (this.worker) return this.worker;
    if (!this.workerFile || !existsSync(this.workerFile)) return undefined;
    let worker: Worker;
    try {
      worker = new Worker(this.workerFile, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    } catch (error) {
      this.log(`The exact rule analysis runs on the main thread: no worker thread (${(error as Error).message}).`);
      this.workerFile = undefined;
      return undefined;
    }
    worker.on("message", (result: ExactJobResult) => this.finish(result.id, result));
    worker.on("error", (error) => this.log(`The exact rule analysis worker failed: ${error.stack ?? error}`));
    worker.on("exit", (code) => {
      if (this.worker === worker) this.worker = undefined;
      // Out of memory, or a crash: the job it held fails (the next job starts a new worker).
      const running = this.running;
      if (running && !this.disposed) this.finish(running.job.id, { id: running.job.id, ok: false, error: `the analysis worker stopped (exit code ${code})` });
    });
    // The server exits when its client says so; a worker must not keep it alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
