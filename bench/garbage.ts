/**
 * What the garbage collector costs each side of section 2 (`check` against vscode-json-languageservice): per check,
 * wall time, process CPU time and the time V8 reports spent in collections, after a warm-up, on the benchmark's
 * config of that size. A side whose per-check data outlives young collections (say, memos in a WeakMap keyed by
 * each check's model: server/src/engine/memo.ts) shows it here as collector time far above the other side's.
 *
 *   node --import tsx bench/garbage.ts [rules] [ours|vscode]     # default: 10 rules, both sides
 */
import { PerformanceObserver, performance } from "node:perf_hooks";
import { TextDocument } from "vscode-json-languageservice";
import { checkConfigText } from "../server/src/engine/checkConfig";
import { CONFIG_URI, SCHEMA_URI, vscodeJsonService } from "./check";
import { generateConfigText } from "./generate";
import { consume } from "./measure";

const rules = Number(process.argv[2] ?? 10);
const sides = process.argv[3] ? [process.argv[3]] : ["ours", "vscode"];
const text = generateConfigText(rules, 1000 + rules, SCHEMA_URI);
const service = vscodeJsonService();

async function once(side: string): Promise<number> {
  if (side === "ours") return checkConfigText(text).findings.length;
  const document = TextDocument.create(CONFIG_URI, "jsonc", 1, text);
  const json = service.parseJSONDocument(document);
  return (await service.doValidation(document, json, { comments: "ignore", trailingCommas: "ignore" })).length;
}

async function measure(side: string): Promise<void> {
  const checks = rules >= 1000 ? 300 : 3000;
  for (let i = 0; i < checks; i++) consume(await once(side));
  let collectorMs = 0;
  let collections = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      collectorMs += entry.duration;
      collections++;
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  const wall = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < checks; i++) consume(await once(side));
  const wallMs = performance.now() - wall;
  const used = process.cpuUsage(cpu);
  // Entries are delivered asynchronously.
  await new Promise((resolve) => setTimeout(resolve, 20));
  observer.disconnect();
  const per = (ms: number) => (ms / checks).toFixed(4);
  console.log(`${side.padEnd(6)} ${rules} rules: ${per(wallMs)} ms wall, ${per((used.user + used.system) / 1000)} ms CPU, ${per(collectorMs)} ms in ${collections} collections, per check (${checks} checks)`);
}

(async () => {
  for (const side of sides) await measure(side);
})();
