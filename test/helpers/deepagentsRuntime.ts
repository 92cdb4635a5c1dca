/**
 * What the tests that drive the real `deepagents@1.14.1` share (spec §8): the seeded space of well-formed configs
 * (plain JSON, exactly what goes into agent-sandbox.jsonc), stub backends, user tools by name, the scripted chat
 * model that records the tools bound on every call, and how a construction refusal maps to our diagnostic codes.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import type { Rng } from "./random";

// ---------------------------------------------------------------------------------------------------------
// The config space
// ---------------------------------------------------------------------------------------------------------

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Obj = { [key: string]: Json };

const SANDBOX: Obj = { type: "sandbox", provider: "local-shell" };
const BACKENDS: readonly (Obj | undefined)[] = [
  undefined,
  { type: "state" },
  { type: "store" },
  { type: "filesystem", rootDir: "/srv/data", virtualMode: true },
  SANDBOX,
  { type: "sandbox", factory: true },
  { type: "composite", default: SANDBOX, routes: { "/memories/": { type: "store" } } },
  { type: "composite", default: SANDBOX, routes: { "/memories/": { type: "store" }, "/skills": { type: "state" } } },
  { type: "composite", default: { type: "store" }, routes: { "/sb/": SANDBOX } },
  { type: "composite", default: { type: "custom", name: "nodelete", capabilities: { execute: false, delete: false } }, routes: { "/memories/": { type: "state" } } },
  { type: "custom", name: "box", capabilities: { execute: true, delete: true } },
  { type: "custom", name: "readonly", capabilities: { execute: false, delete: false } },
  { type: "custom", name: "runner", capabilities: { execute: true, delete: false } },
];

const RULE_LISTS: readonly (Json[] | undefined)[] = [
  undefined,
  [],
  [{ operations: ["read", "write"], paths: ["/secrets/**"], mode: "deny" }],
  [{ operations: ["write"], paths: ["/memories/**"], mode: "deny" }],
  [{ operations: ["read"], paths: ["/memories"] }, { operations: ["write"], paths: ["/memories/private/**"], mode: "deny" }],
  [{ operations: ["write"], paths: ["/skills/x", "/skillsX/**"], mode: "deny" }],
  [{ operations: ["read"], paths: [], mode: "deny" }],
];

const ALLOWLISTS: readonly (Json | undefined)[] = [
  undefined,
  "all",
  ["read_file", "ls"],
  ["read_file", "execute"],
  ["grep", "read_file", "ls", "glob"],
  ["read_file", "write_file", "delete", "execute", "glob", "grep"],
  ["read_file", "bogus", "edit_file"],
  ["read_file", "read_file", "delete"],
];

function filesystemMiddleware(rng: Rng, topBackend: Obj | undefined): Obj {
  const m: Obj = { type: "filesystem" };
  const tools = rng.chance(0.06) ? rng.pick<Json>([["ls"], [], ["READ_FILE", "ls"]]) : rng.pick(ALLOWLISTS);
  if (tools !== undefined) m.tools = tools;
  if (rng.chance(0.5)) {
    const backend = rng.pick([topBackend, SANDBOX, { type: "sandbox", factory: true }, { type: "store" }, { type: "custom", name: "ro", capabilities: { execute: false, delete: false } }]);
    if (backend) m.backend = backend;
  }
  const rules = rng.chance(0.5) ? rng.pick(RULE_LISTS) : undefined;
  if (rules !== undefined) m.permissions = rules;
  if (rng.chance(0.3)) m.systemPrompt = "FSGUIDE";
  return m;
}

function middlewareList(rng: Rng, topBackend: Obj | undefined): Obj[] | undefined {
  if (rng.chance(0.4)) return undefined;
  const list: Obj[] = [filesystemMiddleware(rng, topBackend)];
  if (rng.chance(0.2)) list.unshift({ type: "custom", name: "AuditMiddleware" });
  if (rng.chance(0.1)) list.unshift(filesystemMiddleware(rng, topBackend)); // replaced by the later one, still built
  return list;
}

function subagent(rng: Rng, name: string, topBackend: Obj | undefined, mode?: "fork"): Obj {
  const s: Obj = { name, systemPrompt: `SUB:${name};` };
  if (rng.chance(0.9)) s.description = `the ${name} subagent`;
  if (mode) s.mode = mode;
  const permissions = rng.pick<Json[] | null | undefined>([undefined, undefined, null, ...RULE_LISTS.slice(1)]);
  if (permissions !== undefined) s.permissions = permissions;
  const tools = rng.pick<string[] | undefined>([undefined, undefined, [], ["fetch_url"], ["web_search", "fetch_url"]]);
  if (tools !== undefined) s.tools = tools;
  if (rng.chance(0.35)) s.middleware = [filesystemMiddleware(rng, topBackend)];
  return s;
}

/** One well-formed config: the main agent's prompt is `MAIN`, each subagent's `SUB:<name>;` (how the scripted model tells them apart). */
export function generateConfig(rng: Rng): Obj {
  const config: Obj = { version: 1, runtime: "deepagents-js", systemPrompt: "MAIN" };
  const backend = rng.pick(BACKENDS);
  if (backend) config.backend = backend;
  const permissions = rng.pick(RULE_LISTS);
  if (permissions !== undefined) config.permissions = permissions;
  const tools = rng.chance(0.08)
    ? rng.pick([["ls"], ["task", "web_search"], ["web_search", "start_async_task"]])
    : rng.pick<string[] | undefined>([undefined, [], ["web_search"], ["web_search", "fetch_url"]]);
  if (tools !== undefined) config.tools = tools;
  const middleware = middlewareList(rng, backend);
  if (middleware) config.middleware = middleware;
  const subagents: Obj[] = [];
  if (rng.chance(0.85)) subagents.push(subagent(rng, "worker", backend));
  if (rng.chance(0.45)) subagents.push(subagent(rng, "forky", backend, "fork"));
  if (rng.chance(0.15)) subagents.push(subagent(rng, "general-purpose", backend));
  if (rng.chance(0.04)) subagents.push(subagent(rng, "worker", backend));
  if (subagents.length) config.subagents = subagents;
  return config;
}

