/**
 * Every finding of the exact rule analysis (rule-shadowed, rule-redundant, rule-partially-shadowed,
 * runtime-divergence, subagent-escalation; `--all`: every check's) on ~50 generated configs, the examples and the
 * e2e fixtures, printed in full (code, message, span, witness, related information, fixes; keys sorted) with what
 * the analysis skipped: a change meant to make the analysis faster must leave this output byte-identical.
 *
 *   node --import tsx bench/analysisDump.ts > /tmp/before.txt
 *   … change …
 *   node --import tsx bench/analysisDump.ts | diff /tmp/before.txt -
 *
 * `--only N` prints the N-th config only (to chase a difference).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { clearAnalysisResults, skippedAnalyses } from "../server/src/engine/automata/modelAnalysis";
import { checkConfigText } from "../server/src/engine/checkConfig";
import { editedText } from "./analysis";
import { generateConfigText } from "./generate";

const SCHEMA_URI = "https://agent-sandbox.dev/schemas/agent-sandbox.schema.json";

interface Case {
  name: string;
  text: string;
  /** The folder the config lives in (so the sample workspace's files become witness candidates). */
  folder?: string;
}

function cases(): Case[] {
  const out: Case[] = [];
  const sizes = [1, 2, 3, 5, 8, 10, 13, 20, 30, 50, 80, 120];
  for (const size of sizes) for (const seed of [1, 3, 7, 11]) out.push({ name: `generated ${size} rules, seed ${seed}`, text: generateConfigText(size, seed, SCHEMA_URI) });
  for (const size of [50, 200]) out.push({ name: `generated ${size} rules, seed 3`, text: generateConfigText(size, 3, SCHEMA_URI) });
  for (const n of [1, 2]) out.push({ name: `generated 200 rules, seed 3, edit ${n}`, text: editedText(generateConfigText(200, 3, SCHEMA_URI), n) });
  const root = join(import.meta.dirname, "..");
  for (const file of ["examples/research-agent/agent-sandbox.jsonc", "e2e/fixtures/ws/a/agent-sandbox.jsonc", "e2e/fixtures/ws/b/agent-sandbox.jsonc"]) {
    const path = join(root, file);
    if (existsSync(path)) out.push({ name: file, text: readFileSync(path, "utf8"), folder: dirname(path) });
  }
  return out;
}

function optionsFor(folder: string | undefined) {
  if (!folder) return { analysis: true };
  const at = (relative: string) => join(folder, relative);
  return {
    analysis: true,
    fileExists: (relative: string) => existsSync(at(relative)),
    readFile: (relative: string) => (existsSync(at(relative)) && statSync(at(relative)).isFile() ? readFileSync(at(relative), "utf8") : undefined),
    listDirectory: (relative: string) => (existsSync(at(relative)) && statSync(at(relative)).isDirectory() ? readdirSync(at(relative)) : undefined),
  };
}

/** The codes the exact analysis reports (`--all`: every finding, for a change that may touch other checks too). */
const ANALYSIS_CODES = new Set(["rule-shadowed", "rule-redundant", "rule-partially-shadowed", "runtime-divergence", "subagent-escalation"]);

/** JSON with every object's keys sorted: the output compares findings, not the order their fields were set in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

const only = process.argv.indexOf("--only");
const everything = process.argv.includes("--all");
const all = cases();
all.forEach((c, index) => {
  if (only >= 0 && Number(process.argv[only + 1]) !== index) return;
  clearAnalysisResults();
  const result = checkConfigText(c.text, optionsFor(c.folder));
  const findings = everything ? result.findings : result.findings.filter((f) => ANALYSIS_CODES.has(f.code));
  console.log(`## ${index}: ${c.name}: ${findings.length} findings`);
  for (const f of findings) console.log(canonical(f));
  const skipped = result.model ? skippedAnalyses(result.model) : [];
  for (const s of skipped) console.log(`skipped ${canonical(s)}`);
});
