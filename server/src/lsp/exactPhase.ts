/**
 * The editor's second phase: the exact rule analysis, in a worker thread (dist/analysis-worker.js)
 * so that the thread answering requests never waits for it. One job runs at a time; at most one more per file waits.
 * A newer request for a file replaces its waiting job (which settles with `undefined` without running): stale work
 * is dropped before it starts. A job already running is told through a shared flag: its caller hears `undefined` at
 * once, and the worker stops it at the analysis's next budget check (engine/cancellation.ts; every few
 * milliseconds) and sends back nothing of it. The worker itself is kept, with its compiled patterns: terminating
 * it would throw them away, and a cold analysis of 1,000 rules takes ten times as long as a warm one.
 *
 * Without the worker file (e.g. run from source) or when a worker cannot start, jobs run in this thread, each on its
 * own turn of the event loop.
 */
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { DROPPED_JOB, runExactJob, type ExactJob, type ExactJobProgress, type ExactJobResult } from "./exactJob";

interface Waiting {
  key: string;
  job: ExactJob;
  resolve: (result: SecondPhaseOutcome | undefined) => void;
  /** Told what the job sends before its result (a large scenario's static checks), while it is still wanted. */
  progress?: (message: ExactJobProgress) => void;
  /** Set once `cancel` dropped it while it ran. */
  dropped?: boolean;
}

/** What a caller of `run` hears: the job's result (never the worker's "dropped", which only this class sees). */
export type SecondPhaseOutcome = Exclude<ExactJobResult, { dropped: true }>;

/** A heap limit for the worker: a pathological config ends that one job (reported), not the server. */
const WORKER_HEAP_MB = 1024;

export class ExactPhase {
  private worker: Worker | undefined;
  private running: Waiting | undefined;
  /** In arrival order (Map keeps insertion order), one per file. */
  private readonly waiting = new Map<string, Waiting>();
  private nextId = 1;
  private disposed = false;
  /** `[DROPPED_JOB]`: the id of the running job nobody waits for any more (read by the worker when it is done). */
  private readonly flags = new Int32Array(new SharedArrayBuffer(4));

  constructor(
    private workerFile: string | undefined,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * Queue the exact analysis of `job.text`; settles with `undefined` when a newer request for `key` (or `cancel`) comes
   * first, whether the job was still waiting or already running.
   */
  run(key: string, job: Omit<ExactJob, "id">, progress?: (message: ExactJobProgress) => void): Promise<SecondPhaseOutcome | undefined> {
    this.cancel(key);
    if (this.disposed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting.set(key, { key, job: { ...job, id: this.nextId++ }, resolve, ...(progress ? { progress } : {}) });
      this.pump();
    });
  }

  /** Drop the file's waiting job, if any, and its running job's result. */
  cancel(key: string): void {
    const running = this.running;
    if (running?.key === key && !running.dropped) {
      running.dropped = true;
      Atomics.store(this.flags, DROPPED_JOB, running.job.id);
      running.resolve(undefined);
    }
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
    else setImmediate(() => this.finish(waiting.job.id, runExactJob(waiting.job, this.flags, (progress) => this.finish(progress.id, progress))));
  }

  private finish(id: number, result: ExactJobResult | ExactJobProgress): void {
    const running = this.running;
    if (!running || running.job.id !== id) return;
    if ("progress" in result) {
      if (!running.dropped) running.progress?.(result);
      return;
    }
    this.running = undefined;
    // A dropped job's caller heard `undefined` already (a promise settles once).
    running.resolve("dropped" in result ? undefined : result);
    this.pump();
  }

  private startWorker(): Worker | undefined {
    if (this.worker) return this.worker;
    if (!this.workerFile || !existsSync(this.workerFile)) return undefined;
    let worker: Worker;
    try {
      worker = new Worker(this.workerFile, { workerData: { flags: this.flags }, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    } catch (error) {
      this.log(`The exact rule analysis runs on the main thread: no worker thread (${(error as Error).message}).`);
      this.workerFile = undefined;
      return undefined;
    }
    worker.on("message", (result: ExactJobResult | ExactJobProgress) => this.finish(result.id, result));
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
