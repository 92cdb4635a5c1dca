// First: it must be in place before the imports below load the engine's bundle.
import "./compileCache";
import { noteInputCharacters, setAnalysisV8Flags } from "./v8Flags";
import { realpathSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { CheckOptions } from "../engine/checkConfig";
import type { Finding, Severity } from "../engine/diagnostics";
import type { LineIndex } from "../engine/text";
import type { DiagnosticJson } from "../engine/output";
import type { Operation } from "../engine/runtime/runtime";
import type { ConfigModel } from "../engine/config/model";
import { flag, oneOf, onlyOptions, parseArgs, UsageError, type ParsedArgs } from "./args";
import { BatchedOutput, listedName, unknownNameMessage, writeJsonList } from "./output";
import { isTerminal, writeAll } from "./stdio";
import { counted, hiddenToolLines, paint, textReport, toolsWords } from "./text";
import { pathToFileURL } from "node:url";

/**
 * What only some commands or options need, loaded when one does: start-up is most of a CLI run on a small file
 * (bench/cli.ts), and each module costs its load and initialisation.
 */
const later = {
  // The engine itself: `--version`, `--help` and a mistyped option run without loading it (a mistyped command
  // loads only the engine's did-you-mean, to name the command meant).
  checkConfig: () => require("../engine/checkConfig") as typeof import("../engine/checkConfig"),
  diagnostics: () => require("../engine/diagnostics") as typeof import("../engine/diagnostics"),
  checks: () => require("../engine/checks/index") as typeof import("../engine/checks/index"),
  didYouMean: () => require("../engine/didYouMean") as typeof import("../engine/didYouMean"),
  agents: () => require("../engine/agents/agents") as typeof import("../engine/agents/agents"),
  output: () => require("../engine/output") as typeof import("../engine/output"),
  // Shared with the language server, so it lives in the engine's bundle.
  files: () => require("./files") as typeof import("./files"),
  dryRun: () => require("../engine/checkDryRun") as typeof import("../engine/checkDryRun"),
  explain: () => require("../engine/explain") as typeof import("../engine/explain"),
  effectiveTools: () => require("../engine/agents/effectiveTools") as typeof import("../engine/agents/effectiveTools"),
  runtime: () => require("../engine/runtime/runtime") as typeof import("../engine/runtime/runtime"),
  promptPreview: () => require("../engine/agents/promptPreview") as typeof import("../engine/agents/promptPreview"),
  fixes: () => require("../engine/fixes") as typeof import("../engine/fixes"),
  analysis: () => (require("../engine/analysisLoader") as typeof import("../engine/analysisLoader")).exactAnalysis(),
  sarif: () => require("./sarif") as typeof import("./sarif"),
  workspace: () => require("./workspace") as typeof import("./workspace"),
};

declare const AGENT_SANDBOX_VERSION: string;
const VERSION = typeof AGENT_SANDBOX_VERSION === "string" ? AGENT_SANDBOX_VERSION : "dev";
// The installed package's own docs folder, as a `file:` URI: the pages of this version, readable offline (no web
// page of the product is assumed). SARIF's `helpUri` must be an absolute URI, which this is. The folder is beside
// the bundle's dist/, or three folders up when run from server/src/cli. (The language server's docsLocation.ts
// answers the same question; importing it here would load the engine's bundle at start-up, where build.mjs keeps
// every module two entries share.)
const DOCS = pathToFileURL(resolve(__dirname, basename(__dirname) === "cli" ? "../../.." : "..", "docs")).href;

const USAGE = `agent-sandbox ${VERSION}: see and check your agents' sandbox configuration

Usage:
  agent-sandbox check [PATH ...] [--format text|json|sarif] [--fix] [--severity CODE=LEVEL ...] [--no-analysis]
  agent-sandbox explain CONFIG --op read|write --path PATH [--agent NAME] [--role ROLE] [--format text|json]
  agent-sandbox tools CONFIG [--agent NAME] [--role ROLE] [--format text|json]
  agent-sandbox prompt CONFIG [--agent NAME] [--role ROLE] [--format text|json]
  agent-sandbox dry-run [SCENARIO|FOLDER ...] [--format text|json|junit] [--junit FILE]
  agent-sandbox dry-run --from-messages RUN.json --config CONFIG [--agent NAME] [--role ROLE] [--write SCENARIO]
  agent-sandbox map CONFIG [--agent NAME] [--role ROLE] [--format text|json]

PATH: config files (agent-sandbox.jsonc, *.agent-sandbox.jsonc), dry-run files (*.dryrun.jsonc) or folders
to search (default: the current folder; node_modules, .git, dist, out and .vscode-test are not searched, a
file named on the command line is always checked). --no-analysis leaves out the exact rule-order analysis (rule-shadowed,
rule-redundant, rule-partially-shadowed, runtime-divergence, dotfiles-unprotected, subagent-escalation's paths), the slowest part on
configs with hundreds of rules. LEVEL: error, warning, information, hint or off.
Exit codes: 0 nothing at error level, 1 findings at error level (or --fix stopped with safe fixes left), 2 the
command could not run.
`;

interface Io {
  out(text: string): void;
  err(text: string): void;
  color: boolean;
}

/** The options each command takes (cli.md); any other is a usage error rather than silently ignored. */
const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  check: ["format", "fix", "severity", "analysis", "no-analysis"],
  explain: ["op", "path", "agent", "role", "format"],
  tools: ["agent", "role", "format"],
  prompt: ["agent", "role", "format"],
  "dry-run": ["format", "junit", "from-messages", "config", "write", "agent", "role"],
  map: ["agent", "role", "format"],
};

