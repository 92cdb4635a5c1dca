// The README's main command: what `check`, `explain`, `dry-run` and `map` say about the example shipped in examples/.
import { spawnSync } from "node:child_process";

const config = "examples/research-agent/agent-sandbox.jsonc";
const run = (title, args) => {
  console.log(`\n$ agent-sandbox ${args.join(" ")}    # ${title}`);
  const result = spawnSync(process.execPath, ["dist/cli.js", ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  process.stdout.write(result.stdout ?? "");
  process.stderr.write(result.stderr ?? "");
  // Exit 1 means "findings at error level", which the example has on purpose; 2 or a crash means it could not run.
  if (result.status === 2 || result.error || /\n\s+at /.test(result.stderr ?? "")) {
    console.error(`demo: agent-sandbox ${args[0]} could not run`);
    process.exit(1);
  }
};

run("every finding in the example", ["check", config]);
run("a secret is denied by the first rule", ["explain", config, "--op", "read", "--path", "/workspace/.env"]);
run("JS keeps '.' segments: the same secret slips through", ["explain", config, "--op", "read", "--path", "/workspace/./.env"]);
run("data is read-only", ["explain", config, "--op", "write", "--path", "/workspace/data/results.csv"]);
run("outside the workspace everything is denied", ["explain", config, "--op", "read", "--path", "/etc/passwd"]);
run("the auditor subagent may not write", ["explain", config, "--op", "write", "--path", "/workspace/notes/todo.md", "--agent", "auditor"]);
run("the tools each agent really sees, and why the others are hidden", ["tools", config]);
run("what a guest may call", ["tools", config, "--agent", "main", "--role", "guest"]);
run("what the auditor subagent is told", ["prompt", config, "--agent", "auditor"]);
run("relative paths are rejected once rules exist", ["explain", config, "--op", "read", "--path", "notes/todo.md", "--format", "json"]);
run("a scripted agent against the sample files: what each call would get", ["dry-run", "examples/research-agent/research.dryrun.jsonc"]);
run("what the main agent may read and write, file by file", ["map", config]);
