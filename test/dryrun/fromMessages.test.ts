/**
 * `dry-run --from-messages`: the message list a real deepagents-js run returns (serialised as JSON.stringify writes
 * it) becomes a scenario whose steps are the run's tool calls, in order, unknown tools kept.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createDeepAgent } from "deepagents";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { callsFromRecording } from "../../server/src/engine/dryrun/fromMessages";
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
