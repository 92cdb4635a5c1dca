// First: it must be in place before the imports below load the engine's bundle.
import "./compileCache";
import { flag, onlyOptions, parseArgs, UsageError, type ParsedArgs } from "./args";
import { check } from "./commands/check";
import { explain } from "./commands/explain";
import { prompt } from "./commands/prompt";
import { tools } from "./commands/tools";
import { later } from "./later";
import { loadModel } from "./loadModel";
import { VERSION } from "./product";
import { afterGrammar, configTarget, mayNameSource } from "./sourceConfig";
import { isTerminal, writeAll, type Io } from "./stdio";

const USAGE = `agent-sandbox ${VERSION}: see and check your agents' sandbox configuration

Usage:
  agent-sandbox check [PATH ...] [--format text|json|sarif] [--fix] [--severity CODE=LEVEL ...] [--no-analysis]
  agent-sandbox explain CONFIG --op read|write --path PATH [--agent NAME] [--role ROLE] [--format text|json]
  agent-sandbox tools CONFIG [--agent NAME] [--role ROLE] [--format text|json]
  agent-sandbox prompt CONFIG [--agent NAME] [--role ROLE] [--format text|json]
  agent-sandbox dry-run [SCENARIO|FOLDER ...] [--format text|json|junit] [--junit FILE]
  agent-sandbox dry-run --from-messages RUN.json --config CONFIG [--agent NAME] [--role ROLE] [--write SCENARIO]
  agent-sandbox map CONFIG [--agent NAME] [--role ROLE] [--workspace DIR] [--format text|json]
  agent-sandbox export CONFIG --to ts|py [--format text|json]
  agent-sandbox import FILE[:LINE] [--out PATH [--force]] [--format text|json]

PATH: config files (agent-sandbox.jsonc, *.agent-sandbox.jsonc), dry-run files (*.dryrun.jsonc), DeerFlow's
config.yaml (any *.yaml named) and SKILL.md files, checked in place, TypeScript, JavaScript and Python files that
call deepagents' createDeepAgent / create_deep_agent (read, never run), or folders
to search (default: the current folder; node_modules, .git, dist, out and .vscode-test are not searched, a
file named on the command line is always checked). --no-analysis leaves out the exact rule-order analysis (rule-shadowed,
rule-redundant, rule-partially-shadowed, runtime-divergence, dotfiles-unprotected, subagent-escalation's paths), the slowest part on
configs with hundreds of rules. LEVEL: error, warning, information, hint or off.
CONFIG: a config file, or a source file that calls createDeepAgent / create_deep_agent (FILE, or FILE:LINE for
the call on that line when the file has several); values only running the code would tell are said on stderr.
import writes the agent-sandbox.jsonc such a call describes (to stdout, or to --out PATH, which it overwrites only
with --force); what it cannot read becomes a comment. map's --workspace DIR: the sample files to map, for a config
without a workspace (a source file has none).
Exit codes: 0 nothing at error level, 1 findings at error level (or --fix stopped with safe fixes left), 2 the
command could not run.
`;

/** The options each command takes (cli.md); any other is a usage error rather than silently ignored. */
const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  check: ["format", "fix", "severity", "analysis", "no-analysis"],
  explain: ["op", "path", "agent", "role", "format"],
  tools: ["agent", "role", "format"],
  prompt: ["agent", "role", "format"],
  "dry-run": ["format", "junit", "from-messages", "config", "write", "agent", "role"],
  map: ["agent", "role", "workspace", "format"],
  export: ["to", "format"],
  import: ["out", "write", "force", "format"],
};

/** The exit code; a promise of it only when a command had to wait (`check` loading a source file's grammar). */
export function main(argv: readonly string[], io: Io): number | Promise<number> {
  let args: ParsedArgs;
  try {
    args = parseArgs(argv, { values: ["format", "severity", "op", "path", "agent", "role", "junit", "from-messages", "config", "write", "to", "out", "workspace"], repeatable: ["severity"], booleans: ["fix", "help", "version", "analysis", "no-analysis", "force"] });
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
      case "dry-run": {
        const ran = (require("./commands/dryRun") as typeof import("./commands/dryRun")).dryRun(args, io);
        return typeof ran === "number" ? ran : ran.catch((error: unknown) => failed(error, io));
      }
      case "explain":
      case "tools":
      case "prompt":
      case "map":
      case "export":
      case "import": {
        // A source file's CONFIG needs its grammar, loaded (asynchronously) before the command reads it.
        const command = args.command;
        const only = args.positionals.length === 1 ? args.positionals[0]! : undefined;
        const target = only !== undefined && mayNameSource(only) ? configTarget(only) : undefined;
        const ran = afterGrammar(target, () => guarded(io, () => configCommand(command, args, io)));
        if (typeof ran === "number") return ran;
        return ran.then(undefined, (error: Error) => {
          io.err(`agent-sandbox: cannot load the parser for source files: ${error.message}\n`);
          return 2;
        });
      }
      default: {
        const commands = [...Object.keys(COMMAND_OPTIONS), "help"];
        const near = later.didYouMean().didYouMean(args.command, commands);
        throw new UsageError(`unknown command "${args.command}"${near ? `; did you mean "${near}"?` : ` (commands: ${commands.join(", ")})`}`);
      }
    }
  } catch (error) {
    return failed(error, io);
  }
}

/** The commands that read one CONFIG (a config file or a source file's call). */
function configCommand(command: string, args: ParsedArgs, io: Io): number {
  switch (command) {
    case "explain":
      return explain(args, io);
    case "tools":
      return tools(args, io);
    case "prompt":
      return prompt(args, io);
    case "map":
      return (require("./commands/map") as typeof import("./commands/map")).map(args, io, () => loadModel(args, io, "map"));
    case "export":
      return (require("./commands/export") as typeof import("./commands/export")).exportCode(args, io);
    default:
      return (require("./commands/import") as typeof import("./commands/import")).importConfigFile(args, io);
  }
}

/** A command run after the grammar loaded: its usage errors and failures are said as main's own. */
function guarded(io: Io, run: () => number): number {
  try {
    return run();
  } catch (error) {
    return failed(error, io);
  }
}

function failed(error: unknown, io: Io): number {
  if (error instanceof UsageError) {
    io.err(`agent-sandbox: ${error.message}\nRun "agent-sandbox --help" for usage.\n`);
    return 2;
  }
  // Never a stack trace for the user; the message is still there for a bug report.
  io.err(`agent-sandbox: internal error: ${(error as Error).message}\n`);
  return 2;
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
  // (`node --import tsx bench/cli.ts --runs 31 --cli BEFORE --cli AFTER`, three comparisons: 160 → 150,
  // 172 → 162 and 157 → 153 ms above Node's start-up; 7 ms less CPU time by `perf stat`). The compile cache's
  // `exit` handler still runs. (`check` of a source file waits for its grammar first.)
  if (typeof code === "number") process.exit(code);
  else void code.then((c) => process.exit(c), () => process.exit(2));
}
