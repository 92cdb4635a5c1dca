/**
 * Conformance: our agent model (effective tools, construction refusals, system message) against the real npm
 * `deepagents@1.14.1`, driven offline as spec §8 describes.
 *
 * For seeded, generated configs (backend: state, store, filesystem, sandbox instance and factory, composite with a
 * sandbox default or a sandbox route, custom backends with and without `delete`; custom filesystem middleware with
 * allowlists, own backends and permissions; user tools; declarative, forked and replacement general-purpose
 * subagents with every kind of `permissions`), each config is written as `agent-sandbox.jsonc` text for our engine
 * and translated into a real `createDeepAgent` call with stub backends and a scripted fake chat model. The model
 * records the tools bound on every call; the main agent's first turn delegates to every subagent through `task`.
 *
 * Required, with zero disagreements:
 * 1. the real library refuses the config at construction exactly when `checkConfigText` reports an error of a
 *    construction code, and the refusal's message maps to one of the codes reported;
 * 2. otherwise, for the main agent, the general-purpose subagent, the declarative `worker` and the forked `forky`,
 *    `effectiveTools(...)` visible names equal the names the real agent binds;
 * 3. and `promptPreview(...).systemMessage` equals the real system message (main, `worker`, `forky`).
 *
 * Deterministic (seed fixed unless CONFORMANCE_SEED is set; size via CONFORMANCE_AGENT_CASES). Run:
 *   node --import tsx --test test/conformance/deepagents-js.agents.test.ts
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { CompositeBackend, FilesystemBackend, StateBackend, createDeepAgent, createFilesystemMiddleware } from "deepagents";
import { createMiddleware } from "langchain";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage } from "@langchain/core/messages";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { effectiveTools } from "../../server/src/engine/agents/effectiveTools";
import { promptPreview } from "../../server/src/engine/agents/promptPreview";
import { deepagentsJs } from "../../server/src/engine/runtime/deepagentsJs";
import { CONSTRUCTION_CODES, codeOfRefusal, generateConfig, realTools, sandboxStub, ScriptedModel, storeStub, type Observed, type Obj } from "../helpers/deepagentsRuntime";
import { envInt, makeRng } from "../helpers/random";
import { scratchDir } from "../helpers/scratch";

const SEED = envInt("CONFORMANCE_SEED", 0x00a9_e175);
const CASES = envInt("CONFORMANCE_AGENT_CASES", 250);
const SHOW = 15;

// The config space (plain JSON, exactly what goes into agent-sandbox.jsonc) is test/helpers/deepagentsRuntime.ts.

// ---------------------------------------------------------------------------------------------------------
// Translation into a real createDeepAgent call
// ---------------------------------------------------------------------------------------------------------

const ROOT = scratchDir("conformance");

/** A backend as the SDK takes it; `factory` only where the SDK accepts functions (not inside a composite). */
function realBackend(spec: Obj, allowFactory: boolean): unknown {
  switch (spec.type) {
    case "state":
      return new StateBackend();
    case "store":
      return storeStub();
    case "filesystem":
      return new FilesystemBackend({ rootDir: ROOT, virtualMode: true });
    case "sandbox":
      return spec.factory === true && allowFactory ? () => sandboxStub() : sandboxStub();
    case "composite": {
      const routes: Record<string, unknown> = {};
      for (const [prefix, b] of Object.entries(spec.routes as Obj)) routes[prefix] = realBackend(b as Obj, false);
      return new CompositeBackend(realBackend(spec.default as Obj, false) as never, routes as never);
    }
    case "custom": {
      const caps = spec.capabilities as Obj;
      return caps.execute === true ? sandboxStub(`custom-${String(spec.name)}`, caps.delete === true) : storeStub(caps.delete === true);
    }
  }
  throw new Error(`unknown backend ${JSON.stringify(spec)}`);
}

function realMiddleware(list: readonly Obj[]): unknown[] {
  return list.map((m) => {
    if (m.type === "custom") return createMiddleware({ name: String(m.name) });
    const options: Record<string, unknown> = {};
    if (m.tools !== undefined) options.tools = m.tools;
    if (m.permissions !== undefined) options.permissions = m.permissions;
    if (m.backend !== undefined) options.backend = realBackend(m.backend as Obj, true);
    if (m.systemPrompt !== undefined) options.systemPrompt = m.systemPrompt;
    return createFilesystemMiddleware(options as never);
  });
}

function realParams(config: Obj, model: BaseChatModel): Record<string, unknown> {
  const params: Record<string, unknown> = { model, systemPrompt: config.systemPrompt };
  if (config.backend !== undefined) params.backend = realBackend(config.backend as Obj, true);
  if (config.permissions !== undefined) params.permissions = config.permissions;
  if (config.tools !== undefined) params.tools = realTools(config.tools as string[]);
  if (config.middleware !== undefined) params.middleware = realMiddleware(config.middleware as Obj[]);
  if (config.subagents !== undefined) {
    params.subagents = (config.subagents as Obj[]).map((s) => {
      const real: Record<string, unknown> = { name: s.name, description: s.description, systemPrompt: s.systemPrompt };
      if (s.mode !== undefined) real.mode = s.mode;
      if ("permissions" in s) real.permissions = s.permissions;
      if (s.tools !== undefined) real.tools = realTools(s.tools as string[]);
      if (s.middleware !== undefined) real.middleware = realMiddleware(s.middleware as Obj[]);
      return real;
    });
  }
  return params;
}

