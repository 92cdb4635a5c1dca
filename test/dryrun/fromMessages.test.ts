/**
 * `dry-run --from-messages`: the message list a real deepagents-js run returns (serialised as JSON.stringify writes
 * it) becomes a scenario whose steps are the run's tool calls, in order, unknown tools kept; from a run tree (the
 * run export LangChain's collector and LangSmith write) a `task` call's steps are the subagent's own calls.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createDeepAgent, StateBackend } from "deepagents";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { RunCollectorCallbackHandler } from "@langchain/core/tracers/run_collector";
import { callsFromRecording, type RecordedCall } from "../../server/src/engine/dryrun/fromMessages";
import { scratchDir } from "../helpers/scratch";

const CLI = join(__dirname, "..", "..", "dist", "cli.js");
const CONFIG = join(__dirname, "..", "..", "examples", "research-agent", "agent-sandbox.jsonc");

const CALLS = [
  { name: "ls", args: { path: "/" } },
  { name: "write_file", args: { file_path: "/notes.md", content: "hi" } },
  { name: "read_file", args: { file_path: "/notes.md" } },
  { name: "web_serch", args: { query: "x" } },
];

/** One call per turn, then "done". */
class Scripted extends BaseChatModel {
  _llmType() {
    return "scripted";
  }
  override bindTools() {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const done = messages.filter((m) => ToolMessage.isInstance(m)).length;
    const call = CALLS[done];
    const message = call ? new AIMessage({ content: "", tool_calls: [{ id: `c${done}`, name: call.name, args: call.args }] }) : new AIMessage("done");
    return { generations: [{ text: "", message }] };
  }
}

async function recordedRun(): Promise<unknown> {
  const agent = createDeepAgent({ model: new Scripted({}) } as never) as unknown as { invoke(i: unknown, c?: unknown): Promise<{ messages: BaseMessage[] }> };
  const result = await agent.invoke({ messages: [new HumanMessage("go")] }, { recursionLimit: 100 });
  return JSON.parse(JSON.stringify(result.messages));
}

test("the calls of a real run's message list, in order, in every wrapping a run export uses", async () => {
  const messages = await recordedRun();
  const expected = CALLS.map((c) => ({ tool: c.name, args: c.args }));
  for (const wrapped of [messages, { messages }, { outputs: { messages } }, [{ run: { state: { messages } } }]]) {
    const r = callsFromRecording(wrapped);
    assert.ok(r.ok);
    assert.deepEqual(r.calls.map(({ tool, args }) => ({ tool, args })), expected);
  }
  const openai = callsFromRecording([{ role: "user", content: "go" }, { role: "assistant", tool_calls: [{ id: "a", type: "function", function: { name: "ls", arguments: '{"path":"/w"}' } }] }]);
  assert.deepEqual(openai.ok && openai.calls, [{ tool: "ls", args: { path: "/w" }, id: "a" }]);
  assert.deepEqual(callsFromRecording({ nothing: 1 }).ok, false);
});

