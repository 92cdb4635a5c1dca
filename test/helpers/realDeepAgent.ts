/**
 * The real npm `deepagents@1.14.1` driven through a dry-run scenario, shared by the conformance suite
 * (test/conformance/deepagents-js.dryrun.test.ts), the recorded-run tests (test/dryrun/fromMessages.test.ts) and the
 * benchmark's dry-run section (bench/dryrun.ts): seeded generators of configs, sample workspaces and scenarios, and
 * `runReal`, a `createDeepAgent` whose scripted chat model emits the scenario's tool calls one turn at a time (a
 * `task` call's nested steps as that subagent's turns), over a `FilesystemBackend` in virtual mode on a temporary
 * copy of the workspace (a `StateBackend` seeded with the sample files where the config says state).
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CompositeBackend, FilesystemBackend, StateBackend, createDeepAgent, createFilesystemMiddleware } from "deepagents";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { StepInput } from "../../server/src/engine/dryrun/runner";
import { memoryWorkspace } from "../../server/src/engine/workspace/source";
import type { Rng } from "./random";
import { scratchDir } from "./scratch";

// deepagents' grep uses ripgrep when it is on the PATH; the dry run models the search without it.
process.env.PATH = (process.env.PATH ?? "").split(":").filter((d) => { try { return !statSync(join(d, "rg")).isFile(); } catch { return true; } }).join(":");

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Obj = { [key: string]: Json };

// ---------------------------------------------------------------------------------------------------------
// Generated workspaces, configs and scenarios
// ---------------------------------------------------------------------------------------------------------

export const LINES = ["alpha", "beta gamma", "TODO fix this", "secret=1", "hello world", "é accent", "  indented", "alpha beta alpha"];
export const FILES = ["README.md", ".env", "secrets/key.txt", "secrets/.hidden", "src/a.ts", "src/b.ts", "src/sub/c.ts", "docs/guide.md", "proj/app.log", "proj/sub/deep.txt", "notes/todo.md", "empty.txt", "blank.txt", "a..b.txt", "data.json"];

/** A uniform integer in [a, b]. */
export function between(rng: Rng, a: number, b: number): number {
  return a + rng.int(b - a + 1);
}

export function generateWorkspace(rng: Rng): Record<string, string> {
  const files: Record<string, string> = {};
  for (const f of FILES) {
    if (!rng.chance(0.8) && f !== "README.md") continue;
    if (f === "empty.txt") files[f] = "";
    else if (f === "blank.txt") files[f] = "  \n";
    else {
      const n = between(rng, 1, 6);
      const lines = Array.from({ length: n }, () => rng.pick(LINES));
      files[f] = lines.join("\n") + (rng.chance(0.7) ? "\n" : "");
    }
  }
  return files;
}

export type Layout = "fs" | "route" | "state" | "default";
export const RULES: readonly Json[][] = [
  [{ operations: ["read", "write"], paths: ["/workspace/secrets/**"], mode: "deny" }],
  [{ operations: ["read", "write"], paths: ["/workspace/.env"], mode: "deny" }],
  [{ operations: ["read"], paths: ["/**/.env"], mode: "deny" }],
  [{ operations: ["write"], paths: ["/workspace/src/**"], mode: "deny" }],
  [{ operations: ["write"], paths: ["/workspace/**/*.ts"], mode: "deny" }],
  [{ operations: ["write"], paths: ["/workspace/docs/**"] }, { operations: ["write"], paths: ["/workspace/**"], mode: "deny" }],
  [{ operations: ["read", "write"], paths: ["/workspace/**", "/memories/**"] }, { operations: ["read", "write"], paths: ["/**"], mode: "deny" }],
  [{ operations: ["write"], paths: ["/memories/private/**"], mode: "deny" }],
  [{ operations: ["write"], paths: ["/workspace/proj/*"], mode: "deny" }],
  [{ operations: ["read", "write"], paths: ["/workspace/{secrets,keys}/**"], mode: "deny" }],
  [{ operations: ["write"], paths: ["/workspace/proj"], mode: "deny" }],
];

