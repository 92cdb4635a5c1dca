import { resolve, dirname } from "node:path";
import type { ConfigModel } from "../../engine/config/model";
import { capabilityMap, type CapabilityMap, type MapEntry } from "../../engine/dryrun/capabilityMap";
import { flag, oneOf, UsageError, type ParsedArgs } from "../args";
import { paint } from "../text";
import type { Io } from "../stdio";
import { hostWorkspace } from "../../host/workspace";


/** `agent-sandbox map CONFIG`: the capability map of the sample workspace (cli.md). `load` is main's config loader. */
export function map(args: ParsedArgs, io: Io, load: () => { model: ConfigModel; configPath: string; agent: string | undefined; role: string | null; exitCode: number } | undefined): number {
  const format = oneOf(flag(args, "format"), ["text", "json"] as const, "format", "text");
  const loaded = load();
  if (!loaded) return 2;
  const { model, role } = loaded;
  const agent = loaded.agent ?? "main";
  // --workspace DIR (relative to the working folder) gives the sample files to a config that names none, as a
  // source file's call never does; the config's own `root` is relative to the config.
  const given = flag(args, "workspace");
  const root = given ?? model.workspace?.root?.value;
  if (root === undefined) throw new UsageError("map needs the sample files to map: a `workspace` with a `root` in the config, or --workspace DIR");
  const workspace = hostWorkspace(given !== undefined ? resolve(given) : resolve(dirname(resolve(loaded.configPath)), root));
  if (!workspace) {
    io.err(`agent-sandbox: cannot read the sample workspace ${root}\n`);
    return 2;
  }
  const result = capabilityMap(model, agent, role, workspace)!;
  if (format === "json") {
    io.out(`${JSON.stringify({ agent: result.agent, role: result.role, ...(result.truncated ? { truncated: true } : {}), entries: result.entries.map(entryJson) }, null, 2)}\n`);
  } else io.out(mapText(result, model.workspace?.mountAt ?? "/workspace", io.color));
  return loaded.exitCode;
}

function entryJson(e: MapEntry) {
  return { path: e.path, kind: e.kind, read: e.read, write: e.write, readRule: e.readRule, writeRule: e.writeRule };
}

function decisionWords(op: string, d: string, rule: number | null, pattern: string | undefined, color: boolean): string {
  const c = d === "allow" ? "green" : d === "deny" || d === "error" ? "red" : "yellow";
  return `${op} ${paint(d, c, color)}${rule !== null ? ` (rule ${rule}: ${pattern})` : ""}`;
}

/** A text tree: one line per file and folder, indented by depth, with both decisions. */
export function mapText(map: CapabilityMap, mountAt: string, color: boolean): string {
  const base = mountAt.replace(/\/+$/, "");
  const lines = [`${base || "/"}  (agent ${map.agent}${map.role !== null ? `, role ${map.role}` : ""})`];
  for (const e of map.entries) {
    const rel = e.path.slice(base.length + 1);
    const depth = rel.split("/").length;
    const name = rel.split("/").at(-1)! + (e.kind === "dir" ? "/" : "");
    lines.push(`${"  ".repeat(depth)}${name}  ${decisionWords("read", e.read, e.readRule, e.readPattern, color)}, ${decisionWords("write", e.write, e.writeRule, e.writePattern, color)}`);
  }
  if (map.truncated) lines.push(`(the map stops after ${map.entries.length} entries)`);
  return `${lines.join("\n")}\n`;
}
