import type { Finding } from "../engine/diagnostics";
import type { LineIndex } from "../engine/text";
import type { ConfigModel } from "../engine/config/model";
import { flag, UsageError, type ParsedArgs } from "./args";
import { later } from "./later";
import { unknownNameMessage } from "./output";
import { counted } from "./text";
import type { Io } from "./stdio";
import { noteInputCharacters } from "./v8Flags";
import { configTarget, noteDynamic, pickCall } from "./sourceConfig";

/** A file's text as the editor shows it (`readTextFile`), or why it cannot be read, once stderr has said so. */
export function readOrSay(file: string, io: Io): { text: string; byteOrderMark: boolean } | string {
  const { displayPath, fileErrorWords, readTextFile } = later.files();
  try {
    return readTextFile(file);
  } catch (error) {
    const cause = fileErrorWords(error);
    io.err(`agent-sandbox: cannot read ${displayPath(file)}: ${cause}\n`);
    return `cannot read (${cause})`;
  }
}

/** The one CONFIG argument of `explain`, `tools`, `prompt`, `map`, `export` and `import` (a file, or a source file's `FILE:LINE`). */
export function configArgument(args: ParsedArgs, command: string): string {
  const configPath = args.positionals[0];
  if (!configPath || args.positionals.length > 1) throw new UsageError(`${command} takes exactly one CONFIG file`);
  return configPath;
}

/**
 * `explain`, `tools` and `prompt` answer from the config as written. When `check` finds errors in it (a rule the
 * runtime refuses when the agent is built, a key it does not know), that answer alone reads as if all were well:
 * one line on stderr says so, with the first error; stdout keeps its contract, and the exit code is 1, as cli.md
 * gives every command with findings at error level. Returns how many errors there are.
 */
export function noteErrors(io: Io, shownPath: string, result: { findings: readonly Finding[]; lines: LineIndex }): number {
  let errors = 0;
  let first: Finding | undefined;
  for (const f of result.findings) {
    if (f.severity !== "error") continue;
    errors++;
    if (!first || f.span.start < first.span.start) first = f;
  }
  if (!first) return 0;
  const at = result.lines.positionAt(first.span.start);
  io.err(`agent-sandbox: note: ${shownPath} has ${counted(errors, "error")} (agent-sandbox check lists them); the first, at ${at.line + 1}:${at.character + 1}: ${first.message}\n`);
  return errors;
}

/**
 * Reads and models one CONFIG argument: a config file, or a source file's call (`FILE`, `FILE:LINE`, whose grammar
 * the caller has loaded: main.ts `afterGrammar`). A config that cannot be modelled is exit 2 with its first problem.
 */
export function loadModel(args: ParsedArgs, io: Io, command: string) {
  const target = configTarget(configArgument(args, command));
  const configPath = target.file;
  const { displayPath, relativeAccess } = later.files();
  const read = readOrSay(configPath, io);
  if (typeof read === "string") return undefined;
  const text = read.text;
  const access = relativeAccess(configPath);
  noteInputCharacters(text.length);
  let model: ConfigModel;
  let errors: number;
  if (target.language) {
    const picked = pickCall(target, text, access);
    model = picked.agent.model;
    errors = noteErrors(io, picked.shown, picked);
    noteDynamic(io, picked.shown, model.dynamic);
  } else {
    const result = later.checkConfig().checkConfigText(text, access);
    if (!result.model) {
      const first = result.findings[0];
      const where = first ? `:${result.lines.positionAt(first.span.start).line + 1}` : "";
      io.err(`agent-sandbox: ${displayPath(configPath)}${where}: ${first?.message ?? "not a configuration"}\n`);
      return undefined;
    }
    errors = noteErrors(io, displayPath(configPath), result);
    model = result.model;
  }
  const agent = flag(args, "agent");
  const { agentsOf, findAgent } = later.agents();
  if (agent !== undefined && !findAgent(model, agent)) {
    throw new UsageError(unknownNameMessage("agent", "Agents", agent, agentsOf(model).map((a) => a.name)));
  }
  const { role, policy } = roleOf(args, model);
  return { model, configPath, agent, role, roles: policy?.roles ?? [], readFile: access.readFile, listDirectory: access.listDirectory, exitCode: errors > 0 ? 1 : 0 };
}

/** `--role`, which must be a role of the config's enabled `authorization` block (explain, tools, prompt). */
export function roleOf(args: ParsedArgs, model: ConfigModel) {
  const role = flag(args, "role") ?? null;
  const policy = later.effectiveTools().policyOf(model);
  if (role !== null && !policy?.roles.includes(role)) {
    throw new UsageError(policy ? unknownNameMessage("role", "Roles", role, policy.roles) : "--role needs an enabled `authorization` block in the config");
  }
  return { role, policy };
}
