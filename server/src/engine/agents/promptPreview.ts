import type { BackendSpec, ConfigModel, Located } from "../config/model";
import { property, type JsonNode } from "../config/parse";
import { agentsOf, findAgent, GENERAL_PURPOSE, isForked, type AgentRef } from "./agents";
import { agentFilesystem, describeBackendShape } from "./backends";
import { effectiveToolsOf, policyOf, type EffectiveToolsOptions } from "./effectiveTools";
import { loadSkills, type SkillFileAccess } from "./skills";

/**
 * What the model receives for one agent and role (docs/reference/prompt.md): the
 * system message, the visible tools with our own short descriptions, and the subagents `task` offers. Hidden tools
 * appear nowhere, not even inside another tool's description.
 */
export interface PromptPreview {
  agent: string;
  role: string | null;
  /** With no role and an enabled `authorization` block: the role DeerFlow applies instead (`default_role`). */
  defaultRole?: string;
  /** The runtime whose prompt assembly is shown ("deepagents-js 1.14.1"). */
  runtime: string;
  systemMessage: string;
  tools: { name: string; description: string }[];
  subagents: { name: string; description: string }[];
  /** Where the preview stands in for text it cannot show (a prompt file it could not read, a built-in prompt). */
  notes: string[];
}

export interface PromptPreviewOptions extends EffectiveToolsOptions {
  /** Lists a folder relative to the config file, to find `<name>/SKILL.md` inside `skills` folders. */
  listDirectory?: SkillFileAccess["listDirectory"];
}

/** Our own words for the eight filesystem tools (the runtime's text may be shown instead where it is installed). */
const FILESYSTEM_DESCRIPTIONS: Record<string, string> = {
  ls: "List the files and folders at a path.",
  read_file: "Read a file, or a range of its lines.",
  write_file: "Create a file with the given content.",
  edit_file: "Replace an exact piece of text in an existing file.",
  delete: "Delete a file, or a folder with everything in it.",
  glob: "Find files whose paths match a glob pattern.",
  grep: "Search file contents for a literal piece of text.",
  execute: "Run a shell command in the sandbox and return its output.",
};

const USER_TOOL_DESCRIPTION = "A tool of your application (its description comes from your code).";
const TASK_DESCRIPTION = "Hand a task to a subagent, which works on it on its own and returns one result.";
const GENERAL_PURPOSE_DESCRIPTION = "Built in: works with the same tools as the main agent; for searches and multi-step tasks.";
const GENERAL_PURPOSE_PROMPT = "[the runtime's built-in general-purpose subagent prompt: one sentence telling it to complete the objective with its tools]";

export function promptPreview(
  model: ConfigModel,
  agentName: string,
  role: string | null,
  readFile: (relativePath: string) => string | undefined,
  options: PromptPreviewOptions = {},
): PromptPreview | undefined {
  const agent = findAgent(model, agentName);
  if (!agent) return undefined;
  const runtime = model.runtime;
  const notes: string[] = [];
  const tools = effectiveToolsOf(model, agent, role, options).filter((t) => t.visible);
  const visible = new Set(tools.map((t) => t.name));
  const fs = agentFilesystem(model, agent);
  const separator = runtime.promptSurface.middlewarePromptSeparator;

  // 1. The agent's own prompt (createDeepAgent joins its parts with blank lines, docs/reference/prompt.md).
  let message = ownPrompt(model, agent, readFile, notes);
  // 2. The skills section, then 3. a custom filesystem middleware's `systemPrompt`: middleware text is appended
  //    in stack order (skills before the filesystem middleware), with the runtime's separator.
  const skillEntries = skillsOf(model, agent);
  if (skillEntries.length > 0) message = append(message, skillsSection(skillEntries, { readFile, listDirectory: options.listDirectory }), separator);
  const fsPrompt = fs.custom?.systemPrompt?.value;
  if (fsPrompt) message = append(message, fsPrompt, separator);
  // 4. Python only: the shell-vs-virtual-paths section, for a composite with routes, when `execute` is visible (docs/reference/prompt.md).
  const routes = fs.backend.spec?.type === "composite" ? fs.backend.spec.routes : [];
  if (runtime.promptSurface.routeSectionWhenExecuteVisible && visible.has("execute") && routes.length > 0) message = append(message, routeSection(routes), separator);

  const descriptions = toolDescriptionsOverride(fs.custom?.node);
  const executeUsable = visible.has("execute") && !fs.backend.shape.factory;
  const previewTools = tools.map((t) => {
    if (t.kind === "user") return { name: t.name, description: USER_TOOL_DESCRIPTION };
    if (t.kind === "task") return { name: t.name, description: agent.kind === "subagent" ? `${TASK_DESCRIPTION} Inside a forked subagent every call is refused.` : TASK_DESCRIPTION };
    const custom = descriptions[t.name];
    if (custom !== undefined) return { name: t.name, description: custom };
    let description = FILESYSTEM_DESCRIPTIONS[t.name]!;
    if (t.name === "grep" && executeUsable) description += " For a regular expression, use `execute`.";
    if (t.name === "execute") description += searchGuidance(visible.has("grep"), visible.has("glob"));
    return { name: t.name, description };
  });

  const subagents: { name: string; description: string }[] = [];
  if (visible.has("task")) {
    for (const a of agentsOf(model)) {
      if (a.kind === "general-purpose") subagents.push({ name: GENERAL_PURPOSE, description: GENERAL_PURPOSE_DESCRIPTION });
      else if (a.kind === "subagent") {
        const text = a.spec.description?.value ?? "(no description)";
        subagents.push({ name: a.name, description: isForked(model, a.spec) ? `${text} (forks the current conversation)` : text });
      }
    }
  }
  // Without a role, DeerFlow's authorization applies its default role (effectiveTools.ts): say which.
  const policy = role === null ? policyOf(model) : undefined;
  return { agent: agent.name, role, ...(policy ? { defaultRole: policy.defaultRole } : {}), runtime: runtime.label, systemMessage: message, tools: previewTools, subagents, notes };
}

