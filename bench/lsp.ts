/**
 * The editor's figures (issue 4), for `npm run bench` (bench/run.ts calls `runLspBench()`), measured against the
 * real bundled server over LSP:
 *
 * - didChange → diagnostics for configs of 10, 100 and 1,000 rules, with the exact rule analysis on (the editor's
 *   default), beside the engine's own check time without and with the analysis. The server answers in two phases
 *   (server/src/lsp/exactPhase.ts): every other check at once, then the analysis's findings from a worker thread.
 *   Pushed, first phase: from the didChange to the first publishDiagnostics of that version, minus the server's
 *   debounce (the issue's "within 50 ms of the debounce"); pushed, complete: to the didCheck notification that says
 *   the analysis of that version is done (the server sends it once the complete set is pushed), minus the debounce;
 *   pulled: didChange + textDocument/diagnostic round trip (what VS Code does; the first phase's answer). Each round
 *   starts when the previous one is complete (when the complete set is quick enough to wait for); the server's
 *   request thread's CPU time per edit is reported beside them (Linux);
 * - hover latency on a rule, a path pattern and an agent name of the largest config run through the server
 *   (sample workspace present);
 * - extension activation: loading the shipped client bundle and running `activate()` in a fresh Node process,
 *   with a stand-in for the `vscode` module whose every member is a no-op (so the figure is our bundle's own
 *   cost; the e2e run in a real VS Code reports the activation time it saw too); and, reported apart, loading
 *   the language client, which the extension does on the next turn of the event loop after activate returns;
 * - bundle sizes: every .js file of a fresh `node build.mjs` (minified, what `npm run build` makes and the .vsix
 *   ships; build.mjs says which bundle holds what).
 *
 * Targets (issue 4): 1,000-rule diagnostics within 50 ms of the debounce, hover within 20 ms, activation under
 * 50 ms, all shipped bundles together under 2 MB. `node --import tsx bench/lsp.ts` runs it alone.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Hover } from "vscode-languageserver-protocol/node";
import { relativeAccess } from "../server/src/host/files";
import { checkConfigText } from "../server/src/engine/checkConfig";
import { LspTestClient, ROOT } from "../test/lsp/lspClient";
import { generateConfigText } from "./generate";

export interface LspBenchResult {
  /** The server's debounce for pushed diagnostics, in ms. */
  debounceMs: number;
  /**
   * Per size: the engine's own check of the same text in this process (`engineMs`), and what the editor waits:
   * pushed diagnostics above the debounce, and a pull round trip. The difference is the server's share (transport,
   * document state, conversion). A size whose engine check alone takes longer than SLOW_CHECK_MS is not run
   * through the server (`skipped` says why).
   */
  diagnostics: {
    rules: number;
    bytes: number;
    /** The engine's check without the exact analysis (the first phase's work) and with it (the complete set's). */
    engineFirstMs: number;
    engineMs: number;
    pushAboveDebounceMs: number;
    /**
     * The first edit after opening the file (the median's first round): the server has checked this text once and
     * the worker has just finished its cold analysis, so the engine's caches hold one run's worth.
     */
    firstEditAboveDebounceMs: number;
    /** NaN when the second phase was too slow to wait for in every round (then only `coldCompleteMs` says). */
    completeAboveDebounceMs: number;
    /** From opening the file in a fresh server to its complete set (worker start, nothing compiled yet). */
    coldCompleteMs: number;
    pullMs: number;
    /**
     * CPU time of the server's request thread per edit of the push rounds (Linux: /proc, 10 ms ticks summed over
     * every round; NaN elsewhere): the first phase, plus whatever the thread does for the complete set. Unlike the
     * wall-clock figures, it does not count the time spent waiting for a core (it still moves by some 20-40 % with
     * the load: shared caches, a sibling hyperthread), so it tells a slower server from a busier machine.
     */
    serverCpuPerEditMs: number;
    skipped?: string;
  }[];
  /** The size the hover figures were taken on. */
  hoverRules: number;
  hoverMs: { rule: number; pattern: number; agent: number };
  /** `load` + `activate` = activation; `session`: loading and starting the language client after activate returned. */
  activationMs: { load: number; activate: number; total: number; session: number };
  bundles: { shipped: Record<string, number>; shippedTotal: number };
  targets: { what: string; measured: string; pass: boolean }[];
}

