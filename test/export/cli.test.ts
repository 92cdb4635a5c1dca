/**
 * `agent-sandbox export CONFIG --to ts|py` through the built CLI (dist/cli.js, as a user runs it): the engine's
 * code on stdout, the conventions of the other commands for arguments, errors and exit codes.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { exportConfig } from "../../server/src/engine/export/exportConfig";
import { scratchDir } from "../helpers/scratch";

const REPO = resolve(__dirname, "../..");
const CLI = join(REPO, "dist", "cli.js");
const EXAMPLE_DIR = join(REPO, "examples", "research-agent");

function run(args: string[], cwd = REPO) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd, env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tempConfig(text: string): string {
  const file = join(scratchDir("export-cli"), "agent-sandbox.jsonc");
  writeFileSync(file, text);
  return file;
}

test("export prints the engine's code for the config, its systemPromptFile read next to it, and exits 0", () => {
  for (const to of ["ts", "py"] as const) {
    const r = run(["export", "agent-sandbox.jsonc", "--to", to], EXAMPLE_DIR);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "");
    const model = checkConfigText(readFileSync(join(EXAMPLE_DIR, "agent-sandbox.jsonc"), "utf8")).model!;
    const agents = readFileSync(join(EXAMPLE_DIR, "AGENTS.md"), "utf8");
    assert.equal(r.stdout, exportConfig(model, { to, source: "agent-sandbox.jsonc", readFile: (p) => (p === "./AGENTS.md" ? agents : undefined) }));
    assert.ok(r.stdout.includes(JSON.stringify(agents)), "the prompt file's text is inlined");
  }
});

test("--format json wraps the code in { to, code }", () => {
  const r = run(["export", join(EXAMPLE_DIR, "agent-sandbox.jsonc"), "--to", "py", "--format", "json"]);
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(json), ["to", "code"]);
  assert.equal(json.to, "py");
  assert.match(json.code, /^# The agent "research-agent"/);
});

test("a config with errors is exported as written, with a note on stderr and exit code 1", () => {
  const file = tempConfig('{ "version": 1, "permissions": [{ "operations": ["read"], "paths": ["relative/x"], "mode": "deny" }] }');
  const r = run(["export", file, "--to", "ts"]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /paths: \["relative\/x"\]/);
  assert.match(r.stderr, /^agent-sandbox: note: .* has 1 error \(agent-sandbox check lists them\)/);
});

test("bad arguments are usage errors (exit 2) that say what to write", () => {
  const example = join(EXAMPLE_DIR, "agent-sandbox.jsonc");
  const cases: [string[], RegExp][] = [
    [["export", example], /export needs --to ts or --to py/],
    [["export", example, "--to", "python"], /--to must be one of ts, py \(got "python"\); did you mean "py"\?/],
    [["export", example, "--to", "TypeScript"], /did you mean "ts"\?/],
    [["export", example, "--to", "tx"], /did you mean "ts"\?/],
    [["export", example, "--to", "rust"], /--to must be one of ts, py \(got "rust"\)\n/],
    [["export", "--to", "ts"], /export takes exactly one CONFIG file/],
    [["export", example, example, "--to", "ts"], /export takes exactly one CONFIG file/],
    [["export", example, "--to", "ts", "--agent", "main"], /export takes no --agent \(its options: --to, --format\)/],
    [["export", example, "--to", "ts", "--format", "sarif"], /--format must be one of text, json/],
    [["exprot", example], /unknown command "exprot"; did you mean "export"\?/],
  ];
  for (const [args, message] of cases) {
    const r = run(args);
    assert.equal(r.code, 2, args.join(" "));
    assert.equal(r.stdout, "", args.join(" "));
    assert.match(r.stderr, message, args.join(" "));
  }
});

test("a file that cannot be read or is no config exits 2 with one line saying why", () => {
  const missing = run(["export", "no-such-file.jsonc", "--to", "ts"]);
  assert.equal(missing.code, 2);
  assert.equal(missing.stderr, "agent-sandbox: cannot read no-such-file.jsonc: no such file\n");
  const garbage = run(["export", tempConfig("\u0000\u0001binary"), "--to", "py"]);
  assert.equal(garbage.code, 2);
  assert.equal(garbage.stdout, "");
  assert.match(garbage.stderr, /^agent-sandbox: .*agent-sandbox\.jsonc(:\d+)?: .+\n$/);
});

test("the usage lists export", () => {
  assert.match(run(["--help"]).stdout, /agent-sandbox export CONFIG --to ts\|py \[--format text\|json\]/);
});