export interface Generated {
  layout: Layout;
  config: Obj;
  files: Record<string, string>;
  steps: StepInput[];
}

export function generateConfig(rng: Rng, layout: Layout): Obj {
  const config: Obj = { version: 1, runtime: "deepagents-js", systemPrompt: "MAIN", workspace: { root: "./ws", mountAt: "/workspace" } };
  if (layout === "fs") config.backend = { type: "filesystem", rootDir: "./ws", virtualMode: true };
  if (layout === "route") config.backend = { type: "composite", default: { type: "state" }, routes: { "/workspace/": { type: "filesystem", rootDir: "./ws", virtualMode: true }, "/memories/": { type: "filesystem", rootDir: "./mem", virtualMode: true } } };
  if (layout === "state") config.backend = { type: "state" };
  const n = rng.pick([0, 0, 1, 1, 2, 3]);
  if (n > 0 || rng.chance(0.2)) config.permissions = Array.from({ length: n }, () => rng.pick(RULES)).flat();
  const worker: Obj = { name: "worker", description: "the worker", systemPrompt: "SUB:worker;" };
  const wp = rng.pick<Json | undefined>([undefined, undefined, [], null, [{ operations: ["write"], paths: ["/**"], mode: "deny" }], rng.pick(RULES)]);
  if (wp !== undefined) worker.permissions = wp;
  config.subagents = [worker];
  // A custom filesystem middleware replaces the default one by name (allowlist, its own rules or none).
  if (layout !== "state" && layout !== "default" && rng.chance(0.12)) {
    const m: Obj = { type: "filesystem", tools: rng.pick<Json>([["read_file", "ls", "glob", "grep"], ["read_file", "write_file", "delete"], "all"]) };
    if (rng.chance(0.5)) m.permissions = rng.pick(RULES);
    config.middleware = [m];
  }
  return config;
}

export function dirsOf(files: Record<string, string>): string[] {
  const dirs = new Set<string>();
  for (const f of Object.keys(files)) {
    const parts = f.split("/");
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
  }
  return [...dirs];
}

export function pathPool(rng: Rng, files: Record<string, string>, wantDir: boolean): string {
  const names = Object.keys(files);
  const dirs = dirsOf(files);
  const base = wantDir
    ? rng.pick(["/workspace", "/", ...dirs.map((d) => `/workspace/${d}`), "/workspace/nope", "/memories", "/memories/private"])
    : rng.pick([...names.map((f) => `/workspace/${f}`), ...names.map((f) => `/workspace/${f}`), "/workspace/nope.txt", "/workspace/src/nope/x.ts", "/memories/x.txt", "/memories/private/k.txt", "/workspace/new.txt", "/workspace/docs/new.md", "/workspace/README.md/x"]);
  const twist = between(rng, 0, 14);
  switch (twist) {
    case 0: return base.replace(/\/([^/]*)$/, "/./$1");
    case 1: return `/.${base}`;
    case 2: return base.replace("/workspace", "/workspace/");
    case 3: return base.slice(1);
    case 4: return `${base}/`;
    case 5: return base.replace("/workspace/", "/workspace/../workspace/");
    case 6: return rng.chance(0.5) ? "~/x" : "/workspace/~/x";
    default: return base;
  }
}

