import { BatchedOutput, listedName, writeJsonList } from "../output";
import { flag, oneOf, type ParsedArgs } from "../args";
import { later } from "../later";
import { loadModel } from "../loadModel";
import type { Io } from "../stdio";
import { hiddenToolLines, paint, toolsWords } from "../text";

/** `agent-sandbox tools CONFIG`: each agent's effective tools, per role when the config has authorization. */
export function tools(args: ParsedArgs, io: Io): number {
  const format = oneOf(flag(args, "format"), ["text", "json"] as const, "format", "text");
  const loaded = loadModel(args, io, "tools");
  if (!loaded) return 2;
  const { model, agent, role, roles } = loaded;
  const { effectiveTools } = later.effectiveTools();
  const out = new BatchedOutput(io.out);
  const agentNames = agent !== undefined ? [agent] : later.agents().agentsOf(model).map((a) => a.name);
  // Without --role: no role, and one entry per role as well when the config has authorization (cli.md).
  const rolesToShow: (string | null)[] = role !== null ? [role] : [null, ...roles];
  const entryOf = (name: string, r: string | null): ToolsEntry => ({ agent: name, role: r, tools: effectiveTools(model, name, r) ?? [] });
  if (format === "json") {
    // The contract's document, one agent × role entry after another (never all of them in memory at once).
    writeJsonList(out, "agents", (function* () {
      for (const name of agentNames) for (const r of rolesToShow) yield entryOf(name, r);
    })());
    return loaded.exitCode;
  }
  for (const name of agentNames) {
    if (role !== null) {
      out.add(toolsText(entryOf(name, role), io.color));
      continue;
    }
    out.add(toolsText(entryOf(name, null), io.color));
    for (const group of groupRoles(roles, (r) => entryOf(name, r))) out.add(group.roles.length === 1 ? toolsText(group.entry, io.color) : groupText(group, io.color));
  }
  out.flush();
  return loaded.exitCode;
}

interface ToolsEntry {
  agent: string;
  role: string | null;
  tools: import("../../engine/agents/effectiveTools").EffectiveTool[];
}

/** One agent × role entry of `tools`' text output: the visible tools on one line, then the hidden ones by reason. */
function toolsText(entry: ToolsEntry, color: boolean): string {
  const visible = entry.tools.filter((t) => t.visible);
  let text = `${paint(entry.agent, "bold", color)}${entry.role !== null ? ` (role ${entry.role})` : ""}: ${toolsWords(visible.map((t) => t.name))}\n`;
  return text + hiddenToolLines(entry.tools.filter((t) => !t.visible), color);
}

/** Roles of one agent whose effective tools are the same but for the role's own name in the reasons. */
interface RoleGroup {
  roles: string[];
  /** The first role's entry. */
  entry: ToolsEntry;
  /** Each hidden tool's reason with the role's name as QUOTED_ROLE (as a JSON string) or ROLE (in DeerFlow's single quotes). */
  reasons: string[];
}

/** Stand for the role's name in a group's reasons; a role whose name holds either is never grouped. */
const QUOTED_ROLE = "\u0000";
const ROLE = "\u0001";

/**
 * The roles grouped by their effective tools, in the order each group's first role comes in the config. A
 * role's tools are its group's key with the role's name taken out of the reasons (`denied by DeerFlow's
 * authorization to role "x"`): two roles are in one group exactly when their entries differ only where each names itself,
 * so printing the group's reasons with `<role>` in those places says what each entry says. A role whose name or
 * reasons already hold one of the two marks (a tool named with a control character) is a group of its own.
 */
function groupRoles(roles: readonly string[], entryOf: (role: string) => ToolsEntry): RoleGroup[] {
  const groups = new Map<string, RoleGroup>();
  let alone = 0;
  // One entry at a time, kept only when it starts a group: 10,000 roles' tool lists held at once cost more in
  // garbage collection than computing them.
  for (const role of roles) {
    const entry = entryOf(role);
    let groupable = role !== "" && !role.includes(QUOTED_ROLE) && !role.includes(ROLE);
    const quoted = JSON.stringify(role);
    const reasons: string[] = [];
    // The key: each tool, visible (+) or hidden (-) with its step and reason, every string prefixed with its
    // length, so that no name or reason, whatever it holds, can make two different lists read the same.
    const key: string[] = [];
    for (const t of entry.tools) {
      if (t.visible) {
        key.push(`+${t.name.length}:${t.name}`);
        continue;
      }
      const reason = `${t.reason}`;
      if (reason.includes(QUOTED_ROLE) || reason.includes(ROLE)) groupable = false;
      // Only where the reason names the role, quoted (`role "x"`, and DeerFlow's `role 'x'`): a role named `a`
      // must not take the letter out of "needs a sandbox backend".
      const general = groupable && reason.includes(role) ? reason.replaceAll(quoted, QUOTED_ROLE).replaceAll(`'${role}'`, `'${ROLE}'`) : reason;
      reasons.push(general);
      key.push(`-${t.name.length}:${t.name}${`${t.hiddenBy}`.length}:${t.hiddenBy}${general.length}:${general}`);
    }
    const id = groupable ? key.join("") : `*${alone++}`;
    const group = groups.get(id);
    if (group) group.roles.push(role);
    else groups.set(id, { roles: [role], entry, reasons });
  }
  return [...groups.values()];
}

/** Text lines are wrapped here: role lists can hold thousands of names. */
const WRAP_COLUMN = 100;

/**
 * Several roles with the same tools: `main (3 roles): 2 tools: ls, read_file`, then every role's name (wrapped),
 * then the hidden tools by reason, with `<role>` where each role's reason names the role.
 */
function groupText(group: RoleGroup, color: boolean): string {
  const { entry, roles, reasons } = group;
  const visible = entry.tools.filter((t) => t.visible);
  let text = `${paint(entry.agent, "bold", color)} (${roles.length.toLocaleString("en")} roles): ${toolsWords(visible.map((t) => t.name))}\n`;
  let line = "  roles:";
  roles.forEach((role, i) => {
    const word = `${listedName(role)}${i < roles.length - 1 ? "," : ""}`;
    if (line.length + 1 + word.length > WRAP_COLUMN && line.trim() !== "roles:") {
      text += `${line}\n`;
      line = `   `;
    }
    line += ` ${word}`;
  });
  text += `${line}\n`;
  const hidden = entry.tools.filter((t) => !t.visible).map((t, i) => ({ ...t, reason: reasons[i]!.split(QUOTED_ROLE).join('"<role>"').split(ROLE).join("<role>") }));
  return text + hiddenToolLines(hidden, color);
}
