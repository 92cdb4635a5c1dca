import { getNodeValue } from "jsonc-parser";
import type { PermissionRuleInput } from "../permissions/ruleList";
import { runtimeById, type Runtime, type RuntimeId, RUNTIME_IDS } from "../runtime";
import { property, type JsonNode } from "./parse";
import { memo } from "../caches";
import type { DynamicValue } from "./dynamic";

/**
 * The config as the checks see it: typed where the file is well-formed, tolerant where it is not (the schema
 * check reports shape errors; the model keeps raw values because the runtimes use them raw, e.g. a string
 * `operations` is a substring test, docs/reference/paths.md V19). Every element keeps its node, so every finding has a range.
 */
export interface Located<T> {
  value: T;
  node: JsonNode;
}

export interface RuleSpec {
  /** 0-based position in its list (the CLI's `rule.index`). */
  index: number;
  node: JsonNode;
  input: PermissionRuleInput;
  operationsNode?: JsonNode;
  pathsNode?: JsonNode;
  modeNode?: JsonNode;
  /** Entries of `paths` when it is a list. */
  pathNodes: JsonNode[];
}

export type RuleListOwner =
  | { kind: "top-level" }
  | { kind: "subagent"; subagent: string }
  | { kind: "middleware"; agent: string; middlewareIndex: number };

export interface RuleListSpec {
  node: JsonNode;
  rules: RuleSpec[];
  owner: RuleListOwner;
  /** The backend the tools governed by these rules read and write (for checks like dot-segment-bypass). */
  servedBy: BackendSpec | undefined;
}

export type BackendType = "state" | "store" | "filesystem" | "sandbox" | "composite" | "custom";

export interface BackendSpec {
  node: JsonNode;
  type: BackendType | undefined;
  /** `factory: true`: given to the SDK as a function (only meaningful on the top-level backend). */
  factory: boolean;
  provider?: string;
  name?: string;
  /** `filesystem`: the real folder it serves. */
  rootDir?: string;
  capabilities?: { execute: boolean; delete: boolean };
  default?: BackendSpec;
  routes: { prefix: string; keyNode: JsonNode; backend: BackendSpec }[];
}

export interface MiddlewareSpec {
  node: JsonNode;
  index: number;
  /** In the top-level `middleware` list (else in a subagent's). */
  topLevel: boolean;
  /** Whose list it is in: "main", or the subagent's name (`#<index>` when it has none). */
  agent: string;
  type: string | undefined;
  name?: string;
  /** `tools` as written (`"all"`, a list, anything): normalised by the runtime rules of docs/reference/tools-and-backends.md. */
  tools?: Located<unknown>;
  permissions?: RuleListSpec;
  backend?: BackendSpec;
  systemPrompt?: Located<string>;
}

export type SubagentPermissions =
  | { kind: "omitted" }
  | { kind: "null"; node: JsonNode }
  | { kind: "list"; list: RuleListSpec };

export interface SubagentSpec {
  node: JsonNode;
  index: number;
  name: string | undefined;
  nameNode?: JsonNode;
  description?: Located<string>;
  systemPrompt?: Located<string>;
  mode: "handoff" | "fork";
  tools?: Located<string>[];
  permissions: SubagentPermissions;
  middleware: MiddlewareSpec[];
  skills: Located<string>[];
}

export interface ConfigModel {
  root: JsonNode;
  runtime: Runtime;
  runtimeNode?: JsonNode;
  compatibleWith: Located<Runtime>[];
  name?: string;
  systemPrompt?: Located<string>;
  systemPromptFile?: Located<string>;
  backend?: BackendSpec;
  tools: Located<string>[];
  permissions?: RuleListSpec;
  middleware: MiddlewareSpec[];
  subagents: SubagentSpec[];
  skills: Located<string>[];
  authorization?: JsonNode;
  workspace?: { root?: Located<string>; mountAt: string };
  /**
   * What a source front end could not read without running the code (config/dynamic.ts): left out of the fields
   * above, and the checks that would need it do not run. Absent for a JSONC config.
   */
  dynamic?: DynamicValue[];
}

/**
 * A node a source front end built from a Python set or tuple, or a JS `new Set([...])`: an array for every reader,
 * except where the runtime tells them apart (a filesystem middleware's `tools`, which deepagents-py reads only as a
 * list).
 */
export interface CollectionNode extends JsonNode {
  collection?: "set" | "tuple";
}

/** The value of a middleware's `tools` as the runtime receives it: a set or tuple stays one. */
function toolsValueOf(node: JsonNode): unknown {
  const value = getNodeValue(node);
  return (node as CollectionNode).collection && Array.isArray(value) ? new Set(value) : value;
}

