/**
 * textDocument/completion: keys and values from the schema, and the names the engine knows for a place: tool
 * names (the eight built-ins, user tools declared in the file), operations, the runtime's modes, route prefixes
 * and sample-workspace paths inside path patterns, subagent names, role names. In dry-run files: agents, roles
 * and tools of the config the scenario names.
 */
import { createScanner, findNodeAtLocation, getLocation, type JSONPath, type Node } from "jsonc-parser";
import { CompletionItemKind, InsertTextFormat, type CompletionItem, type Range } from "vscode-languageserver/node";
import { KNOWN_RESOURCE_KEYS } from "../engine/authorization/rbac";
import type { ConfigModel } from "../engine/config/model";
import { parseJsonc } from "../engine/config/parse";
import { OPERATIONS } from "../engine/runtime";
import { agentNames, BUILTIN_TOOLS, declaredUserTools, roleNames, type Analysis, type SampleWorkspace } from "./engineFacade";
import { inMiddleware, pathEquals } from "./documentPlace";
import { keysAt, valuesAt } from "./schemaNavigator";

export interface CompletionInput {
  analysis: Analysis;
  offset: number;
  snippets: boolean;
  sample: () => Promise<SampleWorkspace | undefined>;
  /** For dry-run files: the model of the config the scenario names. */
  scenarioConfig: (relativePath: string) => ConfigModel | undefined;
}

export async function complete(input: CompletionInput): Promise<CompletionItem[]> {
  const { analysis, offset } = input;
  const text = analysis.text;
  // In a comment, nothing is proposed: an accepted key would be pasted into the comment's text.
  if (insideComment(text, offset)) return [];
  // A text the engine would not parse (too large, binary, nested past its limit) has nothing to complete, and
  // jsonc-parser's getLocation, which recurses once per level its parser enters, overflowed the stack on 20,000
  // levels. A text the engine parsed stays within that limit: its parser enters exactly the levels getLocation's does.
  // (Dry-run files have no config model: their tree comes from the engine's parser directly.)
  const parsed = analysis.model ? undefined : parseJsonc(text);
  if (parsed?.refused) return [];
  const location = getLocation(text, offset);
  const root = analysis.model?.root ?? parsed?.root;
  const previous = location.previousNode;
  const inString = previous && (previous.type === "string" || previous.type === "property") && offset > previous.offset && offset <= previous.offset + previous.length;
  const replace: Range = inString
    ? analysis.lines.rangeOf({ start: previous!.offset, end: previous!.offset + previous!.length })
    : analysis.lines.rangeOf({ start: offset, end: offset });

  if (location.isAtPropertyKey) {
    const objectPath = location.path.slice(0, -1);
    const after = text.slice(inString ? previous!.offset + previous!.length : offset).match(/^\s*(:)?/);
    const hasColon = !!after?.[1];
    const existing = existingKeys(root, objectPath);
    return keyItems(input, objectPath, root, existing, replace, hasColon);
  }
  const values = await valueProposals(input, location.path, root);
  return values.map((v, i) => ({
    label: typeof v.value === "string" ? v.value : JSON.stringify(v.value),
    kind: v.kind ?? CompletionItemKind.Value,
    sortText: String(i).padStart(5, "0"),
    ...(v.detail ? { detail: v.detail } : {}),
    ...(v.documentation ? { documentation: v.documentation } : {}),
    // Keep what was typed inside quotes as the filter: the item replaces the whole string, quotes included.
    filterText: JSON.stringify(v.value),
    textEdit: { range: replace, newText: v.snippet && input.snippets ? v.snippet : JSON.stringify(v.value) },
    ...(v.snippet && input.snippets ? { insertTextFormat: InsertTextFormat.Snippet } : {}),
  }));
}

/** jsonc-parser `SyntaxKind` values (a const enum, which isolated builds cannot inline; as in folding.ts). */
const LINE_COMMENT = 12, BLOCK_COMMENT = 13, EOF = 17;

/** The offset lies inside a line or block comment (after its opening, up to its end; a line comment to its line end). */
export function insideComment(text: string, offset: number): boolean {
  const scanner = createScanner(text, false);
  for (let kind: number = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    const start = scanner.getTokenOffset();
    if (start >= offset) return false;
    if (kind !== LINE_COMMENT && kind !== BLOCK_COMMENT) continue;
    const end = start + scanner.getTokenLength();
    const closed = kind === BLOCK_COMMENT && text.startsWith("*/", end - 2) && end - start >= 4;
    if (offset > start + 1 && (offset < end || (offset === end && !closed))) return true;
  }
  return false;
}