export function generateStep(rng: Rng, files: Record<string, string>, nested: boolean): StepInput {
  const tool = rng.pick(["ls", "ls", "read_file", "read_file", "read_file", "write_file", "write_file", "edit_file", "edit_file", "delete", "delete", "glob", "glob", "grep", "grep", "execute", ...(nested ? [] : ["task", "task"]), "read_fil"]);
  const file = () => pathPool(rng, files, false);
  const dir = () => pathPool(rng, files, true);
  const text = () => Array.from({ length: between(rng, 0, 3) }, () => rng.pick(LINES)).join("\n");
  switch (tool) {
    case "ls": return { tool, args: rng.chance(0.15) ? {} : { path: dir() } };
    case "read_file": {
      const args: Record<string, unknown> = { file_path: file() };
      if (rng.chance(0.2)) args.offset = between(rng, 0, 4);
      if (rng.chance(0.2)) args.limit = between(rng, 1, 3);
      return { tool, args };
    }
    case "write_file": return { tool, args: { file_path: file(), content: text() } };
    case "edit_file": return { tool, args: { file_path: file(), old_string: rng.pick(["alpha", "beta", "TODO", "zzz", "", "hello world"]), new_string: rng.pick(["omega", "", "x"]), ...(rng.chance(0.4) ? { replace_all: rng.chance(0.5) } : {}) } };
    case "delete": return { tool, args: { file_path: rng.chance(0.5) ? dir() : file() } };
    case "glob": {
      const args: Record<string, unknown> = { pattern: rng.pick(["**/*", "*.md", "**/*.ts", "*", "src/*", "**/.env", "**/*.txt", "nomatch*", "**", "*.{md,txt}"]) };
      if (rng.chance(0.6)) args.path = dir();
      return { tool, args };
    }
    case "grep": {
      const args: Record<string, unknown> = { pattern: rng.pick(["alpha", "TODO", "secret", "é", "zzz", "a"]) };
      if (rng.chance(0.7)) args.path = rng.chance(0.8) ? dir() : file();
      if (rng.chance(0.2)) args.glob = rng.pick(["*.ts", "*.md", ".env", "*"]);
      if (rng.chance(0.3)) args.output_mode = rng.pick(["files_with_matches", "content", "count"]);
      return { tool, args };
    }
    case "execute": return { tool, args: { command: "ls /" } };
    case "task": {
      const steps = Array.from({ length: between(rng, 1, 5) }, () => generateStep(rng, files, true));
      return { tool, args: { subagent_type: rng.pick(["worker", "general-purpose"]), description: "go" }, steps };
    }
    default: return { tool, args: { file_path: "/workspace/README.md" } };
  }
}

export function generate(rng: Rng): Generated {
  const layout = rng.pick<Layout>(["fs", "fs", "route", "route", "state", "default"]);
  const files = generateWorkspace(rng);
  const config = generateConfig(rng, layout);
  const steps = Array.from({ length: between(rng, 8, 16) }, () => generateStep(rng, files, false));
  return { layout, config, files, steps };
}

// ---------------------------------------------------------------------------------------------------------
// The real agent, driven by a scripted model
// ---------------------------------------------------------------------------------------------------------

export interface RealAnswer {
  unavailable?: boolean;
  content?: string;
  status?: string;
}

export interface Frame {
  agent: string;
  steps: StepInput[];
  i: number;
  pending?: { id: string; step: StepInput };
}

/** How deepagents' summarisation middleware's prompt begins (its DEFAULT_SUMMARY_PROMPT, deepagents@1.14.1). */
const SUMMARY_PROMPT_START = "You are a conversation summarizer.";

export class Director {
  /** How many times the runtime asked for a summary of the conversation (ScriptedModel). */
  summaries = 0;
  readonly frames: Frame[] = [];
  readonly answers = new Map<StepInput, RealAnswer>();
  readonly problems: string[] = [];
  private n = 0;
  constructor(steps: StepInput[]) {
    this.frames.push({ agent: "main", steps, i: 0 });
  }