test("agent-sandbox dry-run --from-messages writes the scenario and runs it against the config", async () => {
  const dir = scratchDir("from-messages");
  writeFileSync(join(dir, "run.json"), JSON.stringify({ messages: await recordedRun() }));
  const scenario = join(dir, "recorded.dryrun.jsonc");
  const r = spawnSync(process.execPath, [CLI, "dry-run", "--from-messages", join(dir, "run.json"), "--config", CONFIG, "--role", "admin", "--write", scenario, "--format", "json"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const written = JSON.parse(readFileSync(scenario, "utf8"));
  assert.deepEqual(written.steps.map((s: { tool: string }) => s.tool), ["ls", "write_file", "read_file", "web_serch"]);
  const steps = JSON.parse(r.stdout).scenarios[0].steps;
  // The config's rules deny / and /notes.md (only /workspace and /memories are open); the misspelt tool is kept.
  assert.deepEqual(steps.map((s: { outcome: string }) => s.outcome), ["permission-denied", "permission-denied", "permission-denied", "tool-unavailable"]);
  const bad = spawnSync(process.execPath, [CLI, "dry-run", "--from-messages", join(dir, "run.json")], { encoding: "utf8" });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--from-messages needs --config CONFIG/);
});

/** Per agent (told apart by their system prompts), one call per turn, whether or not the agent has the tool. */
const NESTED: Record<string, { name: string; args: Record<string, unknown> }[]> = {
  main: [
    { name: "ls", args: { path: "/" } },
    { name: "task", args: { subagent_type: "worker", description: "write the note" } },
    { name: "read_file", args: { file_path: "/notes/a.md" } },
  ],
  worker: [
    { name: "write_file", args: { file_path: "/notes/a.md", content: "from the worker" } },
    { name: "read_fil", args: { file_path: "/notes/a.md" } },
    { name: "read_file", args: { file_path: "/secret/key" } },
  ],
};

class ScriptedPerAgent extends BaseChatModel {
  _llmType() {
    return "scripted-per-agent";
  }
  override bindTools() {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const system = JSON.stringify(messages.find((m) => SystemMessage.isInstance(m))?.content ?? "");
    const agent = system.includes("SUB:worker;") ? "worker" : "main";
    const done = messages.filter((m) => ToolMessage.isInstance(m)).length;
    const call = NESTED[agent]![done];
    const message = call ? new AIMessage({ content: "", tool_calls: [{ id: `${agent}_${done}`, name: call.name, args: call.args }] }) : new AIMessage(`${agent} done`);
    return { generations: [{ text: "", message }] };
  }
}

/**
 * A real run with a subagent: its `invoke()` result, its run tree as a run export holds it (LangChain's collector),
 * and the same run recorded as a stream of updates with the subagents' (`subgraphs: true`).
 */
async function recordedRunWithSubagent(): Promise<{ invoked: unknown; runTree: unknown; streamed: unknown }> {
  const agent = createDeepAgent({ model: new ScriptedPerAgent({}), systemPrompt: "MAIN", backend: new StateBackend(), subagents: [{ name: "worker", description: "writes notes", systemPrompt: "SUB:worker;" }] } as never) as unknown as {
    invoke(i: unknown, c?: unknown): Promise<{ messages: BaseMessage[] }>;
    stream(i: unknown, c?: unknown): Promise<AsyncIterable<unknown>>;
  };
  const collector = new RunCollectorCallbackHandler();
  const result = await agent.invoke({ messages: [new HumanMessage("go")] }, { recursionLimit: 100, callbacks: [collector] });
  const chunks: unknown[] = [];
  for await (const chunk of await agent.stream({ messages: [new HumanMessage("go")] }, { recursionLimit: 100, streamMode: "updates", subgraphs: true })) chunks.push(chunk);
  return { invoked: JSON.parse(JSON.stringify(result.messages)), runTree: JSON.parse(JSON.stringify(collector.tracedRuns)), streamed: JSON.parse(JSON.stringify(chunks)) };
}

test("a task call gets the subagent's own calls as nested steps from a run tree or a recorded stream; a bare message list has none to give", async () => {
  const { invoked, runTree, streamed } = await recordedRunWithSubagent();
  const shape = (calls: RecordedCall[]): unknown[] => calls.map((c) => (c.steps ? [c.tool, c.args, shape(c.steps)] : [c.tool, c.args]));
  for (const recording of [runTree, streamed]) {
    const r = callsFromRecording(recording);
    assert.ok(r.ok);
    assert.deepEqual(shape(r.calls), [
      ["ls", { path: "/" }],
      ["task", { subagent_type: "worker", description: "write the note" }, NESTED.worker!.map((c) => [c.name, c.args])],
      ["read_file", { file_path: "/notes/a.md" }],
    ]);
  }
  // The same run's invoke() result holds only the main agent's messages.
  const plain = callsFromRecording(invoked);
  assert.ok(plain.ok);
  assert.deepEqual(shape(plain.calls), NESTED.main!.map((c) => [c.name, c.args]));
});

test("agent-sandbox dry-run --from-messages on a run tree: nested steps run as the subagent, unknown tools kept as tool-unavailable", async () => {
  const dir = scratchDir("from-messages-nested");
  const { runTree } = await recordedRunWithSubagent();
  writeFileSync(join(dir, "run.json"), JSON.stringify(runTree));
  writeFileSync(join(dir, "agent-sandbox.jsonc"), JSON.stringify({
    version: 1,
    backend: { type: "state" },
    permissions: [{ operations: ["read", "write"], paths: ["/secret/**"], mode: "deny" }],
    subagents: [{ name: "worker", description: "writes notes" }],
  }));
  const scenario = join(dir, "recorded.dryrun.jsonc");
  const r = spawnSync(process.execPath, [CLI, "dry-run", "--from-messages", join(dir, "run.json"), "--config", join(dir, "agent-sandbox.jsonc"), "--write", scenario, "--format", "json"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /wrote .*recorded\.dryrun\.jsonc \(6 steps from \d+ messages\)/);
  const written = JSON.parse(readFileSync(scenario, "utf8"));
  assert.deepEqual(written.steps[1].args.steps.map((s: { tool: string }) => s.tool), ["write_file", "read_fil", "read_file"]);
  const steps = JSON.parse(r.stdout).scenarios[0].steps;
  assert.deepEqual(steps.map((s: { agent: string; tool: string; outcome: string; depth: number }) => [s.depth, s.agent, s.tool, s.outcome]), [
    [0, "main", "ls", "ok"],
    [0, "main", "task", "ok"],
    [1, "worker", "write_file", "ok"],
    [1, "worker", "read_fil", "tool-unavailable"],
    [1, "worker", "read_file", "permission-denied"],
    // The subagent's write is in the shared state the main agent reads afterwards, as in the recorded run.
    [0, "main", "read_file", "ok"],
  ]);
  assert.equal(steps[5].output, "@@ lines 1-1 of 1 @@\nfrom the worker");
});

test("bad recordings: nesting 100,000 deep, a run tree whose task calls name each other, a list with no messages", () => {
  // As the CLI reads a file: JSON.parse takes this depth (JSON.stringify would not).
  const deep = `${'{"a":'.repeat(100_000)}[{"type":"ai","tool_calls":[{"id":"x","name":"ls","args":{}}]}]${"}".repeat(100_000)}`;
  const r = callsFromRecording(JSON.parse(deep));
  // Deeper than the search goes: no list is found, and the answer says what was looked for.
  assert.deepEqual(r, { ok: false, error: "no message list found (expected a list of LangChain messages, or an object holding one under messages)" });
  // A subagent run whose messages call the task that started it: nested once, not forever.
  const ai = (id: string, name: string) => ({ type: "ai", tool_calls: [{ id, name, args: { subagent_type: "worker", description: "d" } }] });
  const loop = { outputs: { messages: [{ type: "human", content: "go" }, ai("t1", "task")] }, child_runs: [{ inputs: { lg_tool_call: { id: "t1" } }, outputs: { messages: [ai("t1", "task"), ai("c2", "ls")] } }] };
  const looped = callsFromRecording(loop);
  assert.ok(looped.ok);
  assert.deepEqual(looped.calls.map((c) => [c.tool, c.steps?.map((s) => [s.tool, s.steps?.length ?? 0])]), [["task", [["task", 0], ["ls", 0]]]]);
  assert.equal(callsFromRecording([1, "two", null]).ok, false);
});