function existingKeys(root: Node | undefined, objectPath: JSONPath): Set<string> {
  const node = root && (objectPath.length ? findNodeAtLocation(root, objectPath) : root);
  const keys = new Set<string>();
  if (node?.type === "object") for (const p of node.children ?? []) if (typeof p.children?.[0]?.value === "string") keys.add(p.children[0].value);
  return keys;
}

function keyItems(input: CompletionInput, objectPath: JSONPath, root: Node | undefined, existing: Set<string>, replace: Range, hasColon: boolean): CompletionItem[] {
  const { analysis } = input;
  const model = analysis.model;
  let proposals: { key: string; description?: string; valueKind: string }[];
  if (analysis.kind === "config" && objectPath.at(-1) === "interruptOn") {
    proposals = toolNames(model, "all").map((key) => ({ key, valueKind: "boolean" }));
  } else if (analysis.kind === "config" && pathEquals(objectPath, ["authorization", "roles", "*"])) {
    proposals = KNOWN_RESOURCE_KEYS.map((key) => ({ key, valueKind: "object" }));
  } else if (analysis.kind === "config" && pathEquals(objectPath, ["authorization", "roles", "*", "*"])) {
    proposals = [{ key: "allow", valueKind: "other" }, { key: "deny", valueKind: "array" }];
  } else {
    proposals = keysAt(analysis.kind, root, objectPath);
  }
  const valueSnippet: Record<string, string> = { object: "{$1}", array: "[$1]", string: '"$1"', boolean: "${1:true}", number: "${1:1}", other: "$1" };
  return proposals
    .filter((p) => !existing.has(p.key))
    .map((p, i) => {
      const quoted = JSON.stringify(p.key);
      const snippet = hasColon ? quoted : input.snippets ? `${quoted}: ${valueSnippet[p.valueKind] ?? "$1"}` : `${quoted}: `;
      return {
        label: p.key,
        kind: CompletionItemKind.Property,
        sortText: String(i).padStart(5, "0"),
        filterText: quoted,
        ...(p.description ? { documentation: { kind: "markdown", value: p.description } } : {}),
        textEdit: { range: replace, newText: snippet },
        ...(input.snippets && !hasColon ? { insertTextFormat: InsertTextFormat.Snippet } : {}),
      } satisfies CompletionItem;
    });
}

interface ValueProposal {
  value: unknown;
  kind?: CompletionItemKind;
  detail?: string;
  documentation?: string;
  snippet?: string;
}

async function valueProposals(input: CompletionInput, path: JSONPath, root: Node | undefined): Promise<ValueProposal[]> {
  const { analysis } = input;
  const model = analysis.model;
  const out: ValueProposal[] = [];
  const add = (p: ValueProposal) => {
    if (!out.some((o) => JSON.stringify(o.value) === JSON.stringify(p.value))) out.push(p);
  };
  const last = path.at(-1);
  const parent = path.at(-2);

  if (analysis.kind === "config") {
    if (typeof last === "number" && parent === "operations") for (const op of OPERATIONS) add({ value: op, kind: CompletionItemKind.EnumMember, detail: "operation" });
    if (last === "operations") {
      for (const ops of [["read"], ["write"], ["read", "write"]]) add({ value: ops, kind: CompletionItemKind.EnumMember, detail: "operations" });
    }
    if (last === "mode" && model && !pathEquals(path, ["subagents", "#", "mode"])) {
      for (const mode of model.runtime.modes) add({ value: mode, kind: CompletionItemKind.EnumMember, detail: `mode (${model.runtime.label})` });
    }
    if (typeof last === "number" && parent === "paths" && model) {
      for (const p of await pathProposals(input, model)) add(p);
    }
    // A tool list names each tool once: the names already in it are not offered again.
    const listed = typeof last === "number" ? otherItems(root, path) : new Set<string>();
    const addTool = (t: string, detail: string) => {
      if (!listed.has(t)) add({ value: t, kind: CompletionItemKind.Function, detail });
    };
    if (typeof last === "number" && parent === "tools") {
      if (inMiddleware(path)) for (const t of BUILTIN_TOOLS) addTool(t, "filesystem tool");
      else if (pathEquals(path, ["subagents", "#", "tools", "#"])) for (const t of toolNames(model, "user")) addTool(t, "user tool");
      else if (pathEquals(path, ["tools", "#"])) for (const t of toolNames(model, "mentioned-user")) addTool(t, "user tool named elsewhere in this file");
    }
    if (typeof last === "number" && path[0] === "authorization" && path[1] === "roles" && path[3] === "tools" && (parent === "allow" || parent === "deny")) {
      for (const t of toolNames(model, "all")) addTool(t, "tool");
    }
    if (pathEquals(path, ["authorization", "default_role"]) && model) for (const r of roleNames(model)) add({ value: r, kind: CompletionItemKind.EnumMember, detail: "role" });
  } else {
    const configPath = root && findNodeAtLocation(root, ["config"])?.value;
    const config = typeof configPath === "string" ? input.scenarioConfig(configPath) : undefined;
    if (config && pathEquals(path, ["agent"])) for (const a of agentNames(config)) add({ value: a, kind: CompletionItemKind.Class, detail: "agent" });
    if (config && pathEquals(path, ["role"])) for (const r of roleNames(config)) add({ value: r, kind: CompletionItemKind.EnumMember, detail: "role" });
    if (config && last === "subagent_type") for (const a of agentNames(config).filter((n) => n !== "main")) add({ value: a, kind: CompletionItemKind.Class, detail: "subagent" });
    if (last === "tool") for (const t of [...toolNames(config, "all")]) add({ value: t, kind: CompletionItemKind.Function, detail: "tool" });
  }
  // What the engine knows for a place beats the schema's examples (e.g. `mode`: only the runtime's own modes).
  if (out.length > 0) return out;
  for (const v of valuesAt(analysis.kind, root, path)) {
    add({ value: v.value, kind: CompletionItemKind.Value, ...(v.description ? { documentation: v.description } : {}) });
  }
  return out;
}

