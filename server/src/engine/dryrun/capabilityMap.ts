import { findAgent, rulesForAgent } from "../agents/agents";
import type { ConfigModel } from "../config/model";
import { decideToolPath } from "../permissions/decideToolPath";
import { CompiledRuleList } from "../permissions/ruleList";
import type { Operation } from "../runtime/runtime";
import type { WorkspaceSource } from "../workspace/source";

/** One file or folder of the sample workspace, and what the agent may do with it (cli.md `map`). */
export interface MapEntry {
  /** The virtual path (under the workspace's `mountAt`); folders without a trailing slash. */
  path: string;
  kind: "file" | "dir";
  read: Decision;
  write: Decision;
  /** 0-based index of the deciding rule in the agent's list; `null` when no rule matched. */
  readRule: number | null;
  writeRule: number | null;
  /** The deciding rules' patterns, for tooltips and the text tree. */
  readPattern?: string;
  writePattern?: string;
}

export type Decision = "allow" | "deny" | "interrupt" | "error";

/** Entries listed at most, so a workspace of a million files gives a bounded answer. */
export const MAX_MAP_ENTRIES = 200_000;

export interface CapabilityMap {
  agent: string;
  role: string | null;
  entries: MapEntry[];
  /** Set when the workspace had more entries than `MAX_MAP_ENTRIES`. */
  truncated?: boolean;
}

/**
 * The capability map: for every file and folder of the sample workspace, how the agent's rules decide a read and
 * a write of it under the config's runtime (the same decision the tools make before calling the backend).
 */
export function capabilityMap(model: ConfigModel, agentName: string, role: string | null, workspace: WorkspaceSource, maxEntries = MAX_MAP_ENTRIES): CapabilityMap | undefined {
  const agent = findAgent(model, agentName);
  if (!agent) return undefined;
  const rules = rulesForAgent(model, agent).list?.rules ?? [];
  const compiled = new CompiledRuleList(model.runtime, rules.map((r) => r.input));
  const mountAt = (model.workspace?.mountAt ?? "/workspace").replace(/\/+$/, "");
  const entries: MapEntry[] = [];
  let truncated = false;
  const decide = (op: Operation, path: string) => {
    const outcome = decideToolPath(model.runtime, compiled, op, path);
    const d = outcome.decision && outcome.decision.ruleIndex >= 0 ? outcome.decision : undefined;
    const rule = d ? rules[d.ruleIndex] : undefined;
    const paths = rule && Array.isArray(rule.input.paths) ? rule.input.paths : [];
    return { decision: outcome.outcome as Decision, rule: rule ? rule.index : null, pattern: d ? String(paths[d.patternIndex]) : undefined };
  };
  const stack: string[] = [""];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    const listed = [...(workspace.list(dir) ?? [])].sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    for (const e of listed) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.kind === "dir") stack.push(rel);
    }
    for (const e of listed.reverse()) {
      if (entries.length >= maxEntries) {
        truncated = true;
        break;
      }
      const rel = dir ? `${dir}/${e.name}` : e.name;
      const path = `${mountAt}/${rel}`;
      const r = decide("read", path);
      const w = decide("write", path);
      const entry: MapEntry = { path, kind: e.kind, read: r.decision, write: w.decision, readRule: r.rule, writeRule: w.rule };
      if (r.pattern !== undefined) entry.readPattern = r.pattern;
      if (w.pattern !== undefined) entry.writePattern = w.pattern;
      entries.push(entry);
    }
    if (truncated) break;
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const map: CapabilityMap = { agent: agent.name, role, entries };
  if (truncated) map.truncated = true;
  return map;
}