// ---------------------------------------------------------------------------------------------------------
// Stub backends and user tools
// ---------------------------------------------------------------------------------------------------------

export function storeStub(withDelete = true): Record<string, unknown> {
  const b: Record<string, unknown> = {
    ls: async () => ({ files: [] }),
    read: async (p: string) => ({ content: `content of ${p}`, mimeType: "text/plain" }),
    readRaw: async () => ({ data: { content: "", mimeType: "text/plain" } }),
    write: async () => ({}),
    edit: async () => ({ occurrences: 1 }),
    glob: async () => ({ files: [] }),
    grep: async () => ({ matches: [] }),
  };
  if (withDelete) b.delete = async (p: string) => ({ path: p });
  return b;
}

export function sandboxStub(id = "sb-1", withDelete = true): Record<string, unknown> {
  return { ...storeStub(withDelete), id, execute: async (c: string) => ({ output: c, exitCode: 0, truncated: false }) };
}

/** User tools by name, as the application would define them (never called by the scripted model). */
export function realTools(names: readonly string[]) {
  return names.map((name) => tool(async () => "ok", { name, description: `user tool ${name}`, schema: z.object({}) }));
}

// ---------------------------------------------------------------------------------------------------------
// The scripted model (§8): records bound tools and the system message of every call
// ---------------------------------------------------------------------------------------------------------

export interface Observed {
  tools: string[];
  system: string;
}

/** Which agent a system message belongs to: `main`, `general-purpose` or a subagent's name. */
export type AgentOfSystemMessage = (system: string) => string;

/** The generated configs' prompts (`generateConfig`): `MAIN` for the main agent, `SUB:<name>;` for a subagent. */
export const generatedAgentOf: AgentOfSystemMessage = (text) => /SUB:([\w-]+);/.exec(text)?.[1] ?? (text.startsWith("MAIN") ? "main" : "general-purpose");

/**
 * A chat model whose first main-agent turn delegates to every agent in `delegateTo` through `task` and that answers
 * "done" otherwise, recording the tools bound and the system message of each agent's first call in `log`.
 */
export class ScriptedModel extends BaseChatModel {
  constructor(
    readonly log: Map<string, Observed>,
    readonly delegateTo: readonly string[],
    readonly bound: string[] = [],
    readonly agentOf: AgentOfSystemMessage = generatedAgentOf,
  ) {
    super({});
  }
  _llmType(): string {
    return "scripted";
  }
  override bindTools(tools: { name?: string }[]): ScriptedModel {
    return new ScriptedModel(this.log, this.delegateTo, tools.map((t) => String(t.name)), this.agentOf);
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const system = messages.find((m) => SystemMessage.isInstance(m));
    const text = system ? textOf(system.content) : "";
    const agent = this.agentOf(text);
    if (!this.log.has(agent)) this.log.set(agent, { tools: this.bound, system: text });
    const delegate = agent === "main" && !messages.some((m) => ToolMessage.isInstance(m));
    const message = delegate
      ? new AIMessage({ content: "", tool_calls: this.delegateTo.map((name, i) => ({ id: `call-${i}`, name: "task", args: { description: "go", subagent_type: name } })) })
      : new AIMessage("done");
    return { generations: [{ text: "", message }] };
  }
}

export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((b) => (typeof b === "string" ? b : typeof b?.text === "string" ? b.text : "")).join("");
  return "";
}

/** The diagnostic codes of the configs the real runtime refuses at construction. */
export const CONSTRUCTION_CODES = ["permissions-with-sandbox", "permission-outside-routes", "read-file-required", "tool-name-collision", "subagent-duplicate-name"];

/** The codes of a rule path the real runtime refuses when it builds the filesystem middleware. */
export const PATH_CODES = ["path-not-absolute", "path-empty", "path-parent-segment", "path-tilde-segment"];

/** The construction code a refusal's message stands for (`undefined`: a refusal none of our codes predicts). */
export function codeOfRefusal(message: string): string | undefined {
  if (message.includes("Filesystem permissions cannot be used with a backend that supports command execution")) return "permissions-with-sandbox";
  if (message.includes("read_file must be included in tools")) return "read-file-required";
  if (message.includes("conflict with built-in tools")) return "tool-name-collision";
  if (message.includes("Duplicate subagent name")) return "subagent-duplicate-name";
  if (message.startsWith("path must be absolute")) return "path-not-absolute";
  if (message.startsWith("path must be a non-empty string")) return "path-empty";
  if (message.startsWith('path must not contain ".."')) return "path-parent-segment";
  if (message.startsWith('path must not contain "~"')) return "path-tilde-segment";
  return undefined;
}

