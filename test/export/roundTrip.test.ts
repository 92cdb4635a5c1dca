/**
 * Round trip of `export --to ts` through the real runtime: for every example config, a few configs whose mistakes
 * the runtime takes as given, and the seeded generated configs the agents conformance suite uses, the exported
 * module is transpiled (esbuild), written to a scratch folder, loaded, and its `createAgent` called with the
 * scripted fake model and stub parts (tools, sandbox, custom backends and middleware). Required, with zero
 * disagreements:
 * 1. the real `deepagents@1.14.1` refuses the exported code exactly when the engine reports an error of a
 *    construction code on the config, and the refusal's message stands for one of the codes reported;
 * 2. otherwise every agent (main, general-purpose, each subagent) is bound exactly the tools `effectiveTools`
 *    says are visible without a DeerFlow policy (the exported code has no `authorization`: deepagents has no roles),
 * 3. and, for the generated configs, gets exactly the system message of the engine's prompt preview;
 * 4. and the main agent's reads of a few paths are denied exactly where the engine's `explain` says deny.
 *
 * Size via EXPORT_ROUND_TRIP_CASES (default 300), seed via EXPORT_ROUND_TRIP_SEED.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { transformSync } from "esbuild";
import { createMiddleware } from "langchain";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { effectiveToolsOf } from "../../server/src/engine/agents/effectiveTools";
import { findAgent, agentsOf } from "../../server/src/engine/agents/agents";
import type { ConfigModel } from "../../server/src/engine/config/model";
import { exportConfig } from "../../server/src/engine/export/exportConfig";
import { promptPreview } from "../../server/src/engine/agents/promptPreview";
import { explainDecision } from "../../server/src/engine/explain";
import { CONSTRUCTION_CODES, PATH_CODES, codeOfRefusal, generateConfig, generatedAgentOf, realTools, sandboxStub, ScriptedModel, storeStub, textOf, type AgentOfSystemMessage, type Observed } from "../helpers/deepagentsRuntime";
import { envInt, makeRng } from "../helpers/random";
import { scratchDir } from "../helpers/scratch";

const CASES = envInt("EXPORT_ROUND_TRIP_CASES", 300);
const SEED = envInt("EXPORT_ROUND_TRIP_SEED", 0x0e_c5_0a7);
const SHOW = 10;
const REFUSAL_CODES = [...CONSTRUCTION_CODES, ...PATH_CODES];
const REPO = resolve(__dirname, "../..");

// The exported module imports `deepagents`: the scratch folder resolves it from the repository's node_modules.
const SCRATCH = scratchDir("export");
symlinkSync(join(REPO, "node_modules"), join(SCRATCH, "node_modules"), "dir");
let written = 0;

/** The exported module, loaded as the application would load it (CommonJS, like this test, so one deepagents). */
function load(source: string): { createAgent: (model: unknown, parts?: unknown) => { invoke(input: unknown): Promise<unknown> } } {
  const { code } = transformSync(source, { loader: "ts", format: "cjs", target: "node20" });
  const file = join(SCRATCH, `agent-${written++}.cjs`);
  writeFileSync(file, code);
  return require(file);
}

