/**
 * The exact rule analysis (issue 5): how long rule-shadowed, rule-redundant, rule-partially-shadowed,
 * runtime-divergence and the path half of subagent-escalation take together on whole configs of 10, 50 and 200
 * rules with realistic patterns (bench/generate.ts: `/workspace/**` subtrees, `**\/*.pem`, braces, stars in the
 * middle; `compatibleWith: ["deepagents-py"]`; two subagents with rules of their own), and whether anything was
 * lost to the budget (`skipped`).
 *
 * Three figures per size, in process CPU time: cold (nothing compiled yet: what `check --analysis` pays in a fresh
 * process), warm (the median of re-analyses with every pattern already compiled but nothing else kept: what an
 * edit to the rules costs the language server), and cached (the median of re-checks of text whose rules did not
 * change: what every other keystroke costs). Run with `node --import tsx bench/analysis.ts` (sizes from
 * ANALYSIS_SIZES, e.g. `ANALYSIS_SIZES=200`); `npm run bench` (bench/run.ts) does not include it yet.
 * `node --import tsx bench/profile.ts analysis 200` profiles the warm case.
 */
import { clearAnalysisCaches } from "../server/src/engine/automata/languages";
import { pathEscalationFindings } from "../server/src/engine/automata/escalation";
import { clearAnalysisResults, skippedAnalyses } from "../server/src/engine/automata/modelAnalysis";
import { ANALYSIS_CHECKS } from "../server/src/engine/checks";
import type { CheckContext } from "../server/src/engine/checks/check";
import { buildModel } from "../server/src/engine/config/model";
import { parseJsonc } from "../server/src/engine/config/parse";
import { generateConfigText } from "./generate";

export interface AnalysisBenchRow {
  rules: number;
  /** CPU milliseconds from a cold start (no pattern compiled yet). */
  coldMs: number;
  /** Median CPU milliseconds of re-analyses with the patterns already compiled (the rules changed). */
  warmMs: number;
  /** Median CPU milliseconds of re-checks whose rules did not change (results reused). */
  cachedMs: number;
  /** Findings per code. */
  findings: Record<string, number>;
  /** What the budget or the constructs left out (0 = no finding lost). */
  skipped: number;
  /** Target: 200 rules under 200 ms, with nothing skipped. */
  withinTarget: boolean;
}

const SIZES = process.env.ANALYSIS_SIZES ? process.env.ANALYSIS_SIZES.split(",").map(Number) : [10, 50, 200];
const SEED = 3;
const TARGET_MS = 200;

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** One full analysis of a config text; returns its findings per code and the skipped count (also bench/profile.ts). */
export function analyse(text: string): { findings: Record<string, number>; skipped: number } {
  const model = buildModel(parseJsonc(text).root!);
  const findings: Record<string, number> = {};
  const context = (code: string): CheckContext => ({
    model,
    text,
    runtimes: [...new Set([model.runtime, ...model.compatibleWith.map((c) => c.value)])],
    fileExists: () => false,
    readFile: () => undefined,
    analysis: true,
    report: () => {
      findings[code] = (findings[code] ?? 0) + 1;
    },
  });
  for (const check of ANALYSIS_CHECKS) check.run(context(check.code));
  findings["subagent-escalation (paths)"] = pathEscalationFindings(context("subagent-escalation")).length;
  return { findings, skipped: skippedAnalyses(model).length };
}

export function runAnalysisBench(options: { warmRuns?: number; print?: boolean } = {}): AnalysisBenchRow[] {
  const warmRuns = options.warmRuns ?? 5;
  const rows: AnalysisBenchRow[] = [];
  for (const rules of SIZES) {
    const text = generateConfigText(rules, SEED, "https://agent-sandbox.dev/schemas/agent-sandbox.schema.json");
    clearAnalysisCaches();
    clearAnalysisResults();
    const start = cpuMs();
    const cold = analyse(text);
    const coldMs = cpuMs() - start;
    const median = (forget: boolean): number => {
      const times: number[] = [];
      for (let i = 0; i < warmRuns; i++) {
        if (forget) clearAnalysisResults();
        const t = cpuMs();
        analyse(text);
        times.push(cpuMs() - t);
      }
      times.sort((a, b) => a - b);
      return times[Math.floor(times.length / 2)]!;
    };
    const warmMs = median(true);
    const cachedMs = median(false);
    rows.push({ rules, coldMs, warmMs, cachedMs, findings: cold.findings, skipped: cold.skipped, withinTarget: rules !== 200 || (warmMs < TARGET_MS && cold.skipped === 0) });
  }
  if (options.print ?? true) printTable(rows);
  return rows;
}

function printTable(rows: readonly AnalysisBenchRow[]): void {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  console.log("\nExact rule analysis (rule-shadowed, rule-redundant, rule-partially-shadowed, runtime-divergence, subagent-escalation paths), CPU ms");
  console.log(line(["rules", "cold ms", "warm ms", "cached ms", "findings", "skipped", "200 rules < 200 ms (warm), none skipped"]));
  console.log(line(["---:", "---:", "---:", "---:", "---", "---:", "---"]));
  for (const r of rows) {
    const findings = Object.entries(r.findings).map(([code, n]) => `${code} ${n}`).join(", ");
    console.log(line([String(r.rules), r.coldMs.toFixed(0), r.warmMs.toFixed(0), r.cachedMs.toFixed(1), findings, String(r.skipped), r.rules === 200 ? (r.withinTarget ? "met" : "missed") : "—"]));
  }
}

if (process.argv[1]?.endsWith("analysis.ts")) runAnalysisBench();