export function main(argv: readonly string[], io: Io): number {
  let args: ParsedArgs;
  try {
    args = parseArgs(argv, { values: ["format", "severity", "op", "path", "agent", "role", "junit", "from-messages", "config", "write"], repeatable: ["severity"], booleans: ["fix", "help", "version", "analysis", "no-analysis"] });
    if (flag(args, "analysis") && flag(args, "no-analysis")) throw new UsageError("--analysis and --no-analysis contradict each other; give one");
    if (flag(args, "version")) {
      io.out(`${VERSION}\n`);
      return 0;
    }
    if (flag(args, "help") || args.command === "help") {
      io.out(USAGE);
      return 0;
    }
    // No command is a usage error like any other: the usage goes where errors go, so a script's stdout stays empty.
    if (args.command === undefined) {
      io.err(`agent-sandbox: no command given\n${USAGE}`);
      return 2;
    }
    const options = COMMAND_OPTIONS[args.command];
    if (options) onlyOptions(args, args.command, options);
    switch (args.command) {
      case "check":
        return check(args, io);
      case "explain":
        return explain(args, io);
      case "tools":
        return tools(args, io);
      case "prompt":
        return prompt(args, io);
      case "dry-run":
        return (require("./dryRun") as typeof import("./dryRun")).dryRun(args, io);
      case "map":
        return (require("./map") as typeof import("./map")).map(args, io, () => loadModel(args, io, "map"));
      default: {
        const commands = [...Object.keys(COMMAND_OPTIONS), "help"];
        const near = later.didYouMean().didYouMean(args.command, commands);
        throw new UsageError(`unknown command "${args.command}"${near ? `; did you mean "${near}"?` : ` (commands: ${commands.join(", ")})`}`);
      }
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`agent-sandbox: ${error.message}\nRun "agent-sandbox --help" for usage.\n`);
      return 2;
    }
    // Never a stack trace for the user; the message is still there for a bug report.
    io.err(`agent-sandbox: internal error: ${(error as Error).message}\n`);
    return 2;
  }
}

function severityOverrides(args: ParsedArgs): Record<string, Severity | "off"> {
  const overrides: Record<string, Severity | "off"> = {};
  const entries = args.flags.get("severity") ?? [];
  const codes = entries.length > 0 ? later.checks().knownCodes() : [];
  for (const entry of entries) {
    const [code, level, ...extra] = entry.split("=");
    const levels: string[] = [...later.diagnostics().SEVERITIES, "off"];
    if (!code || !level || extra.length > 0 || !levels.includes(level)) {
      throw new UsageError(`--severity takes CODE=LEVEL with LEVEL one of ${levels.join(", ")} (got "${entry}")`);
    }
    if (!codes.includes(code)) {
      // A misspelt code would otherwise change nothing, silently: the user believes a check is off that still runs.
      const near = later.didYouMean().didYouMean(code, codes);
      throw new UsageError(`--severity: no check has the code "${code}"${near ? `; did you mean "${near}"?` : ` (every code has a page in ${DOCS}/checks)`}`);
    }
    overrides[code] = level as Severity | "off";
  }
  return overrides;
}

