/**
 * The capability map as the Explorer and the Capability Map view show it, as plain data (no VS Code API, so that
 * node:test checks it): each sample file's relative path, its badge, colour and tooltip, and the tree's children.
 * Every decision comes from the server's answer (the engine's map); this only words it.
 */
import type { CapabilityMapEntry, CapabilityMapResult } from "../../server/src/protocol";

/** The four looks, one theme colour each (package.json `contributes.colors`). */
export type Access = "readWrite" | "partial" | "asks" | "none";
export const ACCESS_COLORS: Readonly<Record<Access, string>> = {
  readWrite: "agentSandbox.map.readWrite",
  partial: "agentSandbox.map.partial",
  asks: "agentSandbox.map.asks",
  none: "agentSandbox.map.none",
};

export interface EntryLook {
  /** Path relative to the sample folder ("src/app.py"): the real file is `workspace.root` plus this. */
  relative: string;
  name: string;
  kind: "file" | "dir";
  access: Access;
  /** At most two characters (VS Code's limit): R readable, W writable, ? asks for approval, ✕ neither. */
  badge: string;
  colorId: string;
  /** One line per operation, naming the deciding rule. */
  tooltip: string;
  /** Short words for the tree view ("read allow · write deny"). */
  description: string;
}

/** The path after `mountAt` ("/workspace/src/a.py" → "src/a.py"); `undefined` for a path outside it. */
export function relativeOf(mountAt: string, virtualPath: string): string | undefined {
  const base = mountAt.replace(/\/+$/, "");
  if (!virtualPath.startsWith(`${base}/`)) return undefined;
  const rel = virtualPath.slice(base.length + 1);
  return rel === "" ? undefined : rel;
}

type Operation = "read" | "write";
type Outcome = "allow" | "interrupt" | "no";

/** What the agent can do for one operation: the rule's decision, and whether any visible tool asks for it. */
function outcome(entry: CapabilityMapEntry, operation: Operation, tools: CapabilityMapResult["tools"]): Outcome {
  if (tools[operation].length === 0) return "no";
  const decision = entry[operation];
  return decision === "allow" ? "allow" : decision === "interrupt" ? "interrupt" : "no";
}

function ruleWords(entry: CapabilityMapEntry, operation: Operation): string {
  const rule = operation === "read" ? entry.readRule : entry.writeRule;
  const pattern = operation === "read" ? entry.readPattern : entry.writePattern;
  const decision = entry[operation];
  if (decision === "error") return `${operation}: error (the runtime rejects this path)`;
  if (rule === null) return `${operation}: ${decision} (no rule matches: the default allows)`;
  return `${operation}: ${decision} by rule ${rule} (${pattern})`;
}

function toolWords(operation: Operation, map: Pick<CapabilityMapResult, "tools" | "agent" | "role">): string {
  const tools = map.tools[operation];
  if (tools.length > 0) return `, with ${tools.join(", ")}`;
  return `, but ${map.agent}${map.role !== null ? ` as ${map.role}` : ""} has no ${operation} tool`;
}

/** How one entry looks for the agent and role of `map`. */
export function lookOf(entry: CapabilityMapEntry, map: Pick<CapabilityMapResult, "mountAt" | "tools" | "agent" | "role">): EntryLook | undefined {
  const relative = relativeOf(map.mountAt, entry.path);
  if (relative === undefined) return undefined;
  const read = outcome(entry, "read", map.tools);
  const write = outcome(entry, "write", map.tools);
  const symbol = (o: Outcome, letter: string) => (o === "allow" ? letter : o === "interrupt" ? "?" : "");
  const badge = symbol(read, "R") + symbol(write, "W") || "✕";
  const access: Access =
    read === "allow" && write === "allow" ? "readWrite" : read === "interrupt" || write === "interrupt" ? "asks" : read === "allow" || write === "allow" ? "partial" : "none";
  const who = `${map.agent}${map.role !== null ? ` (role ${map.role})` : ""}`;
  const tooltip = [`${entry.path}: ${who}`, ruleWords(entry, "read") + toolWords("read", map), ruleWords(entry, "write") + toolWords("write", map)].join("\n");
  const word = (o: Outcome, d: string) => (o === "no" && d === "allow" ? "no tool" : d);
  return {
    relative,
    name: relative.split("/").at(-1)!,
    kind: entry.kind,
    access,
    badge,
    colorId: ACCESS_COLORS[access],
    tooltip,
    description: `read ${word(read, entry.read)} · write ${word(write, entry.write)}`,
  };
}

/** Every entry's look, and the children of each folder ("" is the sample root): folders first, then by name. */
export function mapLooks(map: CapabilityMapResult): { looks: EntryLook[]; children: Map<string, EntryLook[]> } {
  const looks: EntryLook[] = [];
  const children = new Map<string, EntryLook[]>();
  for (const entry of map.entries) {
    const look = lookOf(entry, map);
    if (!look) continue;
    looks.push(look);
    const parent = look.relative.includes("/") ? look.relative.slice(0, look.relative.lastIndexOf("/")) : "";
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push(look);
  }
  for (const list of children.values()) list.sort((a, b) => (a.kind !== b.kind ? (a.kind === "dir" ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { looks, children };
}