/** What the application supplies: stubs that have exactly the capabilities the config declares. */
function partsFor(source: string) {
  const toolNames = [...source.matchAll(/parts\.tools(?:\.(\w+)|\[("(?:[^"\\]|\\.)*")\])/g)].map((m) => m[1] ?? (JSON.parse(m[2]!) as string));
  const middlewareNames = [...source.matchAll(/parts\.middleware(?:\.(\w+)|\[("(?:[^"\\]|\\.)*")\])/g)].map((m) => m[1] ?? (JSON.parse(m[2]!) as string));
  return {
    tools: Object.fromEntries(realTools([...new Set(toolNames)]).map((t) => [t.name, t])),
    sandbox: () => sandboxStub(),
    backend: (name: string | null, capabilities: { execute: boolean; delete: boolean }) => (capabilities.execute ? sandboxStub(`custom-${name}`, capabilities.delete) : storeStub(capabilities.delete)),
    middleware: Object.fromEntries([...new Set(middlewareNames)].map((name) => [name, createMiddleware({ name })])),
  };
}

/**
 * Reads the main agent asks for in its first turn, beside its `task` calls: whether the real agent denies them is
 * compared with the engine's decision, so that the exported rules are the config's, not only the tools. Reads only:
 * a write allowed on a filesystem backend would reach the disk.
 */
const PROBES = ["/secrets/x", "/memories", "/memories/private/x", "/skills/x", "/workspace/a"];
/** How many probe answers were compared, and how many of them the real agent denied. */
const probed = { compared: 0, denied: 0 };

/** The scripted model, whose main agent also reads each probe path when it has `read_file`, recording the answers. */
class ProbingModel extends ScriptedModel {
  constructor(
    log: Map<string, Observed>,
    delegateTo: readonly string[],
    bound: string[],
    agentOf: AgentOfSystemMessage,
    readonly answers: Map<string, string>,
  ) {
    super(log, delegateTo, bound, agentOf);
  }
  override bindTools(tools: { name?: string }[]): ProbingModel {
    return new ProbingModel(this.log, this.delegateTo, tools.map((t) => String(t.name)), this.agentOf, this.answers);
  }
  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const system = messages.find((m) => SystemMessage.isInstance(m));
    const text = system ? textOf(system.content) : "";
    if (this.agentOf(text) !== "main" || !this.bound.includes("read_file")) return super._generate(messages);
    if (!this.log.has("main")) this.log.set("main", { tools: this.bound, system: text });
    const answered = messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
    if (answered.length === 0) {
      const calls = [
        ...this.delegateTo.map((name, i) => ({ id: `call-${i}`, name: "task", args: { description: "go", subagent_type: name } })),
        ...PROBES.map((path, i) => ({ id: `probe-${i}`, name: "read_file", args: { file_path: path } })),
      ];
      return { generations: [{ text: "", message: new AIMessage({ content: "", tool_calls: calls }) }] };
    }
    for (const m of answered) if (m.tool_call_id.startsWith("probe-")) this.answers.set(PROBES[Number(m.tool_call_id.slice(6))]!, textOf(m.content));
    return { generations: [{ text: "", message: new AIMessage("done") }] };
  }
}

interface Case {
  name: string;
  text: string;
  readFile?: (path: string) => string | undefined;
  /** Which agent a system message is, for configs whose prompts are not the generator's. */
  agentOf?: AgentOfSystemMessage;
  /** Also require each agent's system message to be the prompt preview's (the generated configs). */
  comparePrompts?: boolean;
}

/** Tells agents apart by the start of their own prompt, the longest that matches first. */
function agentOfPrompts(model: ConfigModel, mainPrompt: string): AgentOfSystemMessage {
  const prompts: [string, string][] = [[mainPrompt, "main"]];
  for (const s of model.subagents) if (s.name !== undefined && s.systemPrompt) prompts.push([s.systemPrompt.value, s.name]);
  prompts.sort((a, b) => b[0].length - a[0].length);
  return (text) => prompts.find(([prompt]) => prompt !== "" && text.startsWith(prompt))?.[1] ?? "general-purpose";
}

async function roundTrip(c: Case): Promise<string[]> {
  const { findings, model } = checkConfigText(c.text);
  if (!model) return [`${c.name}: the engine builds no model`];
  const source = exportConfig(model, { to: "ts", readFile: c.readFile });
  const ours = new Set(findings.filter((f) => f.severity === "error" && REFUSAL_CODES.includes(f.code)).map((f) => f.code));
  const log = new Map<string, Observed>();
  const agents = agentsOf(model).map((a) => a.name);
  const answers = new Map<string, string>();
  const fake = new ProbingModel(log, agents.filter((a) => a !== "main"), [], c.agentOf ?? generatedAgentOf, answers);
  let agent: { invoke(input: unknown): Promise<unknown> };
  try {
    agent = load(source).createAgent(fake, partsFor(source));
  } catch (error) {
    const message = (error as Error).message;
    const code = codeOfRefusal(message);
    return code && ours.has(code) ? [] : [`${c.name}: the exported code is refused (${message}); the engine reports ${[...ours].join(", ") || "no construction error"}\n${source}`];
  }
  if (ours.size > 0) return [`${c.name}: the exported code is accepted; the engine reports ${[...ours].join(", ")}\n${source}`];
  await agent.invoke({ messages: [new HumanMessage("hi")] });
  const problems: string[] = [];
  for (const name of new Set(agents)) {
    const seen = log.get(name);
    if (!seen) {
      problems.push(`${c.name}: agent ${name} was never called`);
      continue;
    }
    const bound = [...seen.tools].sort();
    // No role and no DeerFlow policy: the exported code has no `authorization` (deepagents has no roles).
    const predicted = effectiveToolsOf(model, findAgent(model, name)!, null, {}, null).filter((t) => t.visible).map((t) => t.name).sort();
    if (JSON.stringify(bound) !== JSON.stringify(predicted)) problems.push(`${c.name}: ${name} is bound [${bound}], the engine says [${predicted}]\n${source}`);
    // The built-in general-purpose subagent's prompt is the runtime's own text, which the preview does not repeat.
    if (!c.comparePrompts || (name === "general-purpose" && !model.subagents.some((s) => s.name === name))) continue;
    const preview = promptPreview(model, name, null, () => undefined)?.systemMessage;
    if (preview !== seen.system) problems.push(`${c.name}: ${name}'s system message is ${JSON.stringify(seen.system)}, the engine's preview ${JSON.stringify(preview)}\n${source}`);
  }
  for (const [path, answer] of answers) {
    const explained = explainDecision(model, "main", "read", path);
    const engineDenies = explained.ok && explained.explanation.decision === "deny";
    const realDenies = answer.includes("permission denied for read");
    probed.compared++;
    if (realDenies) probed.denied++;
    if (engineDenies !== realDenies) problems.push(`${c.name}: the main agent's read of ${path} answers ${JSON.stringify(answer.slice(0, 200))}; the engine decides ${explained.ok ? explained.explanation.decision : explained.error}\n${source}`);
  }
  if (log.get("main")?.tools.includes("read_file") && answers.size !== PROBES.length) problems.push(`${c.name}: only ${answers.size} of the main agent's reads were answered`);
  return problems;
}

function exampleConfigs(): Case[] {
  const cases: Case[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/(^|\.)agent-sandbox\.jsonc?$/.test(entry)) {
        const text = readFileSync(path, "utf8");
        const readFile = (p: string) => {
          try {
            return readFileSync(resolve(dirname(path), p), "utf8");
          } catch {
            return undefined;
          }
        };
        const model = checkConfigText(text).model!;
        const mainPrompt = model.systemPrompt?.value ?? (model.systemPromptFile ? readFile(model.systemPromptFile.value) : undefined) ?? "";
        cases.push({ name: path.slice(REPO.length + 1), text, readFile, agentOf: agentOfPrompts(model, mainPrompt) });
      }
    }
  };
  walk(join(REPO, "examples"));
  return cases;
}

/** Mistakes the runtime takes as given: the exported code keeps them, so it behaves as the config says. */
const AS_WRITTEN: Case[] = [
  { operations: "read", paths: ["/secrets/**"], mode: "deny" },
  { operations: ["read"], paths: ["/secrets/**"], mdoe: "deny" },
  { operations: ["read"], paths: ["relative/x"], mode: "deny" },
].map((rule, i) => ({
  name: `as written #${i}`,
  text: JSON.stringify({ version: 1, systemPrompt: "MAIN", backend: { type: "store" }, permissions: [rule], subagents: [{ name: "worker", description: "w", systemPrompt: "SUB:worker;", permissions: null }] }),
}));

test(`export --to ts: the real deepagents@1.14.1 runs the example configs with the tools the engine predicts`, async () => {
  const examples = exampleConfigs();
  assert.ok(examples.length > 0, "no example config found");
  const problems = (await Promise.all(examples.map(roundTrip))).flat();
  assert.deepEqual(problems, []);
});

test("export --to ts: values the runtime takes as given are exported as written, with the runtime's outcome", async () => {
  const problems: string[] = [];
  for (const c of AS_WRITTEN) problems.push(...(await roundTrip(c)));
  assert.deepEqual(problems, []);
});

test(`export --to ts: ${CASES} generated configs run in the real deepagents@1.14.1 as the engine predicts`, async () => {
  const rng = makeRng(SEED);
  const problems: string[] = [];
  let refused = 0;
  for (let i = 0; i < CASES; i++) {
    const config = generateConfig(rng);
    const text = JSON.stringify(config, null, 2);
    const found = await roundTrip({ name: `case ${i}: ${JSON.stringify(config)}`, text, comparePrompts: true });
    problems.push(...found);
    if (checkConfigText(text).findings.some((f) => f.severity === "error" && CONSTRUCTION_CODES.includes(f.code))) refused++;
  }
  console.log(`export round trip: ${CASES} generated configs, ${refused} refused at construction, ${probed.compared} reads compared (${probed.denied} denied), ${problems.length} disagreements`);
  assert.ok(probed.denied > 0 && probed.denied < probed.compared, "the reads must meet both denials and other answers");
  assert.ok(refused > CASES / 10 && refused < CASES - CASES / 3, "the generator must produce both accepted and refused configs");
  assert.equal(problems.length, 0, `${problems.length} disagreements, first ${SHOW}:\n${problems.slice(0, SHOW).join("\n\n")}`);
});