/** `defaultRuntime`: the runtime of a config that names none (an unknown name still means deepagents-js). */
export function buildModel(root: JsonNode, defaultRuntime: RuntimeId = "deepagents-js"): ConfigModel {
  const runtimeNode = property(root, "runtime");
  const runtimeId = !runtimeNode ? defaultRuntime : RUNTIME_IDS.includes(runtimeNode.value) ? (runtimeNode.value as RuntimeId) : "deepagents-js";
  const backend = backendOf(property(root, "backend"));
  const middleware = middlewareListOf(property(root, "middleware"), "main", true);
  const customFs = middleware.filter((m) => m.type === "filesystem").at(-1);
  const permissionsNode = property(root, "permissions");
  const model: ConfigModel = {
    root,
    runtime: runtimeById(runtimeId),
    runtimeNode,
    compatibleWith: located(property(root, "compatibleWith"))
      .filter((e): e is Located<RuntimeId> => typeof e.value === "string" && RUNTIME_IDS.includes(e.value as RuntimeId))
      .map((e) => ({ value: runtimeById(e.value), node: e.node })),
    name: stringOf(property(root, "name"))?.value,
    systemPrompt: stringOf(property(root, "systemPrompt")),
    systemPromptFile: stringOf(property(root, "systemPromptFile")),
    backend,
    tools: strings(property(root, "tools")),
    // Top-level rules govern the main agent's tools only while no custom filesystem middleware replaces the
    // default one (docs/reference/tools-and-backends.md); they are still inherited by declarative subagents, so they keep the agent's backend.
    permissions: ruleListOf(permissionsNode, { kind: "top-level" }, customFs ? customFs.backend : backend),
    middleware,
    subagents: [],
    skills: strings(property(root, "skills")),
    authorization: property(root, "authorization"),
  };
  if (customFs && !customFs.backend && model.permissions) model.permissions.servedBy = backend;
  const workspaceNode = property(root, "workspace");
  if (workspaceNode?.type === "object") {
    model.workspace = { root: stringOf(property(workspaceNode, "root")), mountAt: stringOf(property(workspaceNode, "mountAt"))?.value ?? "/workspace" };
  }
  const subagentsNode = property(root, "subagents");
  if (subagentsNode?.type === "array") {
    subagentsNode.children?.forEach((node, index) => {
      if (node.type === "object") model.subagents.push(subagentOf(node, index, backend));
    });
  }
  return model;
}

function subagentOf(node: JsonNode, index: number, parentBackend: BackendSpec | undefined): SubagentSpec {
  const nameNode = property(node, "name");
  const name = typeof nameNode?.value === "string" ? nameNode.value : undefined;
  const label = name ?? `#${index}`;
  const permissionsNode = property(node, "permissions");
  const middleware = middlewareListOf(property(node, "middleware"), label);
  let permissions: SubagentPermissions = { kind: "omitted" };
  if (permissionsNode?.type === "null") permissions = { kind: "null", node: permissionsNode };
  else if (permissionsNode) {
    const list = ruleListOf(permissionsNode, { kind: "subagent", subagent: label }, parentBackend);
    if (list) permissions = { kind: "list", list };
  }
  const modeNode = property(node, "mode");
  return {
    node,
    index,
    name,
    nameNode,
    description: stringOf(property(node, "description")),
    systemPrompt: stringOf(property(node, "systemPrompt")),
    mode: modeNode?.value === "fork" ? "fork" : "handoff",
    tools: property(node, "tools") ? strings(property(node, "tools")) : undefined,
    permissions,
    middleware,
    skills: strings(property(node, "skills")),
  };
}

function middlewareListOf(node: JsonNode | undefined, agent: string, topLevel = false): MiddlewareSpec[] {
  if (node?.type !== "array") return [];
  const list: MiddlewareSpec[] = [];
  node.children?.forEach((entry, index) => {
    if (entry.type !== "object") return;
    const type = stringOf(property(entry, "type"))?.value;
    const backend = backendOf(property(entry, "backend"));
    const toolsNode = property(entry, "tools");
    list.push({
      node: entry,
      index,
      topLevel,
      agent,
      type,
      name: stringOf(property(entry, "name"))?.value,
      tools: toolsNode ? { value: toolsValueOf(toolsNode), node: toolsNode } : undefined,
      // A custom filesystem middleware without `backend` falls back to its own state backend (docs/reference/tools-and-backends.md).
      permissions: ruleListOf(property(entry, "permissions"), { kind: "middleware", agent, middlewareIndex: index }, backend ?? stateDefault(entry)),
      backend,
      systemPrompt: stringOf(property(entry, "systemPrompt")),
    });
  });
  return list;
}