interface FileReport {
  path: string;
  diagnostics: DiagnosticJson[];
  /**
   * What the checks left unchecked (a work budget, a construct without an automaton), said once per file: they
   * stayed silent there rather than guess. Present only when something was skipped.
   */
  skipped?: { what: string; why: string; checks: string[]; range: DiagnosticJson["range"] }[];
  /**
   * Why the file was not checked (it could not be read: `diagnostics` is empty) or not fixed (`--fix` could not
   * write it: `diagnostics` are the unfixed text's). Also said on stderr; present only then, and the exit code is 2.
   */
  error?: string;
}

function check(args: ParsedArgs, io: Io): number {
  const format = oneOf(flag(args, "format"), ["text", "json", "sarif"] as const, "format", "text");
  const fix = !!flag(args, "fix");
  const severities = severityOverrides(args);
  const targets = args.positionals.length ? args.positionals : ["."];
  const { asWritten, displayPath, findFiles, isConfigFileName, isDirectory, isDryRunFileName, relativeAccess } = later.files();
  const files: string[] = [];
  // A file named twice (`d d/agent-sandbox.jsonc ./d`, or reached through a link) is checked, fixed and counted
  // once, under the first name that is not a link's, if any.
  const named = new Map<string, number>();
  const add = (file: string) => {
    const key = sameFileKey(file);
    const at = named.get(key);
    if (at === undefined) {
      named.set(key, files.push(file) - 1);
    } else if (resolve(file) === key && resolve(files[at]!) !== key) {
      files[at] = file;
    }
  };
  for (const target of targets) {
    if (isDirectory(target)) findFiles(target, (n) => isConfigFileName(n) || isDryRunFileName(n)).forEach(add);
    else add(target);
  }
  // The analysis bundle is loaded before any file changes V8's flags (the analysis, or a long input, v8Flags.ts):
  // every bundle is then loaded, and its compiled code cached, under the same flags, which V8 stamps on cached code
  // (a cache stamped with other flags is refused by the next run).
  if (analysisWanted(args) && files.some((f) => !isDryRunFileName(basename(f)))) later.analysis();
  const reports: FileReport[] = [];
  let unreadable = 0;
  let unwritable = 0;
  // Files whose --fix stopped at its bound with safe fixes left: exit 1, work is left.
  let unfinished = 0;
  for (const file of files) {
    const read = readOrSay(file, io);
    if (typeof read === "string") {
      unreadable++;
      reports.push({ path: displayPath(file), diagnostics: [], error: read });
      continue;
    }
    const { text, byteOrderMark } = read;
    const dryRun = isDryRunFileName(basename(file));
    const options: CheckOptions = { ...relativeAccess(file), severities, analysis: analysisWanted(args) };
    // A run of seconds from here on, not of milliseconds: optimised code pays, and the young heap may grow in
    // bigger steps (v8Flags.ts).
    if (options.analysis && !dryRun) setAnalysisV8Flags();
    // With --fix, the rounds read only safe fixes (checkConfigText's `fixRound`), and the text reported is checked
    // in full once, at the end, reusing their analysis.
    const fixRounds = fix && !dryRun;
    const run = (t: string) => {
      noteInputCharacters(t.length);
      return dryRun ? { ...later.dryRun().checkDryRunText(t, { ...later.workspace().scenarioCheckOptions(file), severities: options.severities }), model: undefined, skipped: [] } : later.checkConfig().checkConfigText(t, fixRounds ? { ...options, fixRound: true } : options);
    };
    let result = run(text);
    let reportedText = text;
    // A file that does not parse is read with error recovery, and an edit worked out on that reading may land
    // anywhere: nothing is fixed until the syntax is (as linters do with a file they cannot parse).
    const syntaxErrors = fix && result.findings.some((f: Finding) => f.code === "json-syntax");
    if (syntaxErrors) io.err(`agent-sandbox: ${displayPath(file)}: has JSON syntax errors; --fix changes nothing in it until they are fixed\n`);
    let writeError: string | undefined;
    if (fix && !dryRun && !syntaxErrors) {
      const unfixed = result;
      // Fixes can touch the same lines; apply what does not overlap, re-check, repeat (the editor's fix-all too).
      const all = later.fixes().applyAllSafeFixes(text, result, run);
      const applied = all.applied;
      const fixed = all.text;
      result = all.result;
      reportedText = fixed;
      if (!all.complete) {
        unfinished++;
        io.err(`agent-sandbox: ${displayPath(file)}: stopped after ${all.rounds} rounds of fixes with safe fixes left; run --fix again\n`);
      }
      if (fixed !== text) {
        try {
          writeFileSync(file, asWritten(fixed, byteOrderMark));
          io.err(`agent-sandbox: ${displayPath(file)}: ${applied.length} safe fix${applied.length === 1 ? "" : "es"} applied (${countedCodes(applied.map((a) => a.code))})\n`);
          for (const a of applied) io.err(`  ${a.code}: ${a.did}\n`);
        } catch (error) {
          // The file is as it was: report what it says, and say why it was not fixed (exit 2, like an unreadable file).
          writeError = `cannot write the fixes (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the file is unchanged`;
          io.err(`agent-sandbox: ${displayPath(file)}: ${writeError}\n`);
          result = unfixed;
          reportedText = text;
          unwritable++;
        }
      }
    }
    if (fixRounds) {
      noteInputCharacters(reportedText.length);
      result = later.checkConfig().checkAfterFixRounds(reportedText, options);
    }
    const report: FileReport = { path: displayPath(file), diagnostics: result.findings.map((f: Finding) => later.output().toDiagnosticJson(f, result.lines)) };
    if (writeError) report.error = writeError;
    if (result.skipped.length > 0) {
      report.skipped = result.skipped.map((s) => ({
        what: s.what,
        why: s.why,
        checks: [...s.checks],
        range: { start: result.lines.positionAt(s.span.start), end: result.lines.positionAt(s.span.end) },
      }));
    }
    reports.push(report);
  }
  if (files.length === 0) {
    io.err(`agent-sandbox: no config or dry-run files found in ${targets.join(", ")}\n`);
    return 2;
  }
  // `files` counts the files checked; `failed`, present only then, those that could not be read or written.
  const summary: { files: number; errors: number; warnings: number; information: number; hints: number; failed?: number } = {
    files: reports.length - unreadable, errors: 0, warnings: 0, information: 0, hints: 0,
  };
  if (unreadable + unwritable > 0) summary.failed = unreadable + unwritable;
  for (const r of reports) {
    for (const d of r.diagnostics) {
      if (d.severity === "error") summary.errors++;
      else if (d.severity === "warning") summary.warnings++;
      else if (d.severity === "information") summary.information++;
      else summary.hints++;
    }
  }
  if (format === "json") io.out(`${JSON.stringify({ files: reports, summary }, null, 2)}\n`);
  else if (format === "sarif") io.out(`${JSON.stringify(later.sarif().toSarif(reports, VERSION, DOCS), null, 2)}\n`);
  else io.out(textReport(reports, summary, io.color, unreadable, unwritable));
  if (unreadable + unwritable > 0) return 2;
  return summary.errors > 0 || unfinished > 0 ? 1 : 0;
}