/** The strings of the list that holds `path`'s item, but for that item itself (the one being written). */
function otherItems(root: Node | undefined, path: JSONPath): Set<string> {
  const list = root && findNodeAtLocation(root, path.slice(0, -1));
  const items = new Set<string>();
  if (list?.type !== "array") return items;
  (list.children ?? []).forEach((item, i) => {
    if (i !== path.at(-1) && typeof item.value === "string") items.add(item.value);
  });
  return items;
}

/** Tool names for a place: every tool the file can name, user tools it declares, or user tools named but not declared. */
function toolNames(model: ConfigModel | undefined, which: "all" | "user" | "mentioned-user"): string[] {
  const declared = model ? declaredUserTools(model) : [];
  if (which === "user") return declared;
  if (which === "all") return [...BUILTIN_TOOLS, "task", ...declared.filter((t) => !BUILTIN_TOOLS.includes(t) && t !== "task")];
  const mentioned = new Set<string>();
  const interruptOn = model && findNodeAtLocation(model.root, ["interruptOn"]);
  for (const p of interruptOn?.type === "object" ? interruptOn.children ?? [] : []) if (typeof p.children?.[0]?.value === "string") mentioned.add(p.children[0].value);
  const roles = model && findNodeAtLocation(model.root, ["authorization", "roles"]);
  for (const role of roles?.type === "object" ? roles.children ?? [] : []) {
    for (const list of ["allow", "deny"]) {
      const node = role.children?.[1] && findNodeAtLocation(role.children[1], ["tools", list]);
      for (const item of node?.type === "array" ? node.children ?? [] : []) if (typeof item.value === "string" && item.value !== "*") mentioned.add(item.value);
    }
  }
  const taken = new Set(model?.tools.map((t) => t.value) ?? []);
  return [...mentioned].filter((t) => !BUILTIN_TOOLS.includes(t) && t !== "task" && !taken.has(t));
}

/** Inside a path pattern: route prefixes, the mount point, and sample-workspace files and folders. */
async function pathProposals(input: CompletionInput, model: ConfigModel): Promise<ValueProposal[]> {
  const out: ValueProposal[] = [];
  const routes = new Set<string>();
  const walk = (b: ConfigModel["backend"]) => {
    if (!b) return;
    for (const r of b.routes) {
      routes.add(r.prefix);
      walk(r.backend);
    }
    walk(b.default);
  };
  walk(model.backend);
  for (const m of model.middleware) walk(m.backend);
  for (const prefix of routes) out.push({ value: `${prefix.endsWith("/") ? prefix : `${prefix}/`}**`, kind: CompletionItemKind.Folder, detail: "everything under a route" });
  const sample = await input.sample();
  if (sample) {
    const mount = sample.mountAt.endsWith("/") ? sample.mountAt.slice(0, -1) : sample.mountAt;
    out.push({ value: `${mount}/**`, kind: CompletionItemKind.Folder, detail: "the whole sample workspace" });
    for (const folder of sample.folders) out.push({ value: `${folder}/**`, kind: CompletionItemKind.Folder, detail: "sample folder" });
    for (const file of sample.files) out.push({ value: file, kind: CompletionItemKind.File, detail: "sample file" });
  }
  return out;
}
