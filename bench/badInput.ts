/**
 * Section 7: the bad inputs of issue #2 (a 10 MB file, 10,000-deep nesting, binary bytes, a brace pattern of
 * millions of alternatives, a 100,000-character pattern; test/helpers/badInputs.ts) through the whole CLI process as
 * a user runs it: `node dist/cli.js check <file> --format json`, the exact analysis on (the default, and the
 * slower way). The target: each gets a clear diagnostic in under a second. So each row says what the
 * answer was (checked against the input's expectation, the same one test/engine/badInput.test.ts asserts) and the
 * whole process's wall time (median of several runs, interleaved with `node -e 0`, whose time is shown beside it:
 * Node's own start-up is part of the second the user waits).
 *
 * Alone: node --import tsx bench/badInput.ts [--runs N]
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BAD_INPUTS, type BadInput } from "../test/helpers/badInputs";
import { CLI_PATH, CLI_TIMEOUT_MS, timed } from "./cli";
import { median } from "./measure";

/** The bound on each answer: the whole process, Node's start-up included. */
export const BAD_INPUT_TARGET_MS = 1000;

export interface BadInputRow {
  readonly name: string;
  /** What the CLI answered: the diagnostic's code and the start of its message, or why the answer is not the clear one. */
  readonly answer: string;
  /** Whether that answer is the one the input expects. */
  readonly clear: boolean;
  /** Median wall time of the whole process, and of `node -e 0` in the same rounds. */
  readonly ms: number;
  readonly nodeMs: number;
  readonly runs: number;
  readonly timedOut: boolean;
}

interface Report {
  files?: { diagnostics?: { code: string; message: string; detail?: string }[]; skipped?: { why: string }[] }[];
}

/** The input's clear answer in the CLI's JSON, or what was there instead. */
function answerOf(input: BadInput, stdout: string, status: number | null): { answer: string; clear: boolean } {
  let report: Report;
  try {
    report = JSON.parse(stdout) as Report;
  } catch {
    return { answer: `no JSON (exit ${status})`, clear: false };
  }
  const file = report.files?.[0];
  const short = (text: string) => (text.length > 70 ? `${text.slice(0, 67)}…` : text);
  if ("code" in input.expect) {
    const { code, message } = input.expect;
    const found = file?.diagnostics?.find((d) => d.code === code && message.test(`${d.message} ${d.detail ?? ""}`));
    if (found) return { answer: `${found.code}: ${short(found.message)}`, clear: true };
    return { answer: `expected ${code}, got ${file?.diagnostics?.map((d) => d.code).join(", ") || "nothing"}`, clear: false };
  }
  const { skipped } = input.expect;
  const note = file?.skipped?.find((s) => skipped.test(s.why));
  // The reason, without the pattern it quotes (shortened to 80 characters, and the same for every row).
  if (note && (file?.diagnostics?.length ?? 0) === 0) return { answer: `no problem; the analysis did not read it: ${short(note.why.replace(/^.*? was not analysed: /, ""))}`, clear: true };
  return { answer: `expected a "not analysed" note, got ${file?.diagnostics?.map((d) => d.code).join(", ") || "no note"}`, clear: false };
}

export function benchBadInput(runs: number, cliPath = CLI_PATH): BadInputRow[] | { skipped: string } {
  if (!existsSync(cliPath)) return { skipped: `${cliPath} does not exist (npm run build has not produced the CLI yet)` };
  const dir = mkdtempSync(join(tmpdir(), "agent-sandbox-bench-bad-"));
  try {
    const rows: BadInputRow[] = [];
    BAD_INPUTS.forEach((input, k) => {
      const file = join(dir, `bad-${k}.agent-sandbox.jsonc`);
      writeFileSync(file, input.text());
      const args = [cliPath, "check", file, "--format", "json"];
      // An untimed first run: the answer, and the compile cache and file cache filled as for any later run.
      const first = timed(args, dir);
      const { answer, clear } = first.timedOut ? { answer: `no answer within ${CLI_TIMEOUT_MS / 1000} s`, clear: false } : answerOf(input, first.stdout, first.status);
      if (first.timedOut) {
        rows.push({ name: input.name, answer, clear, ms: first.ms, nodeMs: Number.NaN, runs: 0, timedOut: true });
        return;
      }
      const cli: number[] = [];
      const node: number[] = [];
      for (let i = 0; i < runs; i++) {
        // Alternate which goes first so neither always follows the other.
        const pair = [() => cli.push(timed(args, dir).ms), () => node.push(timed(["-e", "0"], dir).ms)];
        if (i % 2 === 1) pair.reverse();
        for (const run of pair) run();
      }
      rows.push({ name: input.name, answer, clear, ms: median(cli), nodeMs: median(node), runs, timedOut: false });
    });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A row meets the target with the clear answer, in under a second. */
export function badInputTargetMet(row: BadInputRow): boolean {
  return row.clear && !row.timedOut && row.ms < BAD_INPUT_TARGET_MS;
}

// Run alone (`node --import tsx bench/badInput.ts`), not when bundled into the whole benchmark (bench/build.mjs).
if (process.argv[1]?.endsWith("badInput.ts")) {
  const at = process.argv.indexOf("--runs");
  const result = benchBadInput(at > 0 ? Number(process.argv[at + 1]) : 5);
  if ("skipped" in result) console.log(`skipped: ${result.skipped}`);
  else for (const r of result) console.log(`${badInputTargetMet(r) ? "PASS" : "FAIL"}  ${r.name}: ${r.ms.toFixed(0)} ms (node -e 0: ${r.nodeMs.toFixed(0)} ms; median of ${r.runs}): ${r.answer}`);
}
