/**
 * Bad input for the agent sections: a subagent list with 10,000 entries, duplicate and cyclic-looking names (a
 * subagent named after the main agent, after `task`, after itself with a path in it, names referring to each other,
 * names that differ only in case or a trailing space), missing descriptions, `null` permissions, forks, own
 * middleware: clear diagnostics, and nothing that grows faster than the file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { CHECKS } from "../../server/src/engine/checks";
import { buildModel } from "../../server/src/engine/config/model";
import { parseJsonc } from "../../server/src/engine/config/parse";
import type { Finding } from "../../server/src/engine/diagnostics";
import { jsoncFrontEnd } from "../../server/src/engine/config/jsoncFrontEnd";
import { FixRendering } from "../../server/src/engine/fixOperations";
import { agentsOf } from "../../server/src/engine/agents/agents";
import { effectiveTools } from "../../server/src/engine/agents/effectiveTools";
import { promptPreview } from "../../server/src/engine/agents/promptPreview";

// Speed is measured by `npm run bench` (section 4, "check at scale"); a test only catches hangs and blow-ups (a
// lookup per agent that scans every agent took minutes here), with a bound that survives a loaded CI machine.
const HANG_GUARD_MS = 15_000;

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

/** Runs the agent checks on a model (elapsed wall time only for the hang guard). */
function runAgentChecks(text: string): { ms: number; findings: Finding[] } {
  const model = buildModel(parseJsonc(text).root!);
  const findings: Finding[] = [];
  const rendering = new FixRendering(jsoncFrontEnd.renderer(text));
  const started = performance.now();
  for (const check of CHECKS) {
    if (!AGENT_CODES.has(check.code)) continue;
    check.run({ model, text, runtimes: [model.runtime], fileExists: () => false, readFile: () => undefined, report: ({ fixes, ...f }) => findings.push({ ...f, code: check.code, severity: f.severity ?? check.severity, ...(fixes ? { fixes: rendering.fixes(fixes) } : {}) }) });
  }
  return { ms: performance.now() - started, findings };
}

test(`a subagent list with ${N} entries: the agent checks finish, with clear diagnostics`, () => {
  const text = hugeConfig();
  const { ms, findings } = runAgentChecks(text);
  const count = (code: string) => findings.filter((f) => f.code === code).length;
  assert.ok(ms < HANG_GUARD_MS, `took ${ms.toFixed(0)} ms`);
  // 9990 generated entries over 2500 distinct names (7490 repeats), and "worker" twice.
  assert.equal(count("subagent-duplicate-name"), 7491);
  // Every third subagent has no description.
  assert.equal(count("subagent-missing-description"), Math.ceil(N / 3));
  assert.ok(count("subagent-escalation") > 0);
  assert.ok(count("permissions-with-sandbox") > 0 && count("permission-outside-routes") > 0);
  assert.ok(count("tool-unknown") > 0 && count("tool-duplicate") > 0 && count("tool-name-collision") > 0);
  // Clear: each finding is about one entry and names it; none is a wall of text about the whole list.
  for (const f of findings) assert.ok(f.message.length < 2000, `${f.code}: a message of ${f.message.length} characters`);
  const duplicate = findings.find((f) => f.code === "subagent-duplicate-name" && f.message.includes('"worker"'))!;
  assert.equal(duplicate.message, 'Another subagent is already named "worker".');
  assert.equal(duplicate.detail, "deepagents-js 1.14.1: Error: Duplicate subagent name 'worker'; each subagent must have a unique name.");
  assert.equal(text.slice(duplicate.related![0]!.span.start, duplicate.related![0]!.span.end), '"worker"');
  assert.ok(duplicate.related![0]!.span.start < duplicate.span.start, "the related span is the first declaration");
  const missing = findings.filter((f) => f.code === "subagent-missing-description").map((f) => [f.message, f.detail]);
  assert.ok(missing.some(([message, detail]) => message === 'Subagent "main" has no description.' && detail === 'The runtime accepts it, but the task tool offers it to the model with none (deepagents-js writes "- main: undefined").'));
  // The whole pipeline (parse, schema, every check) still answers, without an internal error from these checks.
  const all = checkConfigText(text).findings;
  assert.equal(all.filter((f) => f.code === "internal-error" && [...AGENT_CODES].some((c) => f.message.includes(`The ${c} check`))).length, 0);
});

test("effective tools of every agent among 10,000 and the prompt preview finish", () => {
  const { model } = checkConfigText(hugeConfig());
  const started = performance.now();
  // What `agent-sandbox tools CONFIG` computes without --agent: every agent, one after another.
  const agents = agentsOf(model!);
  let visible = 0;
  for (const a of agents) visible += effectiveTools(model!, a.name, null)!.filter((t) => t.visible).length;
  const tools = effectiveTools(model!, "a→b→a", null)!;
  const preview = promptPreview(model!, "main", null, () => undefined)!;
  const elapsed = performance.now() - started;
  assert.ok(elapsed < HANG_GUARD_MS, `took ${elapsed.toFixed(0)} ms`);
  assert.ok(visible > agents.length);
  assert.ok(tools.some((t) => t.visible));
  // "general-purpose" is declared, so it replaces the built-in one: the catalogue is the N entries as written.
  assert.equal(preview.subagents.length, N);
  assert.ok(!agents.some((a) => a.kind === "general-purpose"));
  assert.equal(preview.subagents.filter((s) => s.name === "general-purpose").length, 1);
});

test("names that differ only in case or a trailing space are different subagents; a repeated name resolves to the first", () => {
  const names = ["a", "a ", "A", "a", "ls", "task", "read_file", "web_search"];
  const subagents: Record<string, unknown>[] = names.map((name, i) => ({ name, description: `entry ${i}`, tools: [`tool_${i}`] }));
  for (let i = subagents.length; i < N; i++) subagents.push({ name: `agent-${i}`, description: `delegates to agent-${i + 1}` });
  const text = JSON.stringify({ version: 1, tools: ["web_search"], subagents }, null, 1);
  const { findings, model } = checkConfigText(text);
  const duplicates = findings.filter((f) => f.code === "subagent-duplicate-name");
  assert.deepEqual(
    duplicates.map((f) => [f.message, f.detail]),
    [['Another subagent is already named "a".', "deepagents-js 1.14.1: Error: Duplicate subagent name 'a'; each subagent must have a unique name."]],
  );
  // A subagent named like a tool is not a tool: nothing collides (only user tools named like built-ins do).
  assert.deepEqual(findings.filter((f) => f.code === "tool-name-collision"), []);
  const userTools = (agent: string) => effectiveTools(model!, agent, null)!.filter((t) => t.kind === "user").map((t) => t.name);
  assert.deepEqual(userTools("a"), ["tool_0"], "the first \"a\", as the runtime's lookup by name finds it");
  assert.deepEqual(userTools("a "), ["tool_1"]);
  assert.deepEqual(userTools("A"), ["tool_2"]);
  assert.deepEqual(userTools("task"), ["tool_5"]);
  assert.deepEqual(userTools(`agent-${N - 1}`), ["web_search"], "no own tools: the parent's user tools");
  assert.equal(effectiveTools(model!, "a  ", null), undefined);
  assert.equal(promptPreview(model!, "b", null, () => undefined), undefined);
});