function ownPrompt(model: ConfigModel, agent: AgentRef, readFile: (p: string) => string | undefined, notes: string[]): string {
  const mainPrompt = (): string => {
    if (model.systemPrompt) return model.systemPrompt.value;
    const file = model.systemPromptFile?.value;
    if (file === undefined) return "";
    const text = readFile(file);
    if (text === undefined) notes.push(`The system prompt file ${JSON.stringify(file)} could not be read; it is left out.`);
    return text ?? "";
  };
  if (agent.kind === "main") return mainPrompt();
  if (agent.kind === "general-purpose") {
    notes.push("The general-purpose subagent's prompt is the runtime's own text; it is summarised here.");
    return GENERAL_PURPOSE_PROMPT;
  }
  const own = agent.spec.systemPrompt?.value ?? "";
  // A fork continues the parent's conversation with the parent's prompt, its own appended (dist `resolveForkSystemPrompt`).
  if (isForked(model, agent.spec)) return [mainPrompt(), own].filter((p) => p !== "").join("\n\n");
  return own;
}

/** The skills an agent loads: the top-level ones for the main and general-purpose agents and forks; a subagent's own. */
function skillsOf(model: ConfigModel, agent: AgentRef): readonly Located<string>[] {
  if (agent.kind === "subagent" && !isForked(model, agent.spec)) return agent.spec.skills;
  return model.skills;
}

function skillsSection(entries: readonly Located<string>[], access: SkillFileAccess): string {
  const lines = ["## Skills", "", `Skill folders: ${entries.map((e) => e.value).join(", ")}.`];
  const skills = loadSkills(entries, access);
  if (skills.length > 0) lines.push("");
  for (const s of skills) {
    const name = s.frontmatter.name ?? s.folder;
    lines.push(`- ${name}${s.frontmatter.description ? `: ${s.frontmatter.description}` : ""} (read ${s.file} before using it)`);
  }
  return lines.join("\n");
}

/**
 * deepagents-py's `_route_host_path_prompt` (docs/reference/prompt.md): the heading, then a "Host path
 * mappings:" list (routes to a filesystem folder) and/or a "Virtual mounts without a host path mapping …" list
 * (every other route). The spec gives the headings, not every word of the lines: those are ours.
 */
function routeSection(routes: readonly { prefix: string; backend: BackendSpec }[]): string {
  const lines = ["## Shell paths vs. virtual paths"];
  const mapped = routes.filter((r) => r.backend.type === "filesystem" && r.backend.rootDir);
  const virtual = routes.filter((r) => !mapped.includes(r));
  if (mapped.length > 0) {
    lines.push("", "Host path mappings:");
    for (const { prefix, backend } of mapped) lines.push(`- ${prefix} → the host folder ${backend.type === "filesystem" ? backend.rootDir : ""}`);
  }
  if (virtual.length > 0) {
    lines.push("", "Virtual mounts without a host path mapping (shell commands cannot reach them):");
    for (const { prefix, backend } of virtual) lines.push(`- ${prefix}: ${describeBackendShape(backend, backend.provider, backend.name)}`);
  }
  return lines.join("\n");
}

function searchGuidance(grep: boolean, glob: boolean): string {
  if (grep && glob) return " Prefer the `grep` and `glob` tools to shell search commands.";
  if (grep) return " Prefer the `grep` tool to shell grep.";
  if (glob) return " Prefer the `glob` tool to shell find.";
  return "";
}

function append(message: string, text: string, separator: string): string {
  return message === "" ? text : `${message}${separator}${text}`;
}

/** A custom filesystem middleware's `toolDescriptions` replace the generated text entirely (docs/reference/prompt.md). */
function toolDescriptionsOverride(middlewareNode: JsonNode | undefined): Record<string, string> {
  const node = property(middlewareNode, "toolDescriptions");
  const out: Record<string, string> = {};
  if (node?.type !== "object") return out;
  for (const prop of node.children ?? []) {
    const [k, v] = prop.children ?? [];
    if (k && v?.type === "string") out[String(k.value)] = v.value as string;
  }
  return out;
}

/** The preview as markdown (`agent-sandbox prompt`). */
export function renderPromptPreview(preview: PromptPreview): string {
  const out: string[] = [];
  out.push(`# Prompt preview: \`${preview.agent}\``, "");
  const role = preview.role !== null ? `\`${preview.role}\`` : preview.defaultRole !== undefined ? `none (DeerFlow applies the default role \`${preview.defaultRole}\`)` : "none (no authorization)";
  out.push(`Role: ${role} · Runtime: ${preview.runtime}`, "");
  out.push("## System message", "");
  if (preview.systemMessage === "") out.push("_Empty: the model receives no system message._");
  else {
    const fence = "~".repeat(Math.max(3, longestRun(preview.systemMessage, "~") + 1));
    out.push(`${fence}text`, preview.systemMessage, fence);
  }
  out.push("", `## Tools (${preview.tools.length})`, "");
  if (preview.tools.length === 0) out.push("_None: the model sees no tools._");
  for (const t of preview.tools) out.push(`- \`${t.name}\`: ${t.description}`);
  if (preview.subagents.length > 0) {
    out.push("", "## Subagents offered by `task`", "");
    for (const s of preview.subagents) out.push(`- \`${s.name}\`: ${s.description}`);
  }
  if (preview.notes.length > 0) {
    out.push("");
    for (const n of preview.notes) out.push(`> ${n}`);
  }
  return `${out.join("\n")}\n`;
}

function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}
