/**
 * One job of the editor's second phase (exactPhase.ts): the full check of one file's text, exact rule analysis
 * included, reduced to what the first phase's analysis lacks (plain data, so that it crosses from the worker
 * thread by structured clone).
 */
import { analyze, type AnalysisSettings, type FileKind, type SecondPhaseResult } from "./engineFacade";

export interface ExactJob {
  id: number;
  fsPath: string;
  text: string;
  settings: AnalysisSettings;
  kind: FileKind;
}

export type ExactJobResult = ({ id: number; ok: true } & SecondPhaseResult) | { id: number; ok: false; error: string };

export function runExactJob(job: ExactJob): ExactJobResult {
  try {
    const analysis = analyze(job.fsPath, job.text, { ...job.settings, analysis: true }, job.kind);
    return { id: job.id, ok: true, findings: analysis.findings, skipped: [...analysis.skipped], dependencies: [...analysis.dependencies], durationMs: analysis.durationMs };
  } catch (error) {
    return { id: job.id, ok: false, error: (error as Error).stack ?? String(error) };
  }
}