  next(agent: string, bound: readonly string[], messages: BaseMessage[]): AIMessage {
    while (this.frames.length > 1 && this.frames.at(-1)!.agent !== agent && this.frames.some((f) => f.agent === agent)) this.frames.pop();
    const frame = this.frames.at(-1);
    if (!frame || frame.agent !== agent) {
      this.problems.push(`the model was called for ${agent}, expected ${frame?.agent ?? "nobody"}`);
      return new AIMessage("done");
    }
    if (frame.pending) {
      const id = frame.pending.id;
      const reply = [...messages].reverse().find((m) => ToolMessage.isInstance(m) && (m as ToolMessage).tool_call_id === id) as ToolMessage | undefined;
      if (!reply) this.problems.push(`no tool message for ${frame.pending.step.tool} ${JSON.stringify(frame.pending.step.args)}`);
      else this.answers.set(frame.pending.step, { content: textOf(reply.content), status: reply.status });
      frame.pending = undefined;
    }
    for (;;) {
      const step = frame.steps[frame.i++];
      if (!step) {
        this.frames.pop();
        return new AIMessage("done");
      }
      if (!bound.includes(step.tool)) {
        this.answers.set(step, { unavailable: true });
        continue;
      }
      const id = `call_${++this.n}`;
      frame.pending = { id, step };
      if (step.tool === "task") this.frames.push({ agent: String(step.args.subagent_type), steps: step.steps ?? [], i: 0 });
      return new AIMessage({ content: "", tool_calls: [{ id, name: step.tool, args: step.args }] });
    }
  }
}

export class ScriptedModel extends BaseChatModel {
  constructor(readonly director: Director, readonly bound: string[] = []) {
    super({});
  }
  _llmType(): string {
    return "scripted";
  }
  override bindTools(tools: { name?: string }[]): ScriptedModel {
    return new ScriptedModel(this.director, tools.map((t) => String(t.name)));
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    // The runtime's summarisation middleware asks the model for a summary once an agent's messages pass its token
    // threshold (170,000 by default: some thousands of steps in one agent). That call is the runtime's, not a
    // step of the scenario: it gets a summary, and the script goes on where it was.
    const only = messages.length === 1 ? messages[0] : undefined;
    if (only && HumanMessage.isInstance(only) && textOf(only.content).startsWith(SUMMARY_PROMPT_START)) {
      this.director.summaries++;
      return { generations: [{ text: "", message: new AIMessage("The scripted run so far: tool calls and their results.") }] };
    }
    const system = messages.find((m) => SystemMessage.isInstance(m));
    const text = system ? textOf(system.content) : "";
    const agent = /SUB:([\w-]+);/.exec(text)?.[1] ?? (text.startsWith("MAIN") ? "main" : "general-purpose");
    return { generations: [{ text: "", message: this.director.next(agent, this.bound, messages) }] };
  }
}

export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((b) => (typeof b === "string" ? b : typeof b?.text === "string" ? b.text : JSON.stringify(b))).join("");
  return JSON.stringify(content);
}

export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const full = join(root, ...rel.split("/"));
    mkdirSync(join(full, ".."), { recursive: true });
    writeFileSync(full, content);
  }
}

export function readTree(root: string, prefix: string, into: Map<string, string>): void {
  const walk = (dir: string, rel: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(join(dir, e.name), r);
      else into.set(`${prefix}${r}`, readFileSync(join(dir, e.name), "utf8"));
    }
  };
  walk(root, "");
}

export interface RealRun {
  director: Director;
  /** `path="content"` for every file of every backend, state and disk. */
  files: string[];
  /** Host folders and the virtual path each stands for, longest first. */
  hostPaths: [string, string][];
}

