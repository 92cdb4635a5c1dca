import { getNodeValue } from "jsonc-parser";
import { agentsOf, findAgent, rulesForAgent, type AgentRef } from "../agents/agents";
import { agentFilesystem, topLevelBackend, type AgentBackend } from "../agents/backends";
import { routeScoping } from "../agents/construction";
import { effectiveToolsOf, policyOf, type EffectiveTool } from "../agents/effectiveTools";
import type { BackendSpec, ConfigModel } from "../config/model";
import type { JsonNode } from "../config/parse";
import { throwIfCancelled } from "../cancellation";
import { CompiledRuleList } from "../permissions/ruleList";
import { isFilesystemToolName } from "../runtime/runtime";
import { emptyDir, workspaceDir, type OverlayDir } from "../workspace/overlay";
import { limitedWorkspace, WorkspaceTooLarge, type WorkspaceSource } from "../workspace/source";
import { CompositeLikeBackend, FilesystemLikeBackend, StateLikeBackend, withoutDelete, type DryBackend } from "./backends";

function stateBackendsIn(b: DryBackend): StateLikeBackend[] {
  if (b instanceof StateLikeBackend) return [b];
  if (b instanceof CompositeLikeBackend) return [b.defaultBackend, ...b.routes.map(([, r]) => r)].flatMap(stateBackendsIn);
  return [];
}
import type { DecidingRule, DenialEntry, Outcome, ToolAnswer } from "./outcomes";
import { runDelete, runEditFile, runExecute, runGlob, runGrep, runLs, runReadFile, runWriteFile, type ToolContext } from "./tools";

/** A step's expectation as written: an outcome, or an outcome with output checks. */
export interface Expectation {
  outcome: Outcome;
  outputContains?: string;
  outputExcludes?: string;
}

/** One tool call of a scenario, as the model would emit it. */
export interface StepInput {
  tool: string;
  args: Record<string, unknown>;
  expect?: Expectation;
  /** The step's node in the scenario file (for diagnostics). */
  node?: JsonNode;
  /** For `task`: the subagent's own steps. */
  steps?: StepInput[];
}

export interface ScenarioInput {
  agent: string;
  role: string | null;
  steps: StepInput[];
}

/** One step's result, as `agent-sandbox dry-run --format json` prints it (cli.md). */
export interface StepResult {
  /** 1-based, in the order the steps ran; a `task` entry comes before its subagent's steps. */
  index: number;
  agent: string;
  tool: string;
  args: Record<string, unknown>;
  callId: string;
  outcome: Outcome;
  output: string;
  rule?: DecidingRule;
  denyPatterns?: string[];
  reason?: string;
  expected?: Outcome;
  /** Present when the step has an expectation. */
  passed?: boolean;
  /** Why the expectation failed, in words. */
  failure?: string;
  /** Nesting depth: 0 for the scenario's own steps, 1 inside a `task`, … */
  depth: number;
  node?: JsonNode;
  /** The scenario step this result is for. */
  input?: StepInput;
}

export interface DryRunResult {
  agent: string;
  role: string | null;
  steps: StepResult[];
  journal: DenialEntry[];
  passed: boolean;
  /** The runtime whose semantics ran. */
  runtime: string;
  /** Every file the run's backends hold at its end: `[virtual path, content]`, backend after backend. */
  snapshot(): [string, string][];
  /**
   * Set when the run stopped before its last step: too many steps, or a sample workspace too large to read. The
   * steps after it have no result; the run has not passed.
   */
  stopped?: string;
  /** Which limit stopped the run (with `stopped`). */
  stoppedBy?: RunLimit;
  /** The step where the run stopped (with `stopped`): the first one it did not take, or the one that met the wall. */
  stoppedAt?: StepInput;
}

/** The limits a run stops at rather than go on: its steps (`MAX_RUN_STEPS`), the sample workspace's size (`MAX_WORKSPACE_ENTRIES`). */
export type RunLimit = "steps" | "workspace";

/** How deep `task` calls may nest before the run stops descending (a bad input must not exhaust the stack). */
export const MAX_TASK_DEPTH = 64;
/** Steps a run takes at most, nested ones counted: twice the 10,000 the benchmark times, well under a second. */
export const MAX_RUN_STEPS = 20_000;
/** Files and folders a run lists at most from the sample workspace (the capability map's bound too). */
export const MAX_WORKSPACE_ENTRIES = 200_000;

