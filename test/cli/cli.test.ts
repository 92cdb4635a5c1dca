import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, test } from "node:test";
import { scratchDir } from "../helpers/scratch";

// The built CLI (npm test builds first): the path dist/cli.js is a contract.
const CLI = join(__dirname, "..", "..", "dist", "cli.js");
const EXAMPLE = join(__dirname, "..", "..", "examples", "research-agent", "agent-sandbox.jsonc");

function run(args: string[], cwd?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd, env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tempConfig(text: string, name = "agent-sandbox.jsonc"): string {
  const dir = scratchDir("cli");
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe("agent-sandbox check", () => {
  test("a clean config exits 0", () => {
    const file = tempConfig('{ "version": 1, "permissions": [{ "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" }] }');
    const r = run(["check", file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /no problems/);
  });

  test("findings at error level exit 1, with the stable JSON shape", () => {
    const file = tempConfig('{\n  "version": 1,\n  "permissions": [{ "operations": "read", "paths": ["relative/x"], "mode": "deny" }]\n}\n');
    const r = run(["check", file, "--format", "json"]);
    assert.equal(r.code, 1);
    const json = JSON.parse(r.stdout);
    assert.equal(json.files.length, 1);
    const codes = json.files[0].diagnostics.map((d: { code: string }) => d.code);
    assert.deepEqual(codes, ["operations-not-list", "path-not-absolute"]);
    const d = json.files[0].diagnostics[1];
    assert.deepEqual(Object.keys(d).slice(0, 5), ["code", "severity", "message", "range", "detail"]);
    assert.equal(d.message, 'deepagents-js 1.14.1 refuses the path "relative/x" when it builds the agent: it does not start with "/".');
    assert.equal(d.detail, 'It throws: Error: path must be absolute: "relative/x"');
    assert.deepEqual(d.range, { start: { line: 2, character: 52 }, end: { line: 2, character: 64 } });
    assert.equal(d.fixes[0].edits[0].newText, '"/relative/x"');
    assert.deepEqual(json.summary, { files: 1, errors: 2, warnings: 0, information: 0, hints: 0 });
  });

  test("the exact rule-order analysis runs by default; --no-analysis leaves it out", () => {
    // deepagents-semantics.md's own example: the deny of .env comes after the allow that takes every path first.
    const file = tempConfig(
      '{\n  "version": 1,\n  "permissions": [\n    { "operations": ["read"], "paths": ["/workspace/**"], "mode": "allow" },\n    { "operations": ["read"], "paths": ["/workspace/.env"], "mode": "deny" }\n  ]\n}\n',
    );
    const codes = (args: string[]) => JSON.parse(run(["check", file, "--format", "json", ...args]).stdout).files[0].diagnostics.map((d: { code: string }) => d.code);
    const byDefault = JSON.parse(run(["check", file, "--format", "json"]).stdout).files[0].diagnostics;
    const shadowed = byDefault.find((d: { code: string }) => d.code === "rule-shadowed");
    assert.ok(shadowed, JSON.stringify(byDefault));
    assert.equal(shadowed.witness, "/workspace/.env");
    assert.equal(shadowed.range.start.line, 4);
    assert.deepEqual(codes(["--analysis"]), byDefault.map((d: { code: string }) => d.code));
    assert.ok(!codes(["--no-analysis"]).includes("rule-shadowed"));
  });

  test("what the exact analysis could not analyse is listed once per file (skipped), in JSON and in text", () => {
    // picomatch passes a lookbehind through to its regular expression: no exact automaton for that pattern.
    const file = tempConfig(
      '{\n  "version": 1,\n  "permissions": [\n    { "operations": ["read"], "paths": ["/a/(?<=a)b"], "mode": "deny" },\n    { "operations": ["read"], "paths": ["/a/**"], "mode": "allow" }\n  ]\n}\n',
    );
    const json = JSON.parse(run(["check", file, "--format", "json"]).stdout);
    const skipped = json.files[0].skipped;
    assert.ok(Array.isArray(skipped) && skipped.length >= 1, JSON.stringify(json.files[0]));
    assert.equal(skipped[0].what, "rule 0 of the top-level permissions");
    assert.match(skipped[0].why, /lookbehind/);
    assert.ok(skipped[0].checks.includes("rule-shadowed"));
    assert.equal(skipped[0].range.start.line, 3);
    assert.ok(!json.files[0].diagnostics.some((d: { code: string }) => d.code === "rule-shadowed"));
    assert.match(run(["check", file]).stdout, /not analysed: rule 0 of the top-level permissions \(.*lookbehind/);
    assert.equal(JSON.parse(run(["check", file, "--format", "json", "--no-analysis"]).stdout).files[0].skipped, undefined);
  });

  test("--fix applies safe fixes only, and the file then checks clean", () => {
    const original = '{\n  "version": 1,\n  "permissions": [\n    { "operations": "readwrite", "paths": ["secrets/**"], "mode": "deny" },\n    { "operations": ["read"], "paths": [], "mode": "deny" }\n  ]\n}\n';
    const file = tempConfig(original);
    const r = run(["check", file, "--fix"]);
    assert.equal(r.code, 0, r.stdout);
    // Which file was rewritten, and with how many fixes, on stderr (stdout stays the report).
    // Which fixes, by code, as well as how many (the README promised both).
    assert.match(r.stderr, /agent-sandbox: .*agent-sandbox\.jsonc: 3 safe fixes applied \(operations-not-list, path-not-absolute, rule-empty\)\n/);
    const fixed = readFileSync(file, "utf8");
    assert.match(fixed, /"operations": \["read", "write"\], "paths": \["\/secrets\/\*\*"\]/);
    assert.doesNotMatch(fixed, /"paths": \[\]/);
    assert.equal(run(["check", file, "--format", "json"]).code, 0);
  });

  test("--fix leaves a file with JSON syntax errors alone, and says why", () => {
    const original = '{ "version": 1, "permissions": [ { "operations": "read", "paths": ["secrets/**"] "mode": "deny" } ] }\n';
    const file = tempConfig(original);
    const r = run(["check", file, "--fix"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /has JSON syntax errors; --fix changes nothing in it until they are fixed/);
    assert.equal(readFileSync(file, "utf8"), original);
  });

  test("--fix on a file it may not write: said plainly, the file unchanged, its findings reported, exit 2", () => {
    const original = '{\n  "version": 1,\n  "permissions": [{ "operations": "read", "paths": ["/a"], "mode": "deny" }]\n}\n';
    const file = tempConfig(original);
    chmodSync(dirname(file), 0o755);
    chmodSync(file, 0o444);
    // root writes read-only files: run the CLI as nobody then (spawn can, as root), otherwise as the user.
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const r = spawnSync(process.execPath, [CLI, "check", file, "--fix", "--format", "json"], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, ...asNobody });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /cannot write the fixes \(EACCES\); the file is unchanged/);
    assert.doesNotMatch(r.stderr, /internal error/);
    assert.deepEqual(JSON.parse(r.stdout).files[0].diagnostics.map((d: { code: string }) => d.code), ["operations-not-list"]);
    assert.equal(readFileSync(file, "utf8"), original);
  });

  test("a byte order mark (as Windows editors write) is not a syntax error; --fix writes it back", () => {
    // CRLF line ends too, as such a file usually has: positions are the editor's, the mark not counted.
    const original = '\uFEFF{\r\n  "version": 1,\r\n  "permissions": [\r\n    { "operations": "readwrite", "paths": ["secrets/**"], "mode": "deny" }\r\n  ]\r\n}\r\n';
    const file = tempConfig(original);
    const before = JSON.parse(run(["check", file, "--format", "json"]).stdout) as { files: { diagnostics: { code: string; range: { start: { line: number; character: number } } }[] }[] };
    const codes = before.files[0]!.diagnostics.map((d) => d.code);
    assert.ok(!codes.includes("json-syntax"), codes.join(", "));
    const notList = before.files[0]!.diagnostics.find((d) => d.code === "operations-not-list");
    assert.deepEqual(notList?.range.start, { line: 3, character: 20 });
    // Before the fix the relative pattern is an error (deepagents-js refuses it when the agent is built): exit 1.
    assert.equal(run(["explain", file, "--op", "read", "--path", "/secrets/a"]).code, 1);
    assert.equal(run(["tools", file]).code, 1);
    assert.equal(run(["check", file, "--fix"]).code, 0);
    assert.equal(run(["tools", file]).code, 0);
    const fixed = readFileSync(file, "utf8");
    assert.ok(fixed.startsWith('\uFEFF{\r\n'), JSON.stringify(fixed.slice(0, 10)));
    assert.match(fixed, /"operations": \["read", "write"\], "paths": \["\/secrets\/\*\*"\]/);
  });

  test("a file that cannot be read: said on stderr, exit 2, and the summary does not say all is well", () => {
    const good = tempConfig('{ "version": 1 }');
    const missing = join(dirname(good), "missing", "agent-sandbox.jsonc");
    const r = run(["check", good, missing]);
    assert.equal(r.code, 2);
    // In words: "ENOENT" says nothing to most people.
    assert.match(r.stderr, /^agent-sandbox: cannot read .*missing\/agent-sandbox\.jsonc: no such file\n$/);
    assert.equal(r.stdout.trimEnd().split("\n").at(-1), "✖ 1 file checked, no problems; 1 file could not be read");
    // JSON keeps its contract: the file that was read, and the exit code says the rest.
    const json = run(["check", good, missing, "--format", "json"]);
    assert.equal(json.code, 2);
    assert.equal((JSON.parse(json.stdout) as { summary: { files: number } }).summary.files, 1);
  });

  test("nothing is written without --fix", () => {
    const original = '{ "version": 1, "permissions": [{ "operations": "read", "paths": ["/a"] }] }';
    const file = tempConfig(original);
    run(["check", file]);
    assert.equal(readFileSync(file, "utf8"), original);
  });

  test("--severity changes or silences a code", () => {
    const file = tempConfig('{ "version": 1, "permissions": [{ "operations": "read", "paths": ["/a"], "mode": "deny" }] }');
    assert.equal(run(["check", file, "--severity", "operations-not-list=warning"]).code, 0);
    assert.match(run(["check", file, "--severity", "operations-not-list=off"]).stdout, /no problems/);
    assert.equal(run(["check", file, "--severity", "nonsense"]).code, 2);
    // A misspelt code would silence nothing: it is refused, with the code it was probably meant to be.
    const typo = run(["check", file, "--severity", "operations-not-lists=off"]);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /^agent-sandbox: --severity: no check has the code "operations-not-lists"; did you mean "operations-not-list"\?\n/);
    assert.match(run(["check", file, "--severity", "frobnicate=off"]).stderr, /no check has the code "frobnicate" \(every code has a page in \S+\/docs\/checks\)/);
    assert.equal(run(["check", file, "--severity", "rule-shadowed=off", "--severity", "internal-error=off", "--severity", "schema=hint"]).code, 1);
  });

  test("SARIF 2.1.0", () => {
    const file = tempConfig('{ "version": 1, "permissions": [{ "operations": "read", "paths": ["/a"], "mode": "deny" }] }');
    const sarif = JSON.parse(run(["check", file, "--format", "sarif"]).stdout);
    assert.equal(sarif.version, "2.1.0");
    assert.equal(sarif.runs[0].results[0].ruleId, "operations-not-list");
    assert.equal(sarif.runs[0].results[0].level, "error");
    assert.equal(sarif.runs[0].results[0].locations[0].physicalLocation.region.startLine, 1);
  });

  test("SARIF artifact locations are URI references: spaces and non-ASCII names percent-encoded", () => {
    const dir = scratchDir("cli");
    mkdirSync(join(dir, "sp ace", "ünï"), { recursive: true });
    writeFileSync(join(dir, "sp ace", "ünï", "my cfg.agent-sandbox.jsonc"), '{ "version": 1, "permissions": [{ "operations": "read", "paths": ["/a"], "mode": "deny" }] }');
    const sarif = JSON.parse(run(["check", "sp ace", "--format", "sarif"], dir).stdout);
    const uri = sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri;
    assert.equal(uri, "sp%20ace/%C3%BCn%C3%AF/my%20cfg.agent-sandbox.jsonc");
    assert.equal(decodeURIComponent(uri), "sp ace/ünï/my cfg.agent-sandbox.jsonc");
  });

  test("folders are searched for config and dry-run files", () => {
    const file = tempConfig('{ "config": "./agent-sandbox.jsonc", "steps": [{ "tool": "read_file", "expect": "okk" }] }', "a.dryrun.jsonc");
    const dir = join(file, "..");
    writeFileSync(join(dir, "agent-sandbox.jsonc"), '{ "version": 1 }');
    const json = JSON.parse(run(["check", dir, "--format", "json"]).stdout);
    assert.equal(json.summary.files, 2);
    const dryRun = json.files.find((f: { path: string }) => f.path.endsWith("a.dryrun.jsonc"));
    // The schema's did-you-mean, beside the scenario check on the step that has no file_path.
    assert.deepEqual(dryRun.diagnostics.map((d: { code: string }) => d.code), ["scenario-args-invalid", "schema"]);
    assert.match(dryRun.diagnostics[1].message, /\(did you mean "ok"\?\)\.$/);
  });

  test("folder search follows symbolic links (a cycle ends), skips build output and dependencies, and --help says which", () => {
    const dir = scratchDir("cli");
    mkdirSync(join(dir, "real"), { recursive: true });
    mkdirSync(join(dir, "out"), { recursive: true });
    writeFileSync(join(dir, "real", "agent-sandbox.jsonc"), '{ "version": 1 }');
    writeFileSync(join(dir, "out", "agent-sandbox.jsonc"), '{ "version": 1 }');
    symlinkSync(join(dir, "real", "agent-sandbox.jsonc"), join(dir, "linked.agent-sandbox.jsonc"));
    symlinkSync(join(dir, "real"), join(dir, "real", "loop"));
    symlinkSync(join(dir, "nowhere"), join(dir, "dangling.agent-sandbox.jsonc"));
    const json = JSON.parse(run(["check", dir, "--format", "json"]).stdout);
    // The link names the same file as real/agent-sandbox.jsonc: one entry, under the real name.
    assert.deepEqual(json.files.map((f: { path: string }) => f.path), [join(dir, "real", "agent-sandbox.jsonc")]);
    assert.match(run(["--help"]).stdout, /node_modules, \.git, dist, out and \.vscode-test are not searched/);
  });

  test("a file named several ways is checked, fixed and counted once", () => {
    const file = tempConfig('{ "version": 1, "permissions": [{ "operations": "read", "paths": ["/a"], "mode": "deny" }] }');
    const dir = dirname(file);
    const json = JSON.parse(run(["check", dir, file, join(dir, ".", "agent-sandbox.jsonc"), "--format", "json"]).stdout);
    assert.equal(json.files.length, 1);
    assert.equal(json.summary.files, 1);
    assert.equal(json.summary.warnings + json.summary.errors, json.files[0].diagnostics.filter((d: { severity: string }) => d.severity === "warning" || d.severity === "error").length);
  });

  test("repeated options, an option where a value belongs, no command: usage errors on stderr, exit 2", () => {
    const cases: [string[], RegExp][] = [
      [["explain", EXAMPLE, "--op", "read", "--op", "write", "--path", "/x"], /--op is given twice \("read" and "write"\); give it once/],
      [["check", EXAMPLE, "--format", "json", "--format", "text"], /--format is given twice/],
      [["explain", EXAMPLE, "--op", "--path", "/x"], /--op needs a value, and --path is an option \(write --op=--path for a value that starts with --\)/],
      [["check", EXAMPLE, "--analysis", "--no-analysis"], /--analysis and --no-analysis contradict each other/],
      [[], /^agent-sandbox: no command given\n/],
    ];
    for (const [args, message] of cases) {
      const r = run(args);
      assert.equal(r.code, 2, args.join(" "));
      assert.equal(r.stdout, "", args.join(" "));
      assert.match(r.stderr, message, args.join(" "));
    }
    // --severity repeats; a value starting with -- is written with `=`.
    assert.equal(run(["check", EXAMPLE, "--severity", "rule-empty=off", "--severity", "tool-unknown=off", "--no-analysis"]).code, 0);
    const explained = JSON.parse(run(["explain", EXAMPLE, "--op", "read", "--path=--x", "--format", "json"]).stdout);
    assert.equal(explained.path, "--x");
    assert.equal(run(["--help"]).code, 0);
  });

  test("a file that cannot be read is in the JSON (an entry with its error, summary.failed) and in SARIF (a tool notification)", () => {
    const good = tempConfig('{ "version": 1 }');
    const missing = join(dirname(good), "missing.agent-sandbox.jsonc");
    const json = run(["check", good, missing, "--format", "json"]);
    assert.equal(json.code, 2);
    const doc = JSON.parse(json.stdout);
    assert.deepEqual(doc.files.map((f: { path: string; error?: string }) => [basename(f.path), f.error]), [["agent-sandbox.jsonc", undefined], ["missing.agent-sandbox.jsonc", "cannot read (no such file)"]]);
    assert.equal(doc.summary.files, 1);
    assert.equal(doc.summary.failed, 1);
    assert.equal(JSON.parse(run(["check", good, "--format", "json"]).stdout).summary.failed, undefined);
    const sarif = JSON.parse(run(["check", good, missing, "--format", "sarif"]).stdout);
    const invocation = sarif.runs[0].invocations[0];
    assert.equal(invocation.executionSuccessful, false);
    assert.equal(invocation.toolExecutionNotifications.length, 1);
    assert.match(invocation.toolExecutionNotifications[0].message.text, /missing\.agent-sandbox\.jsonc: cannot read \(no such file\)$/);
    assert.equal(JSON.parse(run(["check", good, "--format", "sarif"]).stdout).runs[0].invocations, undefined);
  });

  test("bad invocations exit 2 with a message, never a stack trace", () => {
    for (const args of [["check", "/no/such/file.jsonc"], ["frobnicate"], ["check", "--format", "xml", "."], ["explain", EXAMPLE, "--op", "read"]]) {
      const r = run(args);
      assert.equal(r.code, 2, args.join(" "));
      assert.match(r.stderr, /^agent-sandbox: /);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
  });

  test("an option the command does not take, a single-dash option, a --severity with two `=`: usage errors, not silently ignored", () => {
    const cases: [string[], RegExp][] = [
      [["explain", EXAMPLE, "--op", "read", "--path", "/x", "--fix"], /explain takes no --fix \(its options: --op, --path, --agent, --role, --format\)/],
      [["tools", EXAMPLE, "--op", "read"], /tools takes no --op/],
      [["prompt", EXAMPLE, "--severity", "rule-empty=off"], /prompt takes no --severity/],
      [["check", EXAMPLE, "--role", "guest"], /check takes no --role/],
      [["check", "-f", "json"], /unknown option -f \(options are spelt with two dashes/],
      [["check", EXAMPLE, "--severity", "rule-empty=off=x"], /--severity takes CODE=LEVEL/],
    ];
    for (const [args, message] of cases) {
      const r = run(args);
      assert.equal(r.code, 2, args.join(" "));
      assert.match(r.stderr, message, args.join(" "));
    }
    // After `--`, a name with a leading dash is a file.
    assert.match(run(["check", "--", "-weird.agent-sandbox.jsonc"]).stderr, /cannot read -weird\.agent-sandbox\.jsonc/);
  });
});

describe("agent-sandbox explain", () => {
  test("the deciding rule, in the stable JSON shape", () => {
    const r = run(["explain", EXAMPLE, "--op", "write", "--path", "/workspace/.env", "--format", "json"]);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(
      { agent: json.agent, operation: json.operation, path: json.path, canonicalPath: json.canonicalPath, decision: json.decision, rule: json.rule, source: json.source },
      { agent: "main", operation: "write", path: "/workspace/.env", canonicalPath: "/workspace/.env", decision: "deny", rule: { index: 0, pattern: "/workspace/.env", mode: "deny" }, source: "top-level" },
    );
  });

  test("explain, tools and prompt on a config with errors: the answer on stdout as always, one line on stderr that says so, and exit 1 (cli.md: every command)", () => {
    // A rule deepagents-js refuses when the agent is built, after a key written twice.
    const file = tempConfig('{ "version": 1, "version": 1,\n  "permissions": [{ "operations": ["read"], "paths": ["/a/../b"], "mode": "deny" }] }');
    for (const args of [["explain", file, "--op", "read", "--path", "/b"], ["tools", file], ["prompt", file]]) {
      const r = run([...args, "--format", "json"]);
      assert.equal(r.code, 1, args.join(" "));
      assert.doesNotThrow(() => JSON.parse(r.stdout));
      assert.match(r.stderr, /^agent-sandbox: note: \S+agent-sandbox\.jsonc has 2 errors \(agent-sandbox check lists them\); the first, at 1:17: Duplicate key "version"[^\n]*\n$/, args[0]);
    }
    // A config without errors: nothing on stderr.
    for (const args of [["explain", EXAMPLE, "--op", "read", "--path", "/b"], ["tools", EXAMPLE], ["prompt", EXAMPLE]]) {
      const r = run(args);
      assert.equal(r.stderr, "", args[0]);
      assert.equal(r.code, 0, args[0]);
    }
  });

  test("rule is null when the default decides; a rejected path is an error in the runtime's words", () => {
    const file = tempConfig('{ "version": 1, "permissions": [{ "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" }] }');
    const allowed = JSON.parse(run(["explain", file, "--op", "read", "--path", "/public/a", "--format", "json"]).stdout);
    assert.equal(allowed.rule, null);
    assert.equal(allowed.decision, "allow");
    const rejected = JSON.parse(run(["explain", file, "--op", "read", "--path", "secrets/x", "--format", "json"]).stdout);
    assert.equal(rejected.decision, "error");
    assert.equal(rejected.error, 'path must be absolute: "secrets/x"');
  });

  test("deepagents-js validates nothing when the agent has no rules; deepagents-py always does", () => {
    const js = tempConfig('{ "version": 1 }');
    assert.equal(JSON.parse(run(["explain", js, "--op", "read", "--path", "secrets/x", "--format", "json"]).stdout).decision, "allow");
    const py = tempConfig('{ "version": 1, "runtime": "deepagents-py" }');
    const r = JSON.parse(run(["explain", py, "--op", "read", "--path", "/a/../b", "--format", "json"]).stdout);
    assert.equal(r.decision, "error");
    assert.equal(r.error, "Path traversal not allowed: /a/../b");
  });

  test("subagents: own rules, inherited rules, unknown agent", () => {
    const own = JSON.parse(run(["explain", EXAMPLE, "--op", "write", "--path", "/workspace/notes/a.md", "--agent", "auditor", "--format", "json"]).stdout);
    assert.deepEqual([own.decision, own.source, own.rule.index], ["deny", "subagent", 0]);
    const inherited = JSON.parse(run(["explain", EXAMPLE, "--op", "read", "--path", "/workspace/.env", "--agent", "writer", "--format", "json"]).stdout);
    assert.deepEqual([inherited.decision, inherited.source], ["deny", "inherited"]);
    const unknown = run(["explain", EXAMPLE, "--op", "read", "--path", "/a", "--agent", "nobody"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /No agent named "nobody"/);
  });
});

describe("agent-sandbox explain --role", () => {
  // cli.md lists --role for explain; it was accepted and ignored.
  test("an unknown role is a usage error, as in tools and prompt", () => {
    const r = run(["explain", EXAMPLE, "--op", "write", "--path", "/workspace/notes/x", "--role", "nosuch"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /No role named "nosuch"\. Roles: admin, user, guest\./);
  });

  test("the operation's tools the role can call; with none, the answer says no call reaches the rules", () => {
    const json = JSON.parse(run(["explain", EXAMPLE, "--op", "write", "--path", "/workspace/notes/x", "--role", "guest", "--format", "json"]).stdout);
    assert.equal(json.role, "guest");
    assert.deepEqual(json.roleTools, []);
    const text = run(["explain", EXAMPLE, "--op", "write", "--path", "/workspace/notes/x", "--role", "guest"]).stdout;
    assert.match(text, /Role "guest" may call none of write_file, edit_file, delete \(hidden by authorization\), so no write call of this agent reaches the rules\./);
    const admin = JSON.parse(run(["explain", EXAMPLE, "--op", "write", "--path", "/workspace/notes/x", "--role", "admin", "--format", "json"]).stdout);
    assert.ok(admin.roleTools.includes("write_file"), JSON.stringify(admin.roleTools));
    assert.equal(JSON.parse(run(["explain", EXAMPLE, "--op", "write", "--path", "/workspace/notes/x", "--format", "json"]).stdout).roleTools, undefined);
  });
});

describe("agent-sandbox tools and prompt", () => {
  test("tools: every agent, hidden tools with the step that hid them", () => {
    const json = JSON.parse(run(["tools", EXAMPLE, "--format", "json"]).stdout);
    const noRole = json.agents.filter((a: { role: string | null }) => a.role === null);
    assert.deepEqual(noRole.map((a: { agent: string }) => a.agent), ["main", "general-purpose", "auditor", "writer"]);
    assert.equal(json.agents.length, 4 * 4); // no role, admin, user, guest
    const execute = json.agents[0].tools.find((t: { name: string }) => t.name === "execute");
    assert.deepEqual([execute.visible, execute.kind, execute.hiddenBy], [false, "filesystem", "backend"]);
    assert.ok(json.agents[0].tools.some((t: { name: string; visible: boolean }) => t.name === "task" && t.visible));
  });

  test("tools: --role needs authorization; unknown agents are exit 2", () => {
    const file = tempConfig('{ "version": 1 }');
    assert.equal(run(["tools", file, "--role", "guest"]).code, 2);
    assert.equal(run(["tools", EXAMPLE, "--agent", "nobody"]).code, 2);
  });

  test("tools: one entry per role when the config has authorization", () => {
    const file = tempConfig(JSON.stringify({ version: 1, authorization: { enabled: true, default_role: "user", roles: { user: { tools: { allow: "*", deny: ["delete"] } }, guest: { tools: { allow: ["read_file", "ls"] } } } } }));
    const json = JSON.parse(run(["tools", file, "--agent", "main", "--format", "json"]).stdout);
    assert.deepEqual(json.agents.map((a: { role: string | null }) => a.role), [null, "user", "guest"]);
    const guest = json.agents[2].tools.filter((t: { visible: boolean }) => t.visible).map((t: { name: string }) => t.name);
    assert.deepEqual(guest, ["ls", "read_file"]);
    const del = json.agents[1].tools.find((t: { name: string }) => t.name === "delete");
    assert.equal(del.hiddenBy, "authorization");
  });

  test("tools: roles with the same tools share one block even when a role's name is a letter of the reasons", () => {
    // Role `a` used to be taken out of every "a" of "needs a sandbox backend", so a and b never matched.
    const roles = { a: { tools: { allow: "*" } }, b: { tools: { allow: "*" } }, c: { tools: { allow: ["read_file"] } }, d: { tools: { allow: ["read_file"] } } };
    const file = tempConfig(JSON.stringify({ version: 1, authorization: { enabled: true, default_role: "a", roles } }));
    const text = run(["tools", file, "--agent", "main"]).stdout;
    const heads = text.split("\n").filter((line) => line.startsWith("main"));
    assert.deepEqual(heads.map((line) => line.replace(/:.*/, "")), ["main", "main (2 roles)", "main (2 roles)"]);
    assert.match(text, /roles: a, b\n/);
    assert.match(text, /roles: c, d\n/);
    assert.match(text, /denied by DeerFlow's authorization to role "<role>"\n/);
    assert.match(text, /needs a sandbox backend/);
  });

  test("prompt: the system message and visible tools; hidden tools appear nowhere", () => {
    const json = JSON.parse(run(["prompt", EXAMPLE, "--agent", "auditor", "--format", "json"]).stdout);
    assert.equal(json.systemMessage, "Review the workspace for mistakes. Never change files.");
    assert.ok(!json.tools.some((t: { name: string }) => t.name === "execute"));
    const text = run(["prompt", EXAMPLE]).stdout;
    assert.match(text, /careful research assistant/);
    assert.doesNotMatch(text, /`execute`/);
  });
});

describe("system prompt file", () => {
  test("a systemPromptFile that names a folder is reported like a missing one", () => {
    const file = tempConfig('{ "version": 1, "systemPromptFile": "." }');
    const r = JSON.parse(run(["check", file, "--format", "json", "--no-analysis"]).stdout);
    assert.deepEqual(r.files[0].diagnostics.map((d: { code: string; message: string }) => [d.code, d.message]), [
      ["system-prompt-conflict", 'The system prompt file "." does not exist or is not a file.'],
    ]);
    writeFileSync(join(dirname(file), "AGENTS.md"), "Be careful.\n");
    writeFileSync(file, '{ "version": 1, "systemPromptFile": "./AGENTS.md" }');
    assert.equal(run(["check", file, "--no-analysis"]).code, 0);
  });

  test("prompt does not read a systemPromptFile that is a device or a named pipe (it never ended)", () => {
    const dir = dirname(tempConfig("{}"));
    const fifo = join(dir, "fifo");
    assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
    for (const target of ["/dev/zero", fifo]) {
      const file = join(dir, "agent-sandbox.jsonc");
      writeFileSync(file, JSON.stringify({ version: 1, systemPromptFile: target }));
      const r = spawnSync(process.execPath, [CLI, "prompt", file, "--format", "json"], { encoding: "utf8", timeout: 20_000 });
      assert.equal(r.error, undefined, `${target}: ${r.error}`);
      // The unreadable prompt file is an error of the config: exit 1, with the preview still printed.
      assert.equal(r.status, 1, target);
      assert.doesNotThrow(() => JSON.parse(r.stdout), target);
      assert.match(r.stderr, /does not exist or is not a file/);
    }
  });
});

describe("skills folders", () => {
  // config-format.md: a `skills` entry is a skill folder itself or a folder holding `<name>/SKILL.md`; the second
  // form needs the folder listed, which the CLI (and the language server, which shares its file access) must do.
  test("a folder of skills is listed: check reports each skill's problems, prompt names each skill", () => {
    const file = tempConfig('{ "version": 1, "tools": ["web_search"], "skills": ["./skills"] }');
    const dir = dirname(file);
    for (const [name, tools] of [["review", "read_file, web_search"], ["search", "[web_serch]"]] as const) {
      mkdirSync(join(dir, "skills", name), { recursive: true });
      writeFileSync(join(dir, "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: The ${name} skill.\nallowed-tools: ${tools}\n---\nBody.\n`);
    }
    const diagnostics = JSON.parse(run(["check", file, "--format", "json", "--no-analysis"]).stdout).files[0].diagnostics;
    const codes = diagnostics.map((d: { code: string }) => d.code).sort();
    assert.deepEqual(codes, ["skill-allowed-tools-string", "skill-tool-unknown"], JSON.stringify(diagnostics));
    assert.match(diagnostics.find((d: { code: string }) => d.code === "skill-tool-unknown").message, /web_serch/);
    const prompt = JSON.parse(run(["prompt", file, "--format", "json"]).stdout);
    assert.match(prompt.systemMessage, /- review: The review skill\. \(read \.\/skills\/review\/SKILL\.md/);
    assert.match(prompt.systemMessage, /- search: The search skill\./);
  });
});

describe("start-up", () => {
  test("--version, --help and usage errors other than a mistyped command run without the engine's bundle (it is not even loaded)", () => {
    // The CLI's bundle alone, without engine.js beside it: anything that loaded the engine would fail.
    const dir = scratchDir("cli-alone");
    copyFileSync(CLI, join(dir, "cli.js"));
    const alone = (args: string[]) => spawnSync(process.execPath, [join(dir, "cli.js"), ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    assert.match(alone(["--version"]).stdout, /^\d+\.\d+\.\d+\n$/);
    assert.match(alone(["--help"]).stdout, /^agent-sandbox .*\n\nUsage:/);
    // A mistyped command loads the engine's did-you-mean ("agent-sandbox tests" below).
    for (const args of [["check", "--bogus"], ["tools", "--format", "xml", "x"]]) {
      const r = alone(args);
      assert.equal(r.status, 2, args.join(" "));
      assert.match(r.stderr, /^agent-sandbox: (unknown command|unknown option|--format must be)/, args.join(" "));
    }
    // The same bundle does need it to check a file: the test above would pass for a broken copy too otherwise.
    const file = tempConfig('{ "version": 1 }');
    assert.equal(alone(["check", file]).status, 2);
  });
});

describe("words a new user reads", () => {
  test("tools: an agent without tools says no tools, and counts are in the singular or plural as they should be", () => {
    // The filesystem middleware is refused (no read_file): main keeps only task, general-purpose nothing.
    const file = tempConfig(JSON.stringify({ version: 1, middleware: [{ type: "filesystem", tools: ["ls"] }] }));
    const lines = run(["tools", file]).stdout.split("\n").filter((l) => /^\S/.test(l));
    assert.deepEqual(lines, ["main: 1 tool: task", "general-purpose: no tools"]);
    assert.match(run(["tools", EXAMPLE, "--agent", "auditor"]).stdout, /^auditor: \d+ tools: ls, /);
  });

  test("tools: the hidden tools are grouped by step and reason, each reason said once", () => {
    const file = tempConfig(JSON.stringify({ version: 1, tools: ["web_search"], middleware: [{ type: "filesystem", tools: ["ls", "write_file"] }] }));
    const main = run(["tools", file, "--agent", "main"]).stdout;
    assert.equal(
      main,
      "main: 2 tools: web_search, task\n" +
        "  hidden ls, read_file, write_file, edit_file, delete, glob, grep, execute (allowlist): not registered: deepagents-js 1.14.1 refuses the custom filesystem middleware (middleware #0): Error: read_file must be included in tools; it is required by FilesystemMiddleware\n",
    );
  });

  test("a missing file and a folder are said in words, not as ENOENT and EISDIR", () => {
    const dir = dirname(tempConfig('{ "version": 1 }'));
    const missing = run(["tools", join(dir, "nothere.jsonc")]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^agent-sandbox: cannot read \S*nothere\.jsonc: no such file\n$/);
    const folder = run(["tools", dir]);
    assert.equal(folder.code, 2);
    assert.match(folder.stderr, /^agent-sandbox: cannot read \S+: it is a folder, not a file\n$/);
  });

  test("a misspelt command gets the command meant; one far from any gets the list", () => {
    const r = run(["chek", "."]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^agent-sandbox: unknown command "chek"; did you mean "check"\?\n/);
    assert.match(run(["frobnicate"]).stderr, /^agent-sandbox: unknown command "frobnicate" \(commands: check, explain, tools, prompt[^)]*, help\)\n/);
  });

  test("version 2 says which versions this product reads", () => {
    const r = run(["check", tempConfig('{ "version": 2 }'), "--format", "json"]);
    const messages = JSON.parse(r.stdout).files[0].diagnostics.map((d: { message: string }) => d.message);
    assert.deepEqual(messages, ["Unsupported version 2: Agent Sandbox reads version 1 configs."]);
  });
});
