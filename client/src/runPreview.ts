/**
 * A dry-run scenario's run as the Run Dry-Run Scenario preview shows it (plain data, no VS Code API, so that
 * node:test checks it): whether it passed, then the transcript in a fence no line of it can close.
 */
import type { ScenarioRunResult } from "../../server/src/protocol";

export function runMarkdown(result: ScenarioRunResult, uri: string): string {
  const name = decodeURIComponent(uri.split("/").at(-1) ?? uri);
  if (!result.available || !result.ran) return `# Dry run of ${name}\n\n_${result.reason ?? "The scenario did not run."}_\n`;
  const longest = Math.max(0, ...[...result.transcript.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  const transcript = result.transcript.endsWith("\n") ? result.transcript : `${result.transcript}\n`;
  return `# Dry run of ${name}: ${result.passed ? "passed" : "failed"}\n\n${fence}text\n${transcript}${fence}\n`;
}
