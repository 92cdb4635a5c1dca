/**
 * textDocument/hover. What each hover says comes from the engine (effective tools, prompt preview, the rule list's
 * decision function, the runtime's pattern compiler); this file picks the subject at the caret and lays it out.
 */
import type { JSONPath } from "jsonc-parser";
import { MarkupKind, type Hover } from "vscode-languageserver/node";
import type { ConfigModel } from "../engine/config/model";
import { Commands, type AgentCommandArgs } from "../protocol";
import { agentOfPath, commandLink, inMiddleware, pathEquals, placeAt, type Place } from "./documentPlace";
import {
  agentsGovernedBy,
  BUILTIN_TOOLS,
  effectiveToolTables,
  operationsOf,
  patternFacts,
  promptPreviewMarkdown,
  renderToolTable,
  roleNames,
  ruleAt,
  rulesCovering,
  sampleFilesDecidedBy,
  toolDescription,
  type Analysis,
  type SampleWorkspace,
} from "./engineFacade";
import { deerFlowHover } from "./deerflowHover";
import { descriptionAt } from "./schemaNavigator";
import { didYouMean } from "../engine/didYouMean";
import { valueText } from "../engine/text";
import { toolOperation } from "../engine/runtime/runtime";

/** How many sample files a hover lists before "and N more". */
const LIST_LIMIT = 5;
/** Lines of the prompt preview shown in a hover; the link opens the whole of it. */
const PREVIEW_LINES = 14;

export interface HoverInput {
  analysis: Analysis;
  uri: string;
  fsPath: string;
  offset: number;
  sample: () => Promise<SampleWorkspace | undefined>;
}

export async function hover(input: HoverInput): Promise<Hover | null> {
  const { analysis, offset } = input;
  const problems = problemDetails(analysis, offset);
  const model = analysis.model;
  const place = analysis.kind === "config" && model ? placeAt(model.root, offset) : undefined;
  const deerflow = analysis.kind === "deerflow-config" && model ? deerFlowHover(model, offset) : undefined;
  const markdown = place && model ? await hoverText(input, model, place) : deerflow?.markdown;
  if (!markdown && !problems) return null;
  const span = place ? { start: place.node.offset, end: place.node.offset + place.node.length } : deerflow ? deerflow.span : problems!.span;
  return {
    contents: { kind: MarkupKind.Markdown, value: [problems?.markdown, markdown].filter((m) => m).join("\n\n---\n\n") },
    range: analysis.lines.rangeOf(span),
  };
}

/**
 * The detail of each diagnostic under the caret (the runtime's own words, the witness's story): a diagnostic has
 * no field for it, and VS Code shows a diagnostic's message in the hover of its range, so this is where the user
 * reading that message finds the rest, just below it. Plain text, escaped so that none of it reads as markdown.
 */
function problemDetails(analysis: Analysis, offset: number): { markdown: string; span: { start: number; end: number } } | undefined {
  const here = analysis.findings.filter((f) => f.detail !== undefined && f.span.start <= offset && offset <= f.span.end);
  if (here.length === 0) return undefined;
  const markdown = here.map((f) => `**Problem** (${escapeMarkdown(f.code)}): ${escapeMarkdown(f.message)}\n\n${escapeMarkdown(f.detail!)}`).join("\n\n");
  // Without a hover of its own, the hover spans the narrowest of these findings.
  const span = here.reduce((a, b) => (b.span.end - b.span.start < a.span.end - a.span.start ? b : a)).span;
  return { markdown, span };
}

/** Plain text as markdown that shows it as written (backslash before every character markdown could act on). */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+\-.!|~&]/g, (c) => `\\${c}`);
}

