/**
 * Where does the engine's time go? Runs one of the benchmark's workloads (ours only) under V8's sampling
 * profiler and prints the functions with the most self time and the most total time.
 *
 *   node --import tsx bench/profile.ts decisions 10     # CompiledRuleList.decide, 10 rules, the bench inputs
 *   node --import tsx bench/profile.ts decisions 100
 *   node --import tsx bench/profile.ts check 1000       # checkConfigText on the 1,000-rule config
 *   node --import tsx bench/profile.ts analysis 200     # the exact rule analysis (bench/analysis.ts) after an edit
 *   node --import tsx bench/profile.ts analysis-cold 200  # … with nothing compiled yet
 *   … --no-inline                                        # V8 inlines nothing: slower, but every function keeps its own samples
 *
 * The .cpuprofile is kept (its path is printed) for Chrome DevTools › Performance › Load profile.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { checkConfigText } from "../server/src/engine/checkConfig";
import { CompiledRuleList } from "../server/src/engine/permissions/ruleList";
import { deepagentsJs } from "../server/src/engine/runtime";
import { SCHEMA_URI } from "./check";
import { generateConfigText, generateInputs, generateRules } from "./generate";
import { consume, sink } from "./measure";
import { analyse } from "./analysis";
import { clearCaches } from "../server/src/engine/caches";
import { clearAnalysisResults } from "../server/src/engine/automata/modelAnalysis";

const NO_INLINE = process.argv.includes("--no-inline");
const [what = "decisions", sizeText = "10", secondsText = "4"] = process.argv.slice(2).filter((a) => a !== "--no-inline");
const size = Number(sizeText);
const seconds = Number(secondsText);
const ROOT = join(__dirname, "..");

function workload(): void {
  const until = performance.now() + seconds * 1000;
  let units = 0;
  if (what === "decisions") {
    // The same inputs as bench/run.ts (seed 1 for the rules, seed 7 for the inputs).
    const list = new CompiledRuleList(deepagentsJs, generateRules(size, 1));
    const inputs = generateInputs(1000, 7);
    const ops = inputs.map((i) => i.op);
    const paths = inputs.map((i) => i.path);
    while (performance.now() < until) {
      let acc = 0;
      for (let i = 0; i < paths.length; i++) if (list.decide(ops[i]!, paths[i]!).decision === "deny") acc++;
      consume(acc);
      units += paths.length;
    }
  } else if (what === "check") {
    const text = generateConfigText(size, 1000 + size, SCHEMA_URI);
    while (performance.now() < until) {
      consume(checkConfigText(text).findings.length);
      units++;
    }
  } else if (what === "analysis" || what === "analysis-cold") {
    // The configs of bench/analysis.ts; results are forgotten each time (an edit), compiled patterns only when cold.
    const text = generateConfigText(size, 3, SCHEMA_URI);
    while (performance.now() < until) {
      clearAnalysisResults();
      if (what === "analysis-cold") clearCaches();
      consume(analyse(text).skipped);
      units++;
    }
  } else {
    throw new Error(`unknown workload ${what} (decisions | check | analysis | analysis-cold)`);
  }
  console.log(`${what} at ${size} rules: ${((units / seconds) | 0).toLocaleString("en")} per second under the profiler (checksum ${sink})`);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

function summarise(file: string): void {
  const profile = JSON.parse(readFileSync(file, "utf8")) as { nodes: ProfileNode[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const label = (n: ProfileNode) => {
    const { functionName, url, lineNumber } = n.callFrame;
    const path = url.replace(/^file:\/\//, "");
    // tsx compiles each TypeScript file to a few lines, so only the file is worth printing for those.
    const where = !path ? "" : path.endsWith(".ts") ? relative(ROOT, path) : `${relative(ROOT, path)}:${lineNumber + 1}`;
    return `${functionName || "(anonymous)"}${where ? `  ${where}` : ""}`;
  };
  // Only what happens inside the measured loop counts (not tsx compiling the sources at start-up).
  const roots: ProfileNode[] = [];
  const findRoots = (n: ProfileNode) => {
    if (n.callFrame.functionName === "workload" && n.callFrame.url.endsWith("bench/profile.ts")) roots.push(n);
    else for (const c of n.children ?? []) findRoots(byId.get(c)!);
  };
  findRoots(profile.nodes[0]!);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const walk = (n: ProfileNode, onStack: Set<string>): number => {
    const key = label(n);
    let hits = n.hitCount ?? 0;
    self.set(key, (self.get(key) ?? 0) + hits);
    const nested = onStack.has(key);
    onStack.add(key);
    for (const c of n.children ?? []) hits += walk(byId.get(c)!, onStack);
    if (!nested) {
      onStack.delete(key);
      total.set(key, (total.get(key) ?? 0) + hits);
    }
    return hits;
  };
  let all = 0;
  for (const r of roots) all += walk(r, new Set());
  // Garbage collection is sampled outside any JavaScript frame: count it separately.
  const gcHits = profile.nodes.filter((n) => n.callFrame.functionName === "(garbage collector)").reduce((s, n) => s + (n.hitCount ?? 0), 0);
  const show = (title: string, m: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${((100 * v) / all).toFixed(1).padStart(5)}%  ${k}`);
  };
  console.log(`\n${all} samples inside the workload (${gcHits} more in the garbage collector, ${((100 * gcHits) / (all + gcHits)).toFixed(1)}% of the total).`);
  show("Self time (share of the workload's samples; inlined callees count as their caller)", self);
  show("Total time, callees included", total);
  if (what === "check") {
    // The phases of checkConfigText, and each check's run(): which code to look at first.
    const phases = new Map<string, number>();
    for (const [k, v] of total) {
      const check = /^run {2}server\/src\/engine\/checks\/(\w+)\.ts$/.exec(k);
      if (check) phases.set(`check ${check[1]}`, v);
      else if (/^(parseJsonc|buildModel|finish|suppressedLines) /.test(k) || /^validate {2}.*schemaValidator/.test(k)) phases.set(k.split(" ")[0]!, v);
    }
    show("checkConfigText by phase and by check (callees included)", phases);
  }
  console.log(`\nProfile: ${file}`);
}

if (process.env.AGENT_SANDBOX_PROFILE_CHILD) {
  workload();
} else {
  const dir = mkdtempSync(join(tmpdir(), "agent-sandbox-profile-"));
  const r = spawnSync(process.execPath, [...(NO_INLINE ? ["--no-turbo-inlining"] : []), "--cpu-prof", "--cpu-prof-dir", dir, "--cpu-prof-interval", "100", "--import", "tsx", __filename, what, sizeText, secondsText], {
    stdio: "inherit",
    env: { ...process.env, AGENT_SANDBOX_PROFILE_CHILD: "1" },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no profile written in ${dir}`);
  summarise(join(dir, file));
}