// ---------------------------------------------------------------------------------------------------------
// The comparison (the scripted model that records what each agent is bound is in test/helpers/deepagentsRuntime.ts)
// ---------------------------------------------------------------------------------------------------------

/** Every code this part of the engine reports (for telling our crashes from a neighbour's). */
const OUR_CODES = [
  ...CONSTRUCTION_CODES,
  "permissions-with-sandbox-factory",
  "route-prefix-without-slash",
  "tool-unknown",
  "tool-unavailable",
  "tool-duplicate",
  "middleware-drops-permissions",
  "middleware-drops-backend",
  "subagent-escalation",
  "subagent-permissions-null",
  "subagent-missing-description",
];

interface Outcome {
  refused?: string;
  observed?: Map<string, Observed>;
}

async function runReal(config: Obj): Promise<Outcome> {
  const log = new Map<string, Observed>();
  const names = new Set<string>(["general-purpose"]);
  for (const s of (config.subagents as Obj[] | undefined) ?? []) names.add(String(s.name));
  const model = new ScriptedModel(log, [...names]);
  let agent: { invoke(input: unknown): Promise<unknown> };
  try {
    agent = createDeepAgent(realParams(config, model) as never) as never;
  } catch (error) {
    return { refused: (error as Error).message };
  }
  await agent.invoke({ messages: [new HumanMessage("hi")] });
  return { observed: log };
}

test(`createDeepAgent (deepagents@1.14.1) agrees with effectiveTools, the construction checks and the prompt preview (${CASES} configs)`, async () => {
  const rng = makeRng(SEED);
  const disagreements: string[] = [];
  const covered = new Set<string>();
  const stats = { configs: 0, refused: 0, accepted: 0, agentsCompared: 0, promptsCompared: 0, byCode: new Map<string, number>() };
  for (let i = 0; i < CASES; i++) {
    const config = generateConfig(rng);
    const text = JSON.stringify(config, null, 2);
    const { findings, model } = checkConfigText(text);
    const where = `case ${i}: ${JSON.stringify(config)}`;
    // The generator only writes well-formed configs; a check of ours that crashes counts as a disagreement too.
    const shapeErrors = findings.filter((f) => f.code === "schema" || f.code === "json-syntax" || (f.code === "internal-error" && OUR_CODES.some((c) => f.message.includes(`The ${c} check`))));
    if (shapeErrors.length > 0) {
      disagreements.push(`${where}\n  the generator made an invalid config: ${shapeErrors.map((f) => `${f.code}: ${f.message}`).join(" | ")}`);
      continue;
    }
    const ours = new Set(findings.filter((f) => f.severity === "error" && CONSTRUCTION_CODES.includes(f.code)).map((f) => f.code));
    const real = await runReal(config);
    stats.configs++;
    if (real.refused !== undefined) {
      stats.refused++;
      const code = codeOfRefusal(real.refused);
      stats.byCode.set(code ?? "?", (stats.byCode.get(code ?? "?") ?? 0) + 1);
      if (!code || !ours.has(code)) disagreements.push(`${where}\n  real refuses (${real.refused}); we report ${[...ours].join(", ") || "no construction error"}`);
      continue;
    }
    stats.accepted++;
    if (ours.size > 0) {
      disagreements.push(`${where}\n  real accepts; we report ${[...ours].join(", ")}`);
      continue;
    }
    for (const [agent, seen] of real.observed!) {
      const tools = effectiveTools(model!, agent, null);
      stats.agentsCompared++;
      for (const t of tools ?? []) {
        if (t.visible && t.name === "execute") covered.add(`execute visible (${agent === "main" ? "main" : "subagent"})`);
        if (!t.visible) covered.add(`${t.name} hidden by ${t.hiddenBy}`);
      }
      covered.add(`agent ${agent}`);
      const expected = [...seen.tools].sort();
      const actual = (tools ?? []).filter((t) => t.visible).map((t) => t.name).sort();
      if (JSON.stringify(expected) !== JSON.stringify(actual)) disagreements.push(`${where}\n  ${agent}: real binds [${expected}], we say [${actual}]`);
      if (agent === "general-purpose" && !(config.subagents as Obj[] | undefined)?.some((s) => s.name === "general-purpose")) continue;
      const preview = promptPreview(model!, agent, null, () => undefined);
      stats.promptsCompared++;
      if (preview?.systemMessage !== seen.system) disagreements.push(`${where}\n  ${agent}: real system message ${JSON.stringify(seen.system)}, we say ${JSON.stringify(preview?.systemMessage)}`);
    }
    const expectedAgents = 1 + ((config.subagents as Obj[] | undefined)?.length ?? 0) + ((config.subagents as Obj[] | undefined)?.some((s) => s.name === "general-purpose") ? 0 : 1);
    if (real.observed!.size !== expectedAgents) disagreements.push(`${where}\n  only ${[...real.observed!.keys()].join(", ")} were observed`);
  }
  const codes = [...stats.byCode].map(([c, n]) => `${c} ${n}`).join(", ");
  console.log(
    `deepagents-js agents conformance: ${stats.configs} configs (${stats.accepted} accepted, ${stats.refused} refused: ${codes}); ` +
      `${stats.agentsCompared} agents' tool sets and ${stats.promptsCompared} system messages compared; ${disagreements.length} disagreements`,
  );
  console.log(`covered: ${[...covered].sort().join("; ")}`);
  assert.equal(disagreements.length, 0, `${disagreements.length} disagreements, first ${SHOW}:\n${disagreements.slice(0, SHOW).join("\n")}`);
  assert.ok(stats.accepted > CASES / 3 && stats.refused > CASES / 10, "the generator must produce both accepted and refused configs");
  for (const needed of ["agent main", "agent general-purpose", "agent worker", "agent forky", "execute visible (main)", "execute visible (subagent)", "execute hidden by backend", "delete hidden by backend", "execute hidden by allowlist", "write_file hidden by allowlist"]) {
    assert.ok(covered.has(needed), `the generated configs never covered: ${needed}`);
  }
  for (const code of ["permissions-with-sandbox", "read-file-required", "tool-name-collision"]) assert.ok(stats.byCode.has(code), `no config was refused with ${code}`);
});