/**
 * Runs a scenario against a config: every step through the effective configuration of its agent and role, the
 * runtime's tools over in-memory backends (the workspace-serving one copy-on-write over the sample files, the
 * others empty), nothing on disk touched and no process started.
 */
export function runScenario(model: ConfigModel, scenario: ScenarioInput, workspace?: WorkspaceSource): DryRunResult {
  const run = new Run(model, workspace && limitedWorkspace(workspace, MAX_WORKSPACE_ENTRIES), scenario.role);
  const agent = findAgent(model, scenario.agent);
  if (!agent) throw new Error(`No agent named ${JSON.stringify(scenario.agent)}.`);
  run.runSteps(agent, scenario.steps, 0);
  const result: DryRunResult = {
    agent: agent.name,
    role: scenario.role,
    steps: run.results,
    journal: run.journal,
    passed: run.stop === undefined && run.results.every((s) => s.passed !== false),
    runtime: model.runtime.label,
    snapshot: () => run.snapshot(),
  };
  if (run.stop) {
    result.stopped = run.stop.why;
    result.stoppedBy = run.stop.limit;
    result.stoppedAt = run.stop.at;
  }
  return result;
}

class Run {
  readonly results: StepResult[] = [];
  readonly journal: DenialEntry[] = [];
  /** Why, by which limit and where the run stopped early, once it has. */
  stop: { why: string; limit: RunLimit; at: StepInput } | undefined;
  private calls = 0;
  private readonly backends = new Map<unknown, DryBackend>();
  private readonly contexts = new Map<AgentRef, { ctx: ToolContext; tools: EffectiveTool[] }>();

  constructor(private readonly model: ConfigModel, private readonly workspace: WorkspaceSource | undefined, private readonly role: string | null) {}

  /** Every backend's files: `[path, content]`, backend after backend (two backends may hold one path). */
  snapshot(): [string, string][] {
    // The top-level backend holds the sample files even when no step reached it.
    this.backendOf(topLevelBackend(this.model));
    return [...this.backends.values()].flatMap((b) => [...b.snapshot()]);
  }

  runSteps(agent: AgentRef, steps: readonly StepInput[], depth: number): void {
    for (const step of steps) {
      if (this.stop) return;
      if (this.results.length >= MAX_RUN_STEPS) {
        this.stop = { why: `the scenario has more than ${MAX_RUN_STEPS.toLocaleString("en")} steps; the dry run stops after that many`, limit: "steps", at: step };
        return;
      }
      this.runStep(agent, step, depth);
    }
  }

  private runStep(agent: AgentRef, step: StepInput, depth: number): void {
    // The language server runs scenarios in a worker and stops a run whose text is stale (a no-op elsewhere).
    throwIfCancelled();
    const callId = `call_${++this.calls}`;
    const result: StepResult = { index: this.results.length + 1, agent: agent.name, tool: step.tool, args: step.args, callId, outcome: "ok", output: "", depth, node: step.node, input: step };
    this.results.push(result);
    let answer: ReturnType<Run["answer"]>;
    try {
      answer = this.answer(agent, step, callId);
    } catch (error) {
      if (!(error instanceof WorkspaceTooLarge)) throw error;
      // Every later step would meet the same wall: the run ends here, with this step as its error.
      this.stop = { why: `${error.message}; the dry run reads no more of it`, limit: "workspace", at: step };
      answer = { outcome: "error", output: `Error: ${this.stop.why}` };
    }
    result.outcome = answer.outcome;
    result.output = answer.output;
    if (answer.rule) result.rule = answer.rule;
    if (answer.denyPatterns) result.denyPatterns = answer.denyPatterns;
    if (answer.reason) result.reason = answer.reason;
    if (step.expect) judge(result, step.expect);
    if (step.tool === "task" && answer.outcome === "ok" && answer.subagent) {
      if (depth + 1 > MAX_TASK_DEPTH) {
        result.outcome = "error";
        result.output = `Error: task calls nest deeper than ${MAX_TASK_DEPTH}; the dry run stops here`;
        if (step.expect) judge(result, step.expect);
        return;
      }
      // State backends are a graph state the subagent gets a copy of and hands back to be merged.
      this.contextOf(answer.subagent);
      const states = [...this.backends.values()].flatMap(stateBackendsIn);
      const atStart = states.map((b) => b.copyFiles());
      this.runSteps(answer.subagent, step.steps ?? [], depth + 1);
      states.forEach((b, i) => b.mergeSubagentFiles(atStart[i]!));
    }
  }