function stateDefault(node: JsonNode): BackendSpec {
  return { node, type: "state", factory: true, routes: [] };
}

export function backendOf(node: JsonNode | undefined): BackendSpec | undefined {
  if (node?.type !== "object") return undefined;
  const typeValue = property(node, "type")?.value;
  const type = (["state", "store", "filesystem", "sandbox", "composite", "custom"] as const).find((t) => t === typeValue);
  const spec: BackendSpec = { node, type, factory: property(node, "factory")?.value === true, routes: [] };
  const provider = stringOf(property(node, "provider"));
  if (provider) spec.provider = provider.value;
  const name = stringOf(property(node, "name"));
  if (name) spec.name = name.value;
  const rootDir = stringOf(property(node, "rootDir"));
  if (rootDir) spec.rootDir = rootDir.value;
  const capabilities = property(node, "capabilities");
  if (capabilities?.type === "object") {
    spec.capabilities = { execute: property(capabilities, "execute")?.value === true, delete: property(capabilities, "delete")?.value === true };
  }
  spec.default = backendOf(property(node, "default"));
  const routes = property(node, "routes");
  for (const prop of routes?.type === "object" ? routes.children ?? [] : []) {
    const [keyNode, valueNode] = prop.children ?? [];
    const backend = backendOf(valueNode);
    if (keyNode && backend) spec.routes.push({ prefix: String(keyNode.value), keyNode, backend });
  }
  return spec;
}

export function ruleListOf(node: JsonNode | undefined, owner: RuleListOwner, servedBy: BackendSpec | undefined): RuleListSpec | undefined {
  if (node?.type !== "array") return undefined;
  const rules: RuleSpec[] = [];
  node.children?.forEach((ruleNode, index) => {
    // property() for the three keys, in one pass over the rule's properties (last one wins, as there).
    let operationsNode: JsonNode | undefined;
    let pathsNode: JsonNode | undefined;
    let modeNode: JsonNode | undefined;
    if (ruleNode.type === "object" && ruleNode.children) {
      for (const prop of ruleNode.children) {
        const pair = prop.children;
        const key = pair?.[0];
        if (!key) continue;
        if (key.value === "operations") operationsNode = pair![1];
        else if (key.value === "paths") pathsNode = pair![1];
        else if (key.value === "mode") modeNode = pair![1];
      }
    }
    rules.push({
      index,
      node: ruleNode,
      input: {
        operations: operationsNode ? getNodeValue(operationsNode) : undefined,
        paths: pathsNode ? getNodeValue(pathsNode) : undefined,
        mode: modeNode ? getNodeValue(modeNode) : undefined,
      },
      operationsNode,
      pathsNode,
      modeNode,
      pathNodes: pathsNode?.type === "array" ? pathsNode.children ?? [] : [],
    });
  });
  return { node, rules, owner, servedBy };
}

function stringOf(node: JsonNode | undefined): Located<string> | undefined {
  return node?.type === "string" ? { value: node.value as string, node } : undefined;
}

function strings(node: JsonNode | undefined): Located<string>[] {
  return located(node).filter((e): e is Located<string> => typeof e.value === "string");
}

function located(node: JsonNode | undefined): Located<unknown>[] {
  if (node?.type !== "array") return [];
  return (node.children ?? []).map((child) => ({ value: child.value, node: child }));
}

/** Every rule list in the file, in document order. */
export function allRuleLists(model: ConfigModel): RuleListSpec[] {
  // Asked by most checks of every run: worked out once per model (frozen, so no caller can change it for the others).
  let lists = ruleListsOf.get(model);
  if (!lists) ruleListsOf.set(model, (lists = Object.freeze(ruleListsNow(model)) as RuleListSpec[]));
  return lists;
}
const ruleListsOf = memo<ConfigModel, RuleListSpec[]>("config/model.ruleLists");

function ruleListsNow(model: ConfigModel): RuleListSpec[] {
  const lists: RuleListSpec[] = [];
  if (model.permissions) lists.push(model.permissions);
  for (const m of model.middleware) if (m.permissions) lists.push(m.permissions);
  for (const s of model.subagents) {
    if (s.permissions.kind === "list") lists.push(s.permissions.list);
    for (const m of s.middleware) if (m.permissions) lists.push(m.permissions);
  }
  return lists.sort((a, b) => a.node.offset - b.node.offset);
}