test("filesystem allowlist values (§4.1) normalise exactly as the real createFilesystemMiddleware registers them", () => {
  const values: unknown[] = [
    undefined,
    null,
    "all",
    ["read_file"],
    ["grep", "read_file", "ls"],
    ["read_file", "read_file"],
    [],
    ["ls"],
    ["READ_FILE"],
    ["read_file", "bogus", "task"],
    ["execute", "read_file", "delete", "write_file"],
    "read_file",
    "ALL",
    "",
    5,
    {},
  ];
  for (const value of values) {
    let real: string;
    try {
      real = createFilesystemMiddleware({ tools: value as never }).tools!.map((t) => t.name).join(",");
    } catch (error) {
      real = `throws ${(error as Error).message}`;
    }
    const ours = deepagentsJs.normalizeFilesystemTools(value);
    const said = ours.error ? `throws ${ours.error.message.replace(/^\w*Error: /, "")}` : ours.tools.join(",");
    if (ours.error?.kind === "not-iterable") assert.match(real, /^throws .*not iterable/, `tools: ${JSON.stringify(value)}`);
    else assert.equal(said, real, `tools: ${JSON.stringify(value)}`);
  }
});

test("route scoping (§5.3 R1–R15): the real construction guard throws exactly where our predicate says a path is not scoped", () => {
  const rows: [string, Record<string, true>, string[]][] = [
    ["R1", { "/memories/": true }, ["/memories/**"]],
    ["R2", { "/memories/": true }, ["/memories"]],
    ["R3", { "/memories/": true }, ["/memories/"]],
    ["R4", { "/memories/": true }, ["/memories*"]],
    ["R5", { "/memories/": true }, ["/memoriesX/**"]],
    ["R6", { "/memories/": true }, ["/**"]],
    ["R7", { "/memories": true }, ["/memoriesX/**"]],
    ["R8", { "/memories": true }, ["/memories/**"]],
    ["R9", { "/instructions.md": true }, ["/instructions.md"]],
    ["R10", {}, ["/a/**"]],
    ["R11", { "/memories/": true, "/skills/": true }, ["/memories/**", "/skills/x"]],
    ["R12", { "/memories/": true }, ["/memories/**", "/workspace/**"]],
    ["R13", { "/memories/": true }, ["/{memories,x}/**"]],
    ["R14", { "/memories/": true }, ["/memories//**"]],
    ["R15", { "/memories/": true }, ["/memories/{a,b}/**"]],
  ];
  for (const [row, routes, paths] of rows) {
    const realRoutes = Object.fromEntries(Object.keys(routes).map((p) => [p, storeStub()]));
    let realThrows = false;
    try {
      createFilesystemMiddleware({ backend: new CompositeBackend(sandboxStub() as never, realRoutes as never) as never, permissions: [{ operations: ["read"], paths, mode: "deny" }] });
    } catch {
      realThrows = true;
    }
    const prefixes = Object.keys(routes);
    const ourScoped = prefixes.length > 0 && paths.every((p) => deepagentsJs.routeScoped(p, prefixes));
    assert.equal(!ourScoped, realThrows, `${row}: routes ${JSON.stringify(prefixes)}, paths ${JSON.stringify(paths)}`);
  }
});