const DEBOUNCE_MS = 100;
const RULE_COUNTS = [10, 100, 1000];
/** Beyond this, the editor figure is the engine's figure; rounds through the server would only take minutes. */
const SLOW_CHECK_MS = 5000;
/** A second phase slower than this (cold) is reported once and not waited for in every round. */
const COMPLETE_ROUNDS_MS = 8000;

/** User + system CPU time of a process's main thread (the server's request thread), in ms; NaN without /proc. */
export function threadCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}
/** `getconf CLK_TCK`: 100 on every Linux Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export async function runLspBench(options: { quick?: boolean } = {}): Promise<LspBenchResult> {
  const rounds = options.quick ? 5 : 21;
  const work = mkdtempSync(join(tmpdir(), "agent-sandbox-lsp-bench-"));
  try {
    cpSync(join(ROOT, "examples", "research-agent", "sample-workspace"), join(work, "sample"), { recursive: true });
    const client = await LspTestClient.start({ pull: false, initializationOptions: { debounceMs: DEBOUNCE_MS } });
    const pullClient = await LspTestClient.start({ pull: true });
    const diagnostics: LspBenchResult["diagnostics"] = [];
    let hoverMs: LspBenchResult["hoverMs"] = { rule: NaN, pattern: NaN, agent: NaN };
    let hoverRules = 0;
    let hoverUri: string | undefined;
    for (const rules of RULE_COUNTS) {
      const text = generateConfigText(rules, 42, "../schemas/agent-sandbox.schema.json").replace(
        '"name": "research-agent",',
        '"name": "research-agent",\n  "workspace": { "root": "./sample", "mountAt": "/workspace" },',
      );
      const path = join(work, `bench-${rules}.agent-sandbox.jsonc`);
      writeFileSync(path, text);
      const uri = pathToFileURL(path).href;

      // The engine alone, in this process, on the same text with the same file access: without the exact analysis
      // (the server's first phase) and with it (`agentSandbox.ruleAnalysis`, the editor's default: the complete set).
      const engineTime = (analysis: boolean) => {
        const options = { ...relativeAccess(path), analysis };
        checkConfigText(text, options); // warm-up: the first check compiles the engine's code
        const xs: number[] = [];
        for (let i = 0; i < 3; i++) {
          const t0 = performance.now();
          checkConfigText(text, options);
          xs.push(performance.now() - t0);
          if (xs[0]! > SLOW_CHECK_MS) break;
        }
        return median(xs);
      };
      const engineFirstMs = engineTime(false);
      const engineMs = engineTime(true);
      if (engineMs > SLOW_CHECK_MS) {
        const skipped = `the engine's check with the analysis alone takes ${(engineMs / 1000).toFixed(1)} s`;
        diagnostics.push({ rules, bytes: text.length, engineFirstMs, engineMs, pushAboveDebounceMs: NaN, firstEditAboveDebounceMs: NaN, completeAboveDebounceMs: NaN, coldCompleteMs: NaN, pullMs: NaN, serverCpuPerEditMs: NaN, skipped });
        break;
      }
      const wait = Math.max(120_000, engineMs * 30);
      const done = (c: LspTestClient, version: number) => c.waitForCheck((p) => p.uri === uri && p.version === version && p.analysis === "done", wait);

      // Pushed: didChange → the first publishDiagnostics of that version (first phase), → its analysis done.
      await client.open(uri, text);
      // The first check in a fresh server is cold (the engine's code is compiled on first use; the worker starts).
      const opened = performance.now();
      await done(client, 1);
      const coldCompleteMs = performance.now() - opened;
      // A second phase too slow to wait for in every round is reported once, cold, and not waited for: the rounds
      // then measure the first phase while the worker is still busy with the analysis, as an editor would.
      const waitForComplete = coldCompleteMs <= COMPLETE_ROUNDS_MS;
      // Enough rounds for a median, within about 15 s per size: rounds run until the budget is spent (at least 3).
      // The count is not predicted from the cold open: at 1,000 rules that took some 7 s against about 1 s for a
      // warm round, which left 3 rounds, two of them the first edits after the open (2-4× slower than later ones),
      // so the "median" was a cold round's figure.
      const started = performance.now();
      const push: number[] = [];
      const complete: number[] = [];
      const cpuBefore = threadCpuMs(client.process.pid);
      for (let i = 0; i < rounds && (i < 3 || performance.now() - started < 15_000); i++) {
        const doc = client.document(uri);
        const at = doc.getText().indexOf('"/', doc.getText().indexOf('"permissions"')) + 1;
        const expected = doc.version + 1; // (the mirror document is updated in place by the change)
        const published = client.waitForPublish(uri, (p) => p.version === expected, wait);
        const analysed = waitForComplete ? done(client, expected) : undefined;
        const t0 = performance.now();
        await client.change(uri, [{ range: { start: doc.positionAt(at), end: doc.positionAt(at) }, text: "x" }]);
        await published;
        push.push(performance.now() - t0 - DEBOUNCE_MS);
        if (analysed) {
          await analysed;
          complete.push(performance.now() - t0 - DEBOUNCE_MS);
        }
        // Undo, so that every round checks the same text; with the complete figure, the next round starts when
        // this one's analysis is done.
        const undone = waitForComplete ? done(client, expected + 1) : client.waitForPublish(uri, (p) => p.version === expected + 1, wait);
        await client.change(uri, [{ range: { start: doc.positionAt(at), end: doc.positionAt(at + 1) }, text: "" }]);
        await undone;
      }

      const n = push.length;
      const serverCpuPerEditMs = (threadCpuMs(client.process.pid) - cpuBefore) / (2 * n);

      // The push server's worker may still be analysing; it must not share the cores with what follows.
      await done(client, client.document(uri).version);

      // Pulled: didChange, then textDocument/diagnostic, as VS Code does (it pulls again on the refresh that
      // follows the second phase; that is the complete figure above).
      await pullClient.open(uri, text);
      await pullClient.pullCompleteDiagnostics(uri, wait);
      const pull: number[] = [];
      for (let i = 0; i < n; i++) {
        const doc = pullClient.document(uri);
        const at = doc.getText().indexOf('"/', doc.getText().indexOf('"permissions"')) + 1;
        const t0 = performance.now();
        await pullClient.change(uri, [{ range: { start: doc.positionAt(at), end: doc.positionAt(at) }, text: "x" }]);
        await pullClient.pullDiagnostics(uri);
        pull.push(performance.now() - t0);
        await pullClient.change(uri, [{ range: { start: doc.positionAt(at), end: doc.positionAt(at + 1) }, text: "" }]);
        if (waitForComplete) await pullClient.pullCompleteDiagnostics(uri, wait);
      }
      diagnostics.push({
        rules,
        bytes: text.length,
        engineFirstMs,
        engineMs,
        pushAboveDebounceMs: median(push),
        firstEditAboveDebounceMs: push[0]!,
        completeAboveDebounceMs: waitForComplete ? median(complete) : NaN,
        coldCompleteMs,
        pullMs: median(pull),
        serverCpuPerEditMs,
      });
      hoverRules = rules;
      hoverUri = uri;
    }
    // Hovers on the largest config that went through the server, once its analysis is done (the worker thread
    // would otherwise share the machine's cores with the hovers).
    if (hoverUri) {
      const uri = hoverUri;
      {
        await pullClient.pullCompleteDiagnostics(uri, 300_000);
        const doc = pullClient.document(uri);
        const t = doc.getText();
        const positions = {
          rule: doc.positionAt(t.indexOf('"operations"', t.indexOf('"permissions"')) + 3),
          pattern: doc.positionAt(t.indexOf('"/', t.indexOf('"permissions"')) + 3),
          agent: doc.positionAt(t.indexOf('"research-agent"') + 3),
        };
        const timeHover = async (position: (typeof positions)["rule"]) => {
          const xs: number[] = [];
          for (let i = 0; i < rounds; i++) {
            const t0 = performance.now();
            const hover = await pullClient.request<Hover | null>("textDocument/hover", { textDocument: { uri }, position });
            xs.push(performance.now() - t0);
            if (!hover) throw new Error("no hover");
          }
          return median(xs);
        };
        // The first hover on a rule lists the sample workspace once; later ones reuse it.
        await timeHover(positions.rule);
        hoverMs = { rule: await timeHover(positions.rule), pattern: await timeHover(positions.pattern), agent: await timeHover(positions.agent) };
      }
    }
    const failures = [...client.failures, ...pullClient.failures];
    await client.stop();
    await pullClient.stop();
    if (failures.length) throw new Error(`requests failed: ${JSON.stringify(failures)}`);

    const bundles = measureBundles(work);
    const activationMs = measureActivation(join(work, "shipped", "client.js"), options.quick ? 3 : 9);
    const largest = diagnostics.find((d) => d.rules === 1000);
    const worstHover = Math.max(hoverMs.rule, hoverMs.pattern, hoverMs.agent);
    const targets = [
      {
        what: "diagnostics, 1,000 rules, above the debounce (first phase: every check but the exact analysis)",
        measured: !largest ? "not reached" : largest.skipped ? `not run through the server: ${largest.skipped}` : `${largest.pushAboveDebounceMs.toFixed(1)} ms`,
        pass: !!largest && !largest.skipped && largest.pushAboveDebounceMs <= 50,
      },
      { what: `hover (rule, pattern, agent; worst; ${hoverRules} rules)`, measured: `${worstHover.toFixed(1)} ms`, pass: worstHover <= 20 },
      { what: "extension activation (load + activate())", measured: `${activationMs.total.toFixed(1)} ms`, pass: activationMs.total < 50 },
      { what: "shipped bundles together", measured: `${(bundles.shippedTotal / 1024 / 1024).toFixed(2)} MB`, pass: bundles.shippedTotal < 2 * 1024 * 1024 },
    ];
    return { debounceMs: DEBOUNCE_MS, diagnostics, hoverRules, hoverMs, activationMs, bundles, targets };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}


/** Loads the shipped client bundle and runs `activate()` in fresh processes, with a stand-in `vscode` module. */
export function measureActivation(clientBundle: string, runs: number): LspBenchResult["activationMs"] {
  // The stand-in module has every top-level name of the VS Code API (from @types/vscode); each is a callable,
  // constructible no-op whose members are no-ops too.
  const api = readFileSync(join(ROOT, "node_modules", "@types", "vscode", "index.d.ts"), "utf8");
  const names = [...new Set([...api.matchAll(/^\s*export (?:declare )?(?:class|namespace|enum|function|const|let|var|interface|type) (\w+)/gm)].map((m) => m[1]!))];
  const script = `
const Module = require("module");
const noop = new Proxy(function () {}, {
  get: (t, p) => (p === "then" ? undefined : p === Symbol.toPrimitive ? () => "" : noop),
  apply: () => noop,
  construct: () => noop,
  set: () => true,
});
const vscode = {};
for (const name of ${JSON.stringify(names)}) vscode[name] = noop;
vscode.version = "1.139.1"; // vscode-languageclient checks it against its engines.vscode
const original = Module._load;
Module._load = function (request, ...rest) { return request === "vscode" ? vscode : original.call(this, request, ...rest); };
// The process exits as soon as the session is loaded; whatever its start() began ends with it.
const context = { subscriptions: [], workspaceState: { get: () => undefined, update: () => Promise.resolve() }, asAbsolutePath: (p) => require("path").join(${JSON.stringify(ROOT)}, p), extensionPath: ${JSON.stringify(ROOT)} };
const t0 = performance.now();
const extension = require(${JSON.stringify(clientBundle)});
const t1 = performance.now();
const result = extension.activate(context);
const t2 = performance.now();
// The language client starts only when something needs it (a config in the workspace, a command): start it as a
// command does. The session (vscode-languageclient) loads on the turn after; this runs after it.
Promise.resolve(result.start ? result.start() : result.ready).catch(() => {});
setImmediate(() => setImmediate(() => {
  const t3 = performance.now();
  process.stdout.write(JSON.stringify({ load: t1 - t0, activate: t2 - t1, session: t3 - t2 }));
  process.exit(0);
}));
`;
  const load: number[] = [];
  const activate: number[] = [];
  const session: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
    if (out.status !== 0 || !out.stdout) throw new Error(`activation run failed (exit ${out.status}): ${out.stderr}`);
    const r = JSON.parse(out.stdout) as { load: number; activate: number; session: number };
    load.push(r.load);
    activate.push(r.activate);
    session.push(r.session);
  }
  const total = load.map((l, i) => l + activate[i]!);
  return { load: median(load), activate: median(activate), total: median(total), session: median(session) };
}