async function hoverText(input: HoverInput, model: ConfigModel, place: Place): Promise<string | undefined> {
  const { path, isKey, node } = place;
  const agent = agentOfPath(model, path);
  const last = path.at(-1);
  const value = typeof node.value === "string" ? node.value : undefined;

  // Agent and subagent names; `tools` and `middleware` keys: the agent's effective tool table.
  if (agent && !isKey && (pathEquals(path, ["name"]) || pathEquals(path, ["subagents", "#", "name"]))) {
    return agentTables(model, pathEquals(path, ["name"]) ? "main" : agent, input.uri);
  }
  if (agent && isKey && (last === "tools" || last === "middleware") && (path.length === 1 || pathEquals(path, ["subagents", "#", last]))) {
    return agentTables(model, agent, input.uri);
  }
  // A role: its effective tools (main agent).
  if (isKey && pathEquals(path, ["authorization", "roles", "*"]) && typeof last === "string") return roleHover(model, last);
  if (!isKey && pathEquals(path, ["authorization", "default_role"]) && value !== undefined) return roleHover(model, value);
  // systemPrompt: the start of the preview.
  if ((last === "systemPrompt" || last === "systemPromptFile") && (path.length === 1 || pathEquals(path, ["subagents", "#", last])) && agent) {
    return promptHover(input, model, agent);
  }
  // Tool names.
  if (value !== undefined && !isKey && isToolNamePlace(path)) {
    // A filesystem middleware's `tools` is an allowlist of the eight filesystem tools: any other name there is a
    // name the runtime ignores (tool-unknown reports it), not a user tool.
    if (path[path.length - 2] === "tools" && inMiddleware(path) && !BUILTIN_TOOLS.includes(value)) {
      const near = didYouMean(value, BUILTIN_TOOLS);
      return `**\`${value}\`**: not a filesystem tool, and a filesystem middleware's \`tools\` names only those (${BUILTIN_TOOLS.map((t) => `\`${t}\``).join(", ")}): ${model.runtime.label} silently ignores it.${near ? ` Did you mean \`${near}\`?` : ""}`;
    }
    return toolHover(input, model, value, toolAgent(model, path));
  }
  if (isKey && pathEquals(path.slice(-2), ["interruptOn", "*"]) && typeof last === "string") return toolHover(input, model, last, toolAgent(model, path));
  // Permission rules and their path patterns.
  const located = ruleAt(model, node.offset);
  if (located) {
    const sample = await input.sample();
    const isPattern = !isKey && value !== undefined && path.at(-2) === "paths" && typeof last === "number";
    return isPattern ? patternHover(model, value, sample) : ruleHover(model, located, sample);
  }
  if (isKey) return descriptionAt(input.analysis.kind, model.root, path);
  return undefined;
}

function agentTables(model: ConfigModel, agent: string, uri: string): string | undefined {
  const tables = effectiveToolTables(model, agent);
  if (tables.length === 0) return undefined;
  const args: AgentCommandArgs = { uri, agent };
  const out = [`### Effective tools of \`${agent}\``, ""];
  for (const t of tables) out.push(renderToolTable(t), "");
  out.push(`${commandLink("Preview prompt", Commands.previewPrompt, args)} · ${commandLink("Explain…", Commands.explainDecision, args)}`);
  return out.join("\n");
}

function roleHover(model: ConfigModel, role: string): string | undefined {
  if (!roleNames(model).includes(role)) return `Role \`${role}\` is not declared under \`authorization.roles\`${roleNames(model).length ? ` (roles: ${roleNames(model).map((r) => `\`${r}\``).join(", ")})` : ""}.`;
  const tables = effectiveToolTables(model, "main", role);
  return [`### Role \`${role}\``, "", ...tables.map((t) => renderToolTable(t))].join("\n");
}