export async function runReal(g: Generated): Promise<RealRun> {
  const root = scratchDir("dryrun-conformance");
  const director = new Director(g.steps);
  const model = new ScriptedModel(director);
  const params: Record<string, unknown> = { model, systemPrompt: g.config.systemPrompt };
  const hostPaths: [string, string][] = [];
  let stateFiles: Record<string, unknown> | undefined;
  const fsRoots: [string, string][] = [];
  if (g.layout === "fs") {
    writeTree(join(root, "workspace"), g.files);
    mkdirSync(join(root, "workspace"), { recursive: true });
    params.backend = new FilesystemBackend({ rootDir: root, virtualMode: true });
    hostPaths.push([root, ""]);
    fsRoots.push([root, ""]);
  } else if (g.layout === "route") {
    const ws = join(root, "ws");
    const mem = join(root, "mem");
    mkdirSync(ws);
    mkdirSync(mem);
    writeTree(ws, g.files);
    params.backend = new CompositeBackend(new StateBackend(), { "/workspace/": new FilesystemBackend({ rootDir: ws, virtualMode: true }), "/memories/": new FilesystemBackend({ rootDir: mem, virtualMode: true }) });
    hostPaths.push([ws, "/workspace"], [mem, "/memories"]);
    fsRoots.push([ws, "/workspace"], [mem, "/memories"]);
  } else {
    if (g.layout === "state") params.backend = new StateBackend();
    stateFiles = {};
    for (const [rel, content] of sortedSamples(g.files)) stateFiles[`/workspace/${rel}`] = { content, mimeType: "text/plain", created_at: "2000-01-01T00:00:00.000Z", modified_at: "2000-01-01T00:00:00.000Z" };
  }
  if (g.config.permissions !== undefined) params.permissions = g.config.permissions;
  if (g.config.middleware !== undefined) params.middleware = (g.config.middleware as Obj[]).map((m) => createFilesystemMiddleware({ tools: m.tools, ...(m.permissions !== undefined ? { permissions: m.permissions } : {}) } as never));
  params.subagents = (g.config.subagents as Obj[]).map((s) => ({ name: s.name, description: s.description, systemPrompt: s.systemPrompt, ...("permissions" in s ? { permissions: s.permissions } : {}) }));
  const agent = createDeepAgent(params as never) as unknown as { invoke(input: unknown, config?: unknown): Promise<{ files?: Record<string, { content: unknown } | null> }> };
  const state = await agent.invoke({ messages: [new HumanMessage("go")], ...(stateFiles ? { files: stateFiles } : {}) }, { recursionLimit: recursionLimitFor(g.steps) });
  const files: string[] = [];
  for (const [k, v] of Object.entries(state.files ?? {})) if (v) files.push(`${k}=${JSON.stringify(Array.isArray(v.content) ? v.content.join("\n") : String(v.content))}`);
  for (const [dir, prefix] of fsRoots) {
    const disk = new Map<string, string>();
    readTree(dir, prefix, disk);
    for (const [k, v] of disk) files.push(`${k}=${JSON.stringify(v)}`);
  }
  hostPaths.sort((a, b) => b[0].length - a[0].length);
  return { director, files, hostPaths };
}

/**
 * LangGraph's superstep limit for a scripted run: a call is two supersteps of the agent's graph (the model, then
 * the tools; a subagent's steps count in its own graph), with room for the middleware's.
 */
function recursionLimitFor(steps: readonly StepInput[]): number {
  return Math.max(10_000, 4 * steps.length + 100);
}

/** The sample files in the order the dry run seeds a state backend: depth first, names in code-unit order. */
export function sortedSamples(files: Record<string, string>): [string, string][] {
  const ws = memoryWorkspace(files);
  const out: [string, string][] = [];
  const walk = (dir: string) => {
    for (const e of [...(ws.list(dir) ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.kind === "dir") walk(rel);
      else out.push([rel, files[rel]!]);
    }
  };
  walk("");
  return out;
}

export function realOutcome(a: RealAnswer): string {
  if (a.unavailable) return "tool-unavailable";
  const c = a.content ?? "";
  if (a.status === "error") return c.startsWith("Error: permission denied for") ? "permission-denied" : "error";
  return c.startsWith("Error") ? "error" : "ok";
}

export function virtualize(text: string, hostPaths: readonly [string, string][]): string {
  let out = text;
  for (const [host, virtual] of hostPaths) out = out.split(`${host}/`).join(`${virtual}/`).split(host).join(virtual || "/");
  return out;
}