function sizes(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".js")).sort()) out[name] = statSync(join(dir, name)).size;
  return out;
}

/** A fresh build (what `npm run build` makes and the .vsix ships: minified) in the work folder. */
function measureBundles(work: string): LspBenchResult["bundles"] {
  const shippedDir = join(work, "shipped");
  execFileSync(process.execPath, [join(ROOT, "build.mjs"), `--outdir=${shippedDir}`], { cwd: ROOT, stdio: "pipe" });
  const shipped = sizes(shippedDir);
  return { shipped, shippedTotal: Object.values(shipped).reduce((a, b) => a + b, 0) };
}

export function formatLspBench(r: LspBenchResult): string {
  const lines: string[] = [];
  const ms = (x: number) => (Number.isNaN(x) ? "n/a" : `${x.toFixed(1)} ms`);
  lines.push("  Language server (dist/server.js over LSP), exact rule analysis on (the editor's default), medians");
  const head = ["rules", "size", "engine: first phase", "engine: with analysis (warm)", `push, first phase (−${r.debounceMs} ms debounce)`, `push, complete (−${r.debounceMs} ms)`, "pull, first phase", "server CPU per edit"];
  const rows = r.diagnostics.map((d) => [
    String(d.rules),
    `${(d.bytes / 1024).toFixed(0)} KB`,
    ms(d.engineFirstMs),
    ms(d.engineMs),
    ...(d.skipped
      ? [`not run through the server: ${d.skipped}`, "", "", ""]
      : [ms(d.pushAboveDebounceMs), Number.isNaN(d.completeAboveDebounceMs) ? `${ms(d.coldCompleteMs)} (once, cold)` : ms(d.completeAboveDebounceMs), ms(d.pullMs), ms(d.serverCpuPerEditMs)]),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  for (const row of [head, ...rows]) lines.push(`  ${row.map((c, i) => c.padStart(widths[i]!)).join("   ")}`);
  lines.push("  (first phase: every check but the exact rule analysis, answered at once; complete: the analysis's findings too,");
  lines.push("   from the server's worker thread, pushed again / announced to pull clients by workspace/diagnostic/refresh;");
  lines.push("   the engine's figures are warm, in this process, with the analysis's caches as a re-check of the same text leaves them;");
  lines.push("   server CPU per edit: the request thread's CPU time per edit of the push rounds, without the waits for a core)");
  const cold = r.diagnostics.filter((d) => !d.skipped).map((d) => `${d.rules} rules ${ms(d.coldCompleteMs)}`);
  if (cold.length) lines.push(`  complete set in a fresh server (worker starting, nothing compiled yet), from didOpen: ${cold.join(" · ")}`);
  const first = r.diagnostics.filter((d) => !d.skipped).map((d) => `${d.rules} rules ${ms(d.firstEditAboveDebounceMs)}`);
  if (first.length) lines.push(`  push, first phase, the first edit after opening (in the median above): ${first.join(" · ")}`);
  lines.push(`  hover (${r.hoverRules} rules): rule ${r.hoverMs.rule.toFixed(1)} ms · pattern ${r.hoverMs.pattern.toFixed(1)} ms · agent ${r.hoverMs.agent.toFixed(1)} ms`);
  lines.push(
    `  activation: load ${r.activationMs.load.toFixed(1)} ms + activate() ${r.activationMs.activate.toFixed(1)} ms = ${r.activationMs.total.toFixed(1)} ms; ` +
      `then, after activate returned, loading the language client ${r.activationMs.session.toFixed(1)} ms`,
  );
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  lines.push(`  bundles (minified, as shipped): ${Object.entries(r.bundles.shipped).map(([n, s]) => `${n} ${kb(s)}`).join(" · ")} = ${kb(r.bundles.shippedTotal)}`);
  for (const t of r.targets) lines.push(`  ${t.pass ? "✓" : "✗"} ${t.what}: ${t.measured}`);
  return lines.join("\n");
}

// Run alone (`node --import tsx bench/lsp.ts`), not when bundled into the whole benchmark (bench/build.mjs).
if (process.argv[1]?.endsWith("lsp.ts")) {
  runLspBench({ quick: process.argv.includes("--quick") }).then(
    (r) => {
      console.log(formatLspBench(r));
      if (process.argv.includes("--json")) console.log(JSON.stringify(r, null, 2));
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