  private answer(agent: AgentRef, step: StepInput, callId: string): ToolAnswer & { subagent?: AgentRef } {
    const { ctx, tools } = this.contextOf(agent);
    const tool = tools.find((t) => t.name === step.tool);
    if (!tool) {
      const visible = tools.filter((t) => t.visible).map((t) => t.name);
      return { outcome: "tool-unavailable", output: `Error: ${step.tool} is not a valid tool, try one of [${visible.join(", ")}].`, reason: `agent ${agent.name} has no tool named ${JSON.stringify(step.tool)}` };
    }
    if (!tool.visible) {
      if (tool.hiddenBy === "authorization") return this.denyByRole(agent, step.tool, callId);
      return { outcome: "tool-unavailable", output: "", reason: `${step.tool} is hidden: ${tool.reason}` };
    }
    if (tool.kind === "user") return { outcome: "ok", output: `[dry run] the user tool ${step.tool} would run (its code lives in the app)`, reason: "a user tool: the dry run does not run its code" };
    if (step.tool === "task") return this.task(agent, step);
    const bad = argumentProblem(step.tool, step.args);
    if (bad) return { outcome: "error", output: `Error: invalid arguments for ${step.tool}: ${bad}` };
    const a = withFilePath(step.tool, step.args) as never;
    switch (step.tool) {
      case "ls": return runLs(ctx, a);
      case "read_file": return runReadFile(ctx, a);
      case "write_file": return runWriteFile(ctx, a);
      case "edit_file": return runEditFile(ctx, a);
      case "delete": return runDelete(ctx, a);
      case "glob": return runGlob(ctx, a);
      case "grep": return runGrep(ctx, a);
      case "execute": return runExecute(ctx, a);
    }
    return { outcome: "error", output: `Error: ${step.tool} cannot be run` };
  }

  private denyByRole(agent: AgentRef, tool: string, callId: string): ToolAnswer {
    const policy = policyOf(this.model)!;
    const d = policy.decideTool(this.role, tool);
    const reasonMessage = (d.message || "blocked by guardrail policy").slice(0, 500);
    this.journal.push({
      tool, callId, agent: agent.name, role: this.role, policyId: d.policyId ?? null, reasonCodes: [d.reasonCode || "oap.denied"], failClosed: policy.failClosed,
    });
    return {
      outcome: "authorization-denied",
      output: `Guardrail denied: tool '${tool}' was blocked (${d.reasonCode || "oap.denied"}). Reason: ${reasonMessage}. Choose an alternative approach.`,
      reason: d.error ? `${d.message}: ${d.error}` : d.message,
    };
  }

