/**
 * Bad input for the agent sections: a subagent list with 10,000 entries, duplicate and cyclic-looking names (a
 * subagent named after the main agent, after `task`, after itself with a path in it, names referring to each other),
 * missing descriptions, `null` permissions, forks, own middleware: clear diagnostics, well under a second.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpus, loadavg } from "node:os";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { CHECKS } from "../../server/src/engine/checks";
import { buildModel } from "../../server/src/engine/config/model";
import { parseJsonc } from "../../server/src/engine/config/parse";
import type { Finding } from "../../server/src/engine/diagnostics";
import { effectiveTools } from "../../server/src/engine/agents/effectiveTools";
import { promptPreview } from "../../server/src/engine/agents/promptPreview";

const N = 10_000;

function hugeConfig(): string {
  const names = ["main", "general-purpose", "task", "a/../a", "a→b→a", "b→a→b", "", " ", "worker", "worker"];
  const subagents = Array.from({ length: N }, (_, i) => {
    const name = i < names.length ? names[i] : `agent-${i % 2500}->agent-${(i + 1) % 2500}`;
    const s: Record<string, unknown> = { name };
    if (i % 3 !== 0) s.description = `refers to agent-${(i + 7) % N}`;
    if (i % 5 === 0) s.permissions = null;
    if (i % 7 === 0) s.mode = "fork";
    if (i % 11 === 0) s.permissions = [{ operations: ["write"], paths: ["/secrets/**"], mode: "deny" }];
    if (i % 13 === 0) s.middleware = [{ type: "filesystem", tools: ["read_file", "write_file", "execute", "bogus"] }];
    if (i % 17 === 0) s.tools = ["ls", "web_search", "web_search"];
    return s;
  });
  return JSON.stringify({
    version: 1,
    backend: { type: "composite", default: { type: "sandbox" }, routes: { "/memories/": { type: "store" } } },
    permissions: [{ operations: ["read"], paths: ["/memories/**"], mode: "deny" }],
    middleware: [{ type: "filesystem", tools: ["read_file", "ls"] }],
    subagents,
  });
}

/** The checks this part of the engine adds (backends, allowlists, subagents, skills). */
const AGENT_CODES = new Set([
  "permissions-with-sandbox",
  "permissions-with-sandbox-factory",
  "permission-outside-routes",
  "route-prefix-without-slash",
  "read-file-required",
  "tool-unknown",
  "tool-unavailable",
  "tool-duplicate",
  "tool-name-collision",
  "middleware-drops-permissions",
  "middleware-drops-backend",
  "subagent-escalation",
  "subagent-permissions-null",
  "subagent-duplicate-name",
  "subagent-missing-description",
  "skill-allowed-tools-string",
  "skill-tool-unknown",
]);

/** Runs the agent checks on a model: one warm-up run, then the best of three (the machine may be busy with other work). */
function timeAgentChecks(text: string): { ms: number; findings: Finding[] } {
  const model = buildModel(parseJsonc(text).root!);
  let best = Infinity;
  let findings: Finding[] = [];
  for (let round = 0; round < 4; round++) {
    const out: Finding[] = [];
    const started = performance.now();
    for (const check of CHECKS) {
      if (!AGENT_CODES.has(check.code)) continue;
      check.run({ model, text, runtimes: [model.runtime], fileExists: () => false, readFile: () => undefined, report: (f) => out.push({ ...f, code: check.code, severity: f.severity ?? check.severity }) });
    }
    if (round > 0) best = Math.min(best, performance.now() - started);
    findings = out;
  }
  return { ms: best, findings };
}

test(`a subagent list with ${N} entries: the agent checks run in well under a second, with clear diagnostics`, () => {
  const text = hugeConfig();
  const { ms, findings } = timeAgentChecks(text);
  const count = (code: string) => findings.filter((f) => f.code === code).length;
  // One second on an idle machine; on a machine busy with other work, a second per share of a core it gets.
  const busy = Math.max(1, loadavg()[0]! / cpus().length);
  assert.ok(ms < 1000 * busy, `took ${ms.toFixed(0)} ms (load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`);
  // 9990 generated entries over 2500 distinct names (7490 repeats), and "worker" twice.
  assert.equal(count("subagent-duplicate-name"), 7491);
  // Every third subagent has no description.
  assert.equal(count("subagent-missing-description"), Math.ceil(N / 3));
  assert.ok(count("subagent-escalation") > 0);
  assert.ok(count("permissions-with-sandbox") > 0 && count("permission-outside-routes") > 0);
  assert.ok(count("tool-unknown") > 0 && count("tool-duplicate") > 0 && count("tool-name-collision") > 0);
  for (const f of findings) assert.ok(f.message.length < 2000, `${f.code}: a message of ${f.message.length} characters`);
  // The whole pipeline (parse, schema, every check) still answers, without an internal error from these checks.
  const all = checkConfigText(text).findings;
  assert.equal(all.filter((f) => f.code === "internal-error" && [...AGENT_CODES].some((c) => f.message.includes(`The ${c} check`))).length, 0);
});

test("effective tools and the prompt preview of one subagent among 10,000 are fast too", () => {
  const { model } = checkConfigText(hugeConfig());
  const started = performance.now();
  const tools = effectiveTools(model!, "a→b→a", null)!;
  const preview = promptPreview(model!, "main", null, () => undefined)!;
  const elapsed = performance.now() - started;
  assert.ok(tools.some((t) => t.visible));
  assert.equal(preview.subagents.length, N);
  assert.ok(elapsed < 500 * Math.max(1, loadavg()[0]! / cpus().length), `took ${elapsed.toFixed(0)} ms`);
});