function promptHover(input: HoverInput, model: ConfigModel, agent: string): string | undefined {
  const markdown = promptPreviewMarkdown(model, input.fsPath, agent, null);
  if (!markdown) return undefined;
  const lines = markdown.split("\n");
  let start = lines.slice(0, PREVIEW_LINES).join("\n");
  // Never leave a code fence open in the excerpt.
  if ((start.match(/^(~{3,}|`{3,})/gm)?.length ?? 0) % 2 === 1) start += `\n${/^(~{3,}|`{3,})/m.exec(start)![1]}`;
  const more = lines.length > PREVIEW_LINES ? "\n\n…" : "";
  return `${start}${more}\n\n${commandLink("Open the full prompt preview", Commands.previewPrompt, { uri: input.uri, agent, role: null } satisfies AgentCommandArgs)}`;
}

/** Places whose string value is a tool name. */
function isToolNamePlace(path: JSONPath): boolean {
  const n = path.length;
  if (typeof path[n - 1] !== "number") return false;
  if (pathEquals(path, ["tools", "#"]) || pathEquals(path, ["subagents", "#", "tools", "#"])) return true;
  if (path[n - 2] === "tools" && inMiddleware(path)) return true;
  // authorization.roles.<role>.tools.allow|deny[i]
  return path[0] === "authorization" && path[1] === "roles" && path[3] === "tools" && (path[4] === "allow" || path[4] === "deny") && n === 6;
}

function toolAgent(model: ConfigModel, path: JSONPath): string {
  return agentOfPath(model, path) ?? "main";
}

function toolHover(input: HoverInput, model: ConfigModel, tool: string, agent: string): string {
  const out: string[] = [];
  const builtin = BUILTIN_TOOLS.includes(tool);
  const kind = builtin ? "filesystem tool" : tool === "task" ? "the subagent tool" : "user tool (its code is in your app)";
  out.push(`**\`${tool}\`**: ${kind}`);
  const description = toolDescription(model, input.fsPath, agent, tool);
  if (description) out.push("", description);
  const operation = toolOperation(tool);
  if (builtin) {
    out.push("", operation ? `Path rules decide it as a **${operation}** (\`operations: ["${operation}"]\`).` : "It takes no path: path rules do not govern it.");
  } else out.push("", "Path rules do not govern it.");
  const row = effectiveToolTables(model, agent, null)[0]?.tools.find((t) => t.name === tool);
  if (row) out.push("", row.visible ? `Agent \`${agent}\` sees it.` : `Agent \`${agent}\` does not see it: ${row.reason ?? row.hiddenBy}.`);
  else if (!builtin) out.push("", `Agent \`${agent}\` does not have it.`);
  const rules = operation ? rulesCovering(model, agent, operation) : undefined;
  if (operation && rules) {
    const covering = rules.rules;
    if (covering.length === 0) out.push("", `No rule of agent \`${agent}\` covers ${operation} (${rules.why}): every path is allowed.`);
    else {
      out.push("", `Rules of agent \`${agent}\` that cover ${operation} (${rules.why}), first match wins:`, "");
      for (const r of covering.slice(0, LIST_LIMIT)) out.push(`- rule ${r.index}: ${modeWords(r.input.mode)} ${pathsWords(r.input.paths)}`);
      if (covering.length > LIST_LIMIT) out.push(`- … and ${covering.length - LIST_LIMIT} more`);
    }
  }
  return out.join("\n");
}

function ruleHover(model: ConfigModel, located: NonNullable<ReturnType<typeof ruleAt>>, sample: SampleWorkspace | undefined): string {
  const { list, rule } = located;
  const out: string[] = [];
  const owner = list.owner.kind === "top-level" ? "the top-level permissions" : list.owner.kind === "subagent" ? `the permissions of subagent \`${list.owner.subagent}\`` : `middleware #${list.owner.middlewareIndex} of \`${list.owner.agent}\``;
  const operations = operationsOf(model, rule);
  out.push(`**Rule ${rule.index}** of ${owner}: ${modeWords(rule.input.mode)} ${operations.length ? operations.join(" and ") : "no operation"} on ${pathsWords(rule.input.paths)}`);
  const governed = agentsGovernedBy(model, list);
  out.push("", governed.length ? `Governs the filesystem tools of ${governed.map((a) => `\`${a}\``).join(", ")} (${model.runtime.label}; first match wins, unmatched paths are allowed).` : "No agent's tools use this list as written: see the diagnostics on it.");
  if (!sample) {
    out.push("", "Add `workspace.root` (a folder of sample files) to see which files this rule decides.");
    return out.join("\n");
  }
  const decisions = sampleFilesDecidedBy(model, list, rule, sample);
  if (decisions.length === 0) out.push("", "It covers no operation, so it decides nothing.");
  for (const d of decisions) {
    out.push("", `**${d.operation}**: decides ${d.decided.length} of ${sample.files.length} sample files${sample.truncated ? " (listing truncated)" : ""}${d.decided.length ? ":" : "."}`);
    out.push(...listed(d.decided));
  }
  return out.join("\n");
}

function patternHover(model: ConfigModel, pattern: string, sample: SampleWorkspace | undefined): string {
  const facts = patternFacts(model, pattern, sample);
  const out = [`**Pattern** \`${pattern}\` (${model.runtime.label} glob matcher, against the canonical tool path)`];
  if (facts.unusable) {
    out.push("", `The runtime cannot use it: ${facts.unusable}`);
    return out.join("\n");
  }
  if (facts.exact) out.push("", `Matches exactly the path \`${pattern}\`.`);
  else if (facts.literalPrefix) out.push("", `Every path it matches starts with \`${facts.literalPrefix}\`.`);
  else out.push("", "Its matches share no literal start.");
  if (!sample) {
    out.push("", "Add `workspace.root` (a folder of sample files) to see which files it matches.");
    return out.join("\n");
  }
  out.push("", `Matches ${facts.matchedFiles.length} of ${sample.files.length} sample files${facts.matchedFiles.length ? ":" : "."}`);
  out.push(...listed(facts.matchedFiles));
  if (facts.matchedFolders.length) out.push("", `and ${facts.matchedFolders.length} folder${facts.matchedFolders.length === 1 ? "" : "s"}: ${facts.matchedFolders.slice(0, LIST_LIMIT).map((f) => `\`${f}\``).join(", ")}${facts.matchedFolders.length > LIST_LIMIT ? ", …" : ""}`);
  return out.join("\n");
}

function listed(paths: readonly string[]): string[] {
  const out = paths.slice(0, LIST_LIMIT).map((p) => `- \`${p}\``);
  if (paths.length > LIST_LIMIT) out.push(`- … and ${paths.length - LIST_LIMIT} more`);
  return out;
}

function modeWords(mode: unknown): string {
  return mode === undefined ? "`allow` (mode omitted)" : `\`${typeof mode === "string" ? mode : JSON.stringify(mode)}\``;
}

function pathsWords(paths: unknown): string {
  if (!Array.isArray(paths)) return `paths ${JSON.stringify(paths)}`;
  const shown = paths.slice(0, 4).map((p) => `\`${valueText(p)}\``).join(", ");
  return paths.length > 4 ? `${shown}, … (${paths.length} patterns)` : shown || "no paths";
}
