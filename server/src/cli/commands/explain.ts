import type { Operation } from "../../engine/runtime/runtime";
import type { ConfigModel } from "../../engine/config/model";
import { flag, oneOf, UsageError, type ParsedArgs } from "../args";
import { later } from "../later";
import { configArgument, loadModel } from "../loadModel";
import type { Io } from "../stdio";
import { paint } from "../text";

/** `agent-sandbox explain CONFIG --op read|write --path PATH`: which rule decides, and why. */
export function explain(args: ParsedArgs, io: Io): number {
  const format = oneOf(flag(args, "format"), ["text", "json"] as const, "format", "text");
  // The usage errors come before the file is read, in this order.
  configArgument(args, "explain");
  const op = oneOf(flag(args, "op"), ["read", "write"] as const, "op", "read") as Operation;
  if (!flag(args, "op")) throw new UsageError("explain needs --op read|write");
  const path = flag(args, "path");
  if (path === undefined) throw new UsageError("explain needs --path PATH");
  const loaded = loadModel(args, io, "explain");
  if (!loaded) return 2;
  const { model, role } = loaded;
  const agentName = loaded.agent ?? "main";
  const answer = later.explain().explainDecision(model, agentName, op, path);
  if (!answer.ok) throw new UsageError(answer.error);
  const e = answer.explanation;
  // The path rules do not know roles; authorization decides which tools a role may call at all. With --role, say
  // which of the operation's tools it can call: with none, no call of this agent ever reaches the rules.
  const roleTools = role === null ? undefined : roleToolsFor(model, agentName, role, op);
  const roleNote = roleTools === undefined || roleTools.callable.length > 0 ? ""
    : ` Role ${JSON.stringify(role)} may call none of ${roleTools.all.join(", ")} (hidden by ${[...new Set(roleTools.hiddenBy)].join(", ")}), so no ${op} call of this agent reaches the rules.`;
  if (format === "json") {
    io.out(`${JSON.stringify({ ...e, role, ...(roleTools ? { roleTools: roleTools.callable } : {}) }, null, 2)}\n`);
  } else {
    const colour = e.decision === "deny" || e.decision === "error" ? "red" : e.decision === "allow" ? "green" : "yellow";
    io.out(`${paint(e.decision.toUpperCase(), colour, io.color)}  ${e.summary}${roleNote}\n`);
  }
  return loaded.exitCode;
}

/** The operation's filesystem tools (docs/reference/decisions.md) that `role` can call as `agentName`, and why the others are hidden. */
function roleToolsFor(model: ConfigModel, agentName: string, role: string, op: Operation): { all: readonly string[]; callable: string[]; hiddenBy: string[] } {
  const all = later.runtime().TOOLS_BY_OPERATION[op];
  const tools = later.effectiveTools().effectiveTools(model, agentName, role) ?? [];
  const of = all.map((name) => tools.find((t) => t.name === name)).filter((t) => t !== undefined);
  return { all, callable: of.filter((t) => t.visible).map((t) => t.name), hiddenBy: of.filter((t) => !t.visible).map((t) => t.hiddenBy ?? "configuration") };
}