function explain(args: ParsedArgs, io: Io): number {
  const format = oneOf(flag(args, "format"), ["text", "json"] as const, "format", "text");
  const configPath = args.positionals[0];
  if (!configPath || args.positionals.length > 1) throw new UsageError("explain takes exactly one CONFIG file");
  const op = oneOf(flag(args, "op"), ["read", "write"] as const, "op", "read") as Operation;
  if (!flag(args, "op")) throw new UsageError("explain needs --op read|write");
  const path = flag(args, "path");
  if (path === undefined) throw new UsageError("explain needs --path PATH");
  const { displayPath, relativeAccess } = later.files();
  const read = readOrSay(configPath, io);
  if (typeof read === "string") return 2;
  const text = read.text;
  noteInputCharacters(text.length);
  const result = later.checkConfig().checkConfigText(text, relativeAccess(configPath));
  if (!result.model) {
    const first = result.findings[0];
    const where = first ? `:${result.lines.positionAt(first.span.start).line + 1}` : "";
    io.err(`agent-sandbox: ${displayPath(configPath)}${where}: ${first?.message ?? "not a configuration"}\n`);
    return 2;
  }
  const errors = noteErrors(io, displayPath(configPath), result);
  const agentName = flag(args, "agent") ?? "main";
  // The engine's own answer lists every agent: with 10,000 subagents, a screenful of names before the point.
  const { agentsOf, findAgent } = later.agents();
  if (!findAgent(result.model, agentName)) throw new UsageError(unknownNameMessage("agent", "Agents", agentName, agentsOf(result.model).map((a) => a.name)));
  const { role } = roleOf(args, result.model);
  const answer = later.explain().explainDecision(result.model, agentName, op, path);
  if (!answer.ok) throw new UsageError(answer.error);
  const e = answer.explanation;
  // The path rules do not know roles; authorization decides which tools a role may call at all. With --role, say
  // which of the operation's tools it can call: with none, no call of this agent ever reaches the rules.
  const roleTools = role === null ? undefined : roleToolsFor(result.model, agentName, role, op);
  const roleNote = roleTools === undefined || roleTools.callable.length > 0 ? ""
    : ` Role ${JSON.stringify(role)} may call none of ${roleTools.all.join(", ")} (hidden by ${[...new Set(roleTools.hiddenBy)].join(", ")}), so no ${op} call of this agent reaches the rules.`;
  if (format === "json") {
    io.out(`${JSON.stringify({ ...e, role, ...(roleTools ? { roleTools: roleTools.callable } : {}) }, null, 2)}\n`);
  } else {
    const colour = e.decision === "deny" || e.decision === "error" ? "red" : e.decision === "allow" ? "green" : "yellow";
    io.out(`${paint(e.decision.toUpperCase(), colour, io.color)}  ${e.summary}${roleNote}\n`);
  }
  return errors > 0 ? 1 : 0;
}

