/**
 * What the CLI's two pieces of start-up machinery are worth: the V8 flags it sets for its own process
 * (server/src/cli/v8Flags.ts) and its compile cache on Node 20 (server/src/cli/compileCache.ts). The same build,
 * `dist/cli.js`, run four ways, interleaved round by round (the order rotating), each way's CPU time (user + system
 * of the child, from wait4's rusage via /usr/bin/time, µs resolution) and wall time, medians:
 *
 * - `both`: as shipped;
 * - `no-flags`: V8's own values of the flags given on Node's command line (`--ticks-before-optimization=3 --turbofan
 *   --semi-space-growth-factor=2`), which v8Flags.ts then leaves as the user set them;
 * - `no-cache`: `NODE_DISABLE_COMPILE_CACHE=1`, which compileCache.ts obeys;
 * - `neither`.
 *
 * Each way has its own cache folder (`NODE_COMPILE_CACHE`): V8 refuses code cached under other flags, and a shared
 * folder would be rewritten by every other run. An untimed first run of each fills it, as any earlier run would.
 *
 *   node --import tsx bench/cliMachinery.ts [--runs N]
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_PATH, EXAMPLE_CONFIG } from "./cli";
import { SCHEMA_URI } from "./check";
import { generateConfigText } from "./generate";
import { median } from "./measure";

interface Way {
  readonly name: string;
  readonly nodeArgs: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

const V8_DEFAULTS = ["--ticks-before-optimization=3", "--turbofan", "--semi-space-growth-factor=2"];

function waysIn(root: string): Way[] {
  const cache = (name: string) => ({ NODE_COMPILE_CACHE: join(root, `cache-${name}`) });
  return [
    { name: "both", nodeArgs: [], env: cache("both") },
    { name: "no-flags", nodeArgs: V8_DEFAULTS, env: cache("no-flags") },
    { name: "no-cache", nodeArgs: [], env: { ...cache("no-cache"), NODE_DISABLE_COMPILE_CACHE: "1" } },
    { name: "neither", nodeArgs: V8_DEFAULTS, env: { ...cache("neither"), NODE_DISABLE_COMPILE_CACHE: "1" } },
  ];
}

/** One run: CPU ms (user + system) and wall ms of the child, and its standard output. */
function run(way: Way, args: readonly string[], cwd: string, timeFile: string): { cpuMs: number; wallMs: number; stdout: string } {
  const env: Record<string, string | undefined> = { ...process.env, ...way.env };
  delete env.NODE_OPTIONS;
  const r = spawnSync("/usr/bin/time", ["-f", "%e %U %S", "-o", timeFile, process.execPath, ...way.nodeArgs, CLI_PATH, ...args], { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${way.name}: exit ${r.status}: ${r.stderr}`);
  const [wall, user, system] = readFileSync(timeFile, "utf8").trim().split("\n").at(-1)!.split(" ").map(Number);
  return { cpuMs: (user! + system!) * 1000, wallMs: wall! * 1000, stdout: r.stdout };
}

function main(): void {
  const argv = process.argv.slice(2);
  const runs = Number(argv[argv.indexOf("--runs") + 1] ?? 0) || 11;
  const root = mkdtempSync(join(tmpdir(), "agent-sandbox-machinery-"));
  try {
    const timeFile = join(root, "time.txt");
    const file = (rules: number) => {
      const path = join(root, `rules-${rules}.jsonc`);
      writeFileSync(path, generateConfigText(rules, 1000 + rules, SCHEMA_URI));
      return path;
    };
    mkdirSync(join(root, "sample-workspace"));
    const commands = [
      { name: "example, with the analysis (start-up)", args: ["check", EXAMPLE_CONFIG, "--format", "json"] },
      { name: "1,000 rules, --no-analysis", args: ["check", file(1000), "--format", "json", "--no-analysis"] },
      { name: "200 rules, with the analysis", args: ["check", file(200), "--format", "json"] },
    ];
    const ways = waysIn(root);
    console.log(`load average at start: ${loadavg().map((l) => l.toFixed(1)).join(" ")}; ${runs} rounds; node ${process.version}`);
    for (const command of commands) {
      const outputs = ways.map((way) => run(way, command.args, root, timeFile).stdout);
      if (outputs.some((o) => o !== outputs[0])) throw new Error(`${command.name}: the ways' outputs differ`);
      const cpu = ways.map(() => [] as number[]);
      const wall = ways.map(() => [] as number[]);
      for (let round = 0; round < runs; round++) {
        for (let i = 0; i < ways.length; i++) {
          const k = (i + round) % ways.length;
          const r = run(ways[k]!, command.args, root, timeFile);
          cpu[k]!.push(r.cpuMs);
          wall[k]!.push(r.wallMs);
        }
      }
      console.log(`${command.name}:`);
      ways.forEach((way, k) => {
        const lessThanBoth = cpu[k]!.filter((c, round) => c < cpu[0]![round]!).length;
        console.log(
          `  ${way.name.padEnd(9)} CPU ${median(cpu[k]!).toFixed(0).padStart(5)} ms (×${(median(cpu[k]!) / median(cpu[0]!)).toFixed(2)} of both; less CPU than both in ${lessThanBoth} of ${runs})  wall ${median(wall[k]!).toFixed(0).padStart(5)} ms`,
        );
      });
    }
    console.log(`load average at end: ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main();
