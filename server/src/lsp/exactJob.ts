/**
 * One job of the editor's second phase (exactPhase.ts): the exact rule analysis of one file's text, or a dry-run
 * scenario's static checks or run, reduced to what the first phase's analysis lacks (plain data, so that it crosses
 * from the worker thread by structured clone).
 */
import { AnalysisCancelled, runCancellable } from "../engine/cancellation";
import type { Finding } from "../engine/diagnostics";
import { analyze, analyzeScenarioPart, type AnalysisSettings, type FileKind, type OpenText, type SecondPhaseResult } from "./engineFacade";

function openTextIn(texts: Record<string, string> | undefined): OpenText | undefined {
  return texts ? (fsPath) => (Object.hasOwn(texts, fsPath) ? texts[fsPath] : undefined) : undefined;
}

export interface ExactJob {
  id: number;
  fsPath: string;
  text: string;
  settings: AnalysisSettings;
  kind: FileKind;
  /** Files open in the editor that the first phase read (a scenario's config), by absolute path: their text there. */
  openTexts?: Record<string, string>;
  /** A dry-run scenario's part to do (engineFacade.ts `scenarioPending`): a large one's static checks and run, or the run. */
  scenarioPart?: "checks-and-run" | "run";
}

/** A large scenario's static checks, sent before its run is done (exactPhase.ts shows them meanwhile). */
export type ExactJobProgress = { id: number; progress: true } & SecondPhaseResult;

/** `interrupted`: the job was dropped while it ran, and stopped there rather than finishing. */
export type ExactJobResult = ({ id: number; ok: true } & SecondPhaseResult) | { id: number; ok: false; error: string } | { id: number; dropped: true; interrupted?: true };

/** Index in the shared flags (exactPhase.ts) of the id of the running job whose result nobody wants any more. */
export const DROPPED_JOB = 0;

/**
 * Runs one job. `flags` (shared with the thread that queued it) can say that the job was dropped meanwhile: a job
 * dropped before it starts does not run at all, one dropped while it runs stops at the analysis's next budget check
 * (engine/cancellation.ts), and either way nothing is copied back.
 */
export function runExactJob(job: ExactJob, flags?: Int32Array, progress?: (message: ExactJobProgress) => void): ExactJobResult {
  const dropped = () => flags !== undefined && Atomics.load(flags, DROPPED_JOB) === job.id;
  if (dropped()) return { id: job.id, dropped: true };
  try {
    // The analysis alone: the first phase has every other finding of this text (completeWith joins them), so the
    // worker neither repeats those checks nor copies their findings back. A scenario's part: a large one's static
    // checks (sent on as progress when it can run: its run takes longer) and run, or a small one's run.
    const onStaticChecked = (checked: { findings: Finding[]; runnable: boolean; dependencies: string[]; durationMs: number }) => {
      if (checked.runnable && !dropped()) progress?.({ id: job.id, progress: true, findings: checked.findings, skipped: [], dependencies: checked.dependencies, durationMs: checked.durationMs, runnable: true });
    };
    const { analysis, scenarioRun } = runCancellable(dropped, () =>
      job.kind === "dry-run"
        ? analyzeScenarioPart(job.fsPath, job.text, job.settings, job.scenarioPart ?? "run", openTextIn(job.openTexts), onStaticChecked)
        : { analysis: analyze(job.fsPath, job.text, { ...job.settings, analysis: true }, job.kind, true, openTextIn(job.openTexts)) },
    );
    if (dropped()) return { id: job.id, dropped: true };
    return {
      id: job.id,
      ok: true,
      findings: analysis.findings,
      skipped: [...analysis.skipped],
      dependencies: [...analysis.dependencies],
      durationMs: analysis.durationMs,
      ...(scenarioRun ? { scenarioRun } : {}),
    };
  } catch (error) {
    if (error instanceof AnalysisCancelled) return { id: job.id, dropped: true, interrupted: true };
    return { id: job.id, ok: false, error: (error as Error).stack ?? String(error) };
  }
}