/** A file's text as the editor shows it (`readTextFile`), or why it cannot be read, once stderr has said so. */
function readOrSay(file: string, io: Io): { text: string; byteOrderMark: boolean } | string {
  const { displayPath, fileErrorWords, readTextFile } = later.files();
  try {
    return readTextFile(file);
  } catch (error) {
    const cause = fileErrorWords(error);
    io.err(`agent-sandbox: cannot read ${displayPath(file)}: ${cause}\n`);
    return `cannot read (${cause})`;
  }
}

/** The file a path names, for telling two spellings of one file apart: its real path when it exists. */
function sameFileKey(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

/** `rule-empty, path-not-absolute ×2`: the codes of the fixes applied, each once, in the order first applied. */
function countedCodes(codes: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const c of codes) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts].map(([code, n]) => (n === 1 ? code : `${code} ×${n}`)).join(", ");
}

/**
 * `explain`, `tools` and `prompt` answer from the config as written. When `check` finds errors in it (a rule the
 * runtime refuses when the agent is built, a key it does not know), that answer alone reads as if all were well:
 * one line on stderr says so, with the first error; stdout keeps its contract, and the exit code is 1, as cli.md
 * gives every command with findings at error level. Returns how many errors there are.
 */
function noteErrors(io: Io, shownPath: string, result: { findings: readonly Finding[]; lines: LineIndex }): number {
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

/** Reads and models one CONFIG argument; a config that cannot be modelled is exit 2 with its first problem. */
function loadModel(args: ParsedArgs, io: Io, command: string) {
  const configPath = args.positionals[0];
  if (!configPath || args.positionals.length > 1) throw new UsageError(`${command} takes exactly one CONFIG file`);
  const { displayPath, relativeAccess } = later.files();
  const read = readOrSay(configPath, io);
  if (typeof read === "string") return undefined;
  const text = read.text;
  const access = relativeAccess(configPath);
  noteInputCharacters(text.length);
  const result = later.checkConfig().checkConfigText(text, access);
  if (!result.model) {
    const first = result.findings[0];
    const where = first ? `:${result.lines.positionAt(first.span.start).line + 1}` : "";
    io.err(`agent-sandbox: ${displayPath(configPath)}${where}: ${first?.message ?? "not a configuration"}\n`);
    return undefined;
  }
  const errors = noteErrors(io, displayPath(configPath), result);
  const model = result.model;
  const agent = flag(args, "agent");
  const { agentsOf, findAgent } = later.agents();
  if (agent !== undefined && !findAgent(model, agent)) {
    throw new UsageError(unknownNameMessage("agent", "Agents", agent, agentsOf(model).map((a) => a.name)));
  }
  const { role, policy } = roleOf(args, model);
  return { model, agent, role, roles: policy?.roles ?? [], readFile: access.readFile, listDirectory: access.listDirectory, exitCode: errors > 0 ? 1 : 0 };
}

/** `--role`, which must be a role of the config's enabled `authorization` block (explain, tools, prompt). */
function roleOf(args: ParsedArgs, model: ConfigModel) {
  const role = flag(args, "role") ?? null;
  const policy = later.effectiveTools().policyOf(model);
  if (role !== null && !policy?.roles.includes(role)) {
    throw new UsageError(policy ? unknownNameMessage("role", "Roles", role, policy.roles) : "--role needs an enabled `authorization` block in the config");
  }
  return { role, policy };
}

/** The operation's filesystem tools (docs/reference/decisions.md) that `role` can call as `agentName`, and why the others are hidden. */
function roleToolsFor(model: ConfigModel, agentName: string, role: string, op: Operation): { all: readonly string[]; callable: string[]; hiddenBy: string[] } {
  const all = later.runtime().TOOLS_BY_OPERATION[op];
  const tools = later.effectiveTools().effectiveTools(model, agentName, role) ?? [];
  const of = all.map((name) => tools.find((t) => t.name === name)).filter((t) => t !== undefined);
  return { all, callable: of.filter((t) => t.visible).map((t) => t.name), hiddenBy: of.filter((t) => !t.visible).map((t) => t.hiddenBy ?? "configuration") };
}

function tools(args: ParsedArgs, io: Io): number {
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
  tools: import("../engine/agents/effectiveTools").EffectiveTool[];
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

function prompt(args: ParsedArgs, io: Io): number {
  const format = oneOf(flag(args, "format"), ["text", "json"] as const, "format", "text");
  const loaded = loadModel(args, io, "prompt");
  if (!loaded) return 2;
  const { promptPreview, renderPromptPreview } = later.promptPreview();
  const preview = promptPreview(loaded.model, loaded.agent ?? "main", loaded.role, loaded.readFile, { listDirectory: loaded.listDirectory });
  if (!preview) throw new UsageError(`No agent named ${JSON.stringify(loaded.agent)}`);
  io.out(format === "json" ? `${JSON.stringify(preview, null, 2)}\n` : renderPromptPreview(preview));
  return loaded.exitCode;
}

if (require.main === module) {
  const code = main(process.argv.slice(2), {
    out: (t) => writeAll(1, t),
    err: (t) => writeAll(2, t),
    color: isTerminal(1) && !process.env.NO_COLOR,
  });
  // At once: everything was written synchronously (stdio.ts) and nothing else is pending (the CLI starts no timer,
  // promise or worker), so there is nothing to wait for. Left to end by itself, Node first lets the event loop and
  // V8's background tasks run out (optimising code that will never run again): 4 to 10 ms of a 1,000-rule check
  // (`node --import tsx bench/cli.ts --runs 31 --cli BEFORE --cli AFTER`, 4 Dec, three comparisons: 160 → 150,
  // 172 → 162 and 157 → 153 ms above Node's start-up; 7 ms less CPU time by `perf stat`). The compile cache's
  // `exit` handler still runs.
  process.exit(code);
}

/**
 * The exact rule-order analysis runs unless `--no-analysis` says otherwise: the findings it gives (a deny after a
 * broader allow that never fires) are the ones this product exists for, and cli.md's own `check` example is one.
 * `--analysis`, its opt-in spelling from before it was the default, is still accepted and changes nothing.
 */
function analysisWanted(args: ParsedArgs): boolean {
  return !flag(args, "no-analysis");
}