  private task(agent: AgentRef, step: StepInput): ToolAnswer & { subagent?: AgentRef } {
    if (agent.kind === "subagent") return { outcome: "ok", output: "You are a subagent and cannot delegate to another subagent. Complete this task yourself instead of calling this tool again." };
    const type = step.args.subagent_type;
    const allowed = agentsOf(this.model).filter((a) => a.kind !== "main");
    const target = typeof type === "string" ? allowed.find((a) => a.name === type) : undefined;
    if (!target) {
      return { outcome: "error", output: `Error: invoked agent of type ${valueWords(type)}, the only allowed types are ${allowed.map((a) => `\`${a.name}\``).join(", ")}` };
    }
    const n = countSteps(step.steps ?? []);
    return { outcome: "ok", output: `[dry run] subagent ${target.name} runs ${n} step${n === 1 ? "" : "s"}`, subagent: target };
  }

  contextOf(agent: AgentRef): { ctx: ToolContext; tools: EffectiveTool[] } {
    let entry = this.contexts.get(agent);
    if (!entry) {
      const model = this.model;
      const fs = agentFilesystem(model, agent);
      const governing = rulesForAgent(model, agent);
      const rules = governing.list?.rules ?? [];
      const compiled = new CompiledRuleList(model.runtime, rules.map((r) => r.input));
      const backend = this.backendOf(fs.backend);
      let executeRefusal: string | undefined;
      const refusal = model.runtime.sandboxGuard.factoryExecuteMessage;
      if (refusal && governing.list && rules.length > 0 && !routeScoping(model, governing.list, fs.backend).scoped) executeRefusal = refusal;
      const tools = effectiveToolsOf(model, agent, this.role);
      entry = { ctx: { runtime: model.runtime, rules, compiled, backend, executeRefusal }, tools };
      this.contexts.set(agent, entry);
    }
    return entry;
  }

  /** One backend per backend in the config (subagents share their parent's); a middleware's own state backend each. */
  private backendOf(b: AgentBackend): DryBackend {
    // The same backend written twice (a middleware given the agent's backend) is one backend; a custom filesystem
    // middleware without one has its own state.
    const key = b.spec ? `${JSON.stringify(getNodeValue(b.spec.node))}` : b.origin === "middleware-default" ? b.middleware : "default";
    let backend = this.backends.get(key);
    if (!backend) {
      const mountAt = this.model.workspace?.mountAt ?? "/workspace";
      const top = this.model.backend;
      const sameAsTop = b.spec !== undefined && top !== undefined && JSON.stringify(getNodeValue(b.spec.node)) === JSON.stringify(getNodeValue(top.node));
      const serves = b.origin === "agent" || b.origin === "default" || sameAsTop ? mountAt : undefined;
      backend = b.spec ? this.build(b.spec, serves, "") : new StateLikeBackend("the state backend", serves !== undefined ? this.sampleFiles(serves) : undefined);
      this.backends.set(key, backend);
    }
    return backend;
  }

  /**
   * A backend as the config describes it. `serves`: where in this backend's own key space the sample files sit
   * (`/workspace` for the top-level backend, `/` for the route mounted at the workspace), or `undefined`.
   * `viewPrefix`: the route it is mounted at, for the virtual paths in its messages.
   */
  private build(spec: BackendSpec, serves: string | undefined, viewPrefix: string): DryBackend {
    switch (spec.type) {
      case "composite": {
        const routes: [string, DryBackend][] = [];
        let routeServes = false;
        for (const r of spec.routes) {
          const own = serves !== undefined && (r.prefix === serves || r.prefix === `${serves}/`);
          if (own) routeServes = true;
          routes.push([r.prefix, this.build(r.backend, own ? "/" : undefined, r.prefix.endsWith("/") ? r.prefix.slice(0, -1) : r.prefix)]);
        }
        const def = spec.default ? this.build(spec.default, routeServes ? undefined : serves, viewPrefix) : new StateLikeBackend("the state backend");
        return new CompositeLikeBackend(def, routes);
      }
      case "state":
      case "store":
        return new StateLikeBackend(`the ${spec.type} backend`, serves !== undefined ? this.sampleFiles(serves) : undefined);
      default: {
        const root = serves !== undefined ? this.mounted(serves) : emptyDir();
        const fs = new FilesystemLikeBackend(spec.type === "custom" ? `custom backend ${JSON.stringify(spec.name ?? "")}` : `the ${spec.type ?? "unknown"} backend`, root, (parts) => (parts.length > 0 ? `${viewPrefix}/${parts.join("/")}` : viewPrefix || "/"));
        return spec.type === "custom" && spec.capabilities && !spec.capabilities.delete ? withoutDelete(fs) : fs;
      }
    }
  }

  /** A folder tree with the sample workspace at `at` (`/` or `/workspace`). */
  private mounted(at: string): OverlayDir {
    const parts = at.split("/").filter(Boolean);
    if (!this.workspace) return emptyDir();
    let node: OverlayDir = workspaceDir(this.workspace);
    for (let i = parts.length - 1; i >= 0; i--) {
      const parent = emptyDir();
      parent.children!.set(parts[i]!, node);
      node = parent;
    }
    return node;
  }

  /** The sample files as state keys under `at`, in folder order. */
  private sampleFiles(at: string): [string, string][] {
    if (!this.workspace) return [];
    const base = at === "/" ? "" : at.replace(/\/+$/, "");
    const out: [string, string][] = [];
    const walk = (dir: string) => {
      const entries = [...(this.workspace!.list(dir) ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        const rel = dir ? `${dir}/${e.name}` : e.name;
        if (e.kind === "dir") walk(rel);
        else out.push([`${base}/${rel}`, this.workspace!.read(rel) ?? ""]);
      }
    };
    walk("");
    return out;
  }
}

/** The file tools take `path` for `file_path` (deepagents' `normalizeFilePathInput`). */
function withFilePath(tool: string, args: Record<string, unknown>): Record<string, unknown> {
  if (!FILE_PATH_TOOLS.has(tool) || "file_path" in args || !("path" in args)) return args;
  const { path, ...rest } = args;
  return { ...rest, file_path: path };
}
const FILE_PATH_TOOLS = new Set(["read_file", "write_file", "edit_file", "delete"]);

function countSteps(steps: readonly StepInput[]): number {
  return steps.length;
}

function valueWords(v: unknown): string {
  return typeof v === "string" ? v : String(v);
}

function judge(result: StepResult, expect: Expectation): void {
  result.expected = expect.outcome;
  const problems: string[] = [];
  if (result.outcome !== expect.outcome) problems.push(`expected ${expect.outcome}, got ${result.outcome}`);
  if (expect.outputContains !== undefined && !result.output.includes(expect.outputContains)) problems.push(`the output does not contain ${JSON.stringify(expect.outputContains)}`);
  if (expect.outputExcludes !== undefined && result.output.includes(expect.outputExcludes)) problems.push(`the output contains ${JSON.stringify(expect.outputExcludes)}`);
  result.passed = problems.length === 0;
  if (problems.length) result.failure = problems.join("; ");
  else delete result.failure;
}

/** Each filesystem tool's arguments: name, type, required (the tools' own argument schemas). */
export const TOOL_ARGUMENTS: Readonly<Record<string, readonly { name: string; type: "string" | "number" | "boolean"; required: boolean; nullable?: boolean }[]>> = {
  ls: [{ name: "path", type: "string", required: false }],
  read_file: [{ name: "file_path", type: "string", required: true }, { name: "offset", type: "number", required: false }, { name: "limit", type: "number", required: false }],
  write_file: [{ name: "file_path", type: "string", required: true }, { name: "content", type: "string", required: true }],
  edit_file: [{ name: "file_path", type: "string", required: true }, { name: "old_string", type: "string", required: true }, { name: "new_string", type: "string", required: true }, { name: "replace_all", type: "boolean", required: false }],
  delete: [{ name: "file_path", type: "string", required: true }],
  glob: [{ name: "pattern", type: "string", required: true }, { name: "path", type: "string", required: false }],
  grep: [{ name: "pattern", type: "string", required: true }, { name: "path", type: "string", required: false }, { name: "glob", type: "string", required: false, nullable: true }, { name: "output_mode", type: "string", required: false }, { name: "max_count", type: "number", required: false, nullable: true }],
  execute: [{ name: "command", type: "string", required: true }],
  task: [{ name: "subagent_type", type: "string", required: true }, { name: "description", type: "string", required: true }],
};

/** What is wrong with a step's arguments for a built-in tool (`undefined` when nothing is). */
export function argumentProblem(tool: string, args: Record<string, unknown>): string | undefined {
  const spec = TOOL_ARGUMENTS[tool];
  if (!spec) return undefined;
  for (const a of spec) {
    // The file tools also take `path` for `file_path` (normalizeFilePathInput).
    const v = a.name === "file_path" && !("file_path" in args) && FILE_PATH_TOOLS.has(tool) ? args.path : args[a.name];
    if (v === undefined) {
      if (a.required) return `${a.name} is required`;
      continue;
    }
    if (v === null && a.nullable) continue;
    if (typeof v !== a.type) return `${a.name} must be a ${a.type}, not ${v === null ? "null" : Array.isArray(v) ? "a list" : typeof v}`;
  }
  if (tool === "grep" && args.output_mode !== undefined && !["files_with_matches", "content", "count"].includes(args.output_mode as string)) {
    return `output_mode must be one of files_with_matches, content, count`;
  }
  return undefined;
}

export { isFilesystemToolName };
