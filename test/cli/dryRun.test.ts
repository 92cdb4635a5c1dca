/**
 * `agent-sandbox dry-run` and `agent-sandbox map` through the built CLI: the JSON contract of cli.md, text and
 * JUnit, exit codes, and isolation: nothing on disk changes, nothing outside the workspace is read.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, test } from "node:test";
import { scratchDir, treeHash } from "../helpers/scratch";

const CLI = join(__dirname, "..", "..", "dist", "cli.js");
const EXAMPLE_DIR = join(__dirname, "..", "..", "examples", "research-agent");

function run(args: string[], cwd?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd, env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A folder with a config, a sample workspace and a scenario. */
function project(steps: unknown[], config: Record<string, unknown> = {}, role?: string) {
  const dir = scratchDir("dryrun");
  mkdirSync(join(dir, "ws", "src"), { recursive: true });
  writeFileSync(join(dir, "ws", "README.md"), "hello\n");
  writeFileSync(join(dir, "ws", ".env"), "TOKEN=1\n");
  writeFileSync(join(dir, "ws", "src", "a.ts"), "const a = 1;\n");
  writeFileSync(join(dir, "agent-sandbox.jsonc"), JSON.stringify({
    version: 1,
    backend: { type: "filesystem", rootDir: "./ws", virtualMode: true },
    permissions: [{ operations: ["read", "write"], paths: ["/workspace/.env"], mode: "deny" }],
    workspace: { root: "./ws", mountAt: "/workspace" },
    ...config,
  }));
  const scenario = join(dir, "s.dryrun.jsonc");
  writeFileSync(scenario, JSON.stringify({ config: "./agent-sandbox.jsonc", ...(role ? { role } : {}), steps }));
  return { dir, scenario };
}

describe("agent-sandbox dry-run", () => {
  test("the example scenario passes (exit 0) and its JSON has cli.md's shape", () => {
    const r = run(["dry-run", join(EXAMPLE_DIR, "research.dryrun.jsonc"), "--format", "json"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(json.summary, { scenarios: 1, passed: 1, failed: 0 });
    const sc = json.scenarios[0];
    assert.equal(sc.agent, "main");
    assert.equal(sc.role, "user");
    assert.equal(sc.passed, true);
    const denied = sc.steps.find((s: { outcome: string }) => s.outcome === "permission-denied");
    assert.deepEqual(Object.keys(denied).slice(0, 10), ["index", "agent", "tool", "args", "callId", "outcome", "rule", "output", "expected", "passed"]);
    assert.deepEqual(denied.rule, { index: 0, pattern: "/workspace/.env", mode: "deny" });
    assert.equal(denied.output, "Error: permission denied for read on /workspace/.env");
    // Steps inside a task carry the subagent's name, after the task entry.
    const task = sc.steps.findIndex((s: { tool: string }) => s.tool === "task");
    assert.equal(sc.steps[task + 1].agent, "auditor");
    assert.deepEqual(sc.journal.map((j: { tool: string; reasonCodes: string[] }) => [j.tool, j.reasonCodes]), [["delete", ["authz.denied"]]]);
  });

  test("a failed expectation exits 1 and says expected and actual, in text and JUnit", () => {
    const { dir, scenario } = project([
      { tool: "read_file", args: { file_path: "/workspace/.env" }, expect: "ok" },
      { tool: "read_file", args: { file_path: "/workspace/README.md" }, expect: "ok" },
    ]);
    const text = run(["dry-run", scenario]);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /FAIL .*s\.dryrun\.jsonc/);
    assert.match(text.stdout, /✖ 1\. \[main\] read_file \/workspace\/\.env → permission-denied by rule 0 \(deny \/workspace\/\.env\)\n\s+expected ok, got permission-denied/);
    assert.match(text.stdout, /1 scenario\(s\): 0 passed, 1 failed/);
    const junitFile = join(dir, "report.xml");
    const junit = run(["dry-run", scenario, "--format", "junit", "--junit", junitFile]);
    assert.equal(junit.code, 1);
    assert.match(junit.stdout, /<testsuite name="[^"]*s\.dryrun\.jsonc" tests="2" failures="1" errors="0">/);
    assert.match(junit.stdout, /<failure message="expected ok, got permission-denied">/);
    assert.equal(readFileSync(junitFile, "utf8"), junit.stdout);
  });

  test("a folder is searched for scenarios; none found or an unreadable scenario is exit 2; a missing config fails the scenario", () => {
    const { dir } = project([{ tool: "ls", args: {} }]);
    assert.equal(run(["dry-run", dir]).code, 0);
    assert.equal(run(["dry-run", scratchDir("empty")]).code, 2);
    assert.equal(run(["dry-run", join(dir, "missing.dryrun.jsonc")]).code, 2);
    writeFileSync(join(dir, "bad.dryrun.jsonc"), JSON.stringify({ config: "./nope.jsonc", steps: [] }));
    const r = run(["dry-run", join(dir, "bad.dryrun.jsonc"), "--format", "json"]);
    assert.equal(r.code, 1);
    assert.match(JSON.parse(r.stdout).scenarios[0].error, /cannot read the config .*nope\.jsonc \(ENOENT\)/);
    assert.equal(run(["dry-run", dir, "--format", "yaml"]).code, 2);
  });

  test("isolation: symlinks out, .., host paths, writes and deletes everywhere leave the disk as it was and show nothing from outside", () => {
    const outside = scratchDir("outside");
    writeFileSync(join(outside, "secret.txt"), "zq-outside-content-42\n");
    mkdirSync(join(outside, "dir"));
    writeFileSync(join(outside, "dir", "x.txt"), "zq-outside-dir-42\n");
    const steps: unknown[] = [{ tool: "ls", args: { path: "/workspace" } }, { tool: "glob", args: { pattern: "**/*" } }];
    const paths = ["/workspace/link.txt", "/workspace/linkdir/x.txt", "/workspace/../secret.txt", `${outside}/secret.txt`, "/workspace/./link.txt",
      "/workspace", "/workspace/src", "/workspace/README.md", "/", "/etc/passwd", "workspace/link.txt", `/workspace/${relative("/", outside)}/secret.txt`];
    for (const p of paths) {
      steps.push({ tool: "read_file", args: { file_path: p } }, { tool: "ls", args: { path: p } }, { tool: "grep", args: { pattern: "zq", path: p } },
        { tool: "glob", args: { pattern: "**/*", path: p } }, { tool: "write_file", args: { file_path: p, content: "overwritten" } },
        { tool: "edit_file", args: { file_path: p, old_string: "hello", new_string: "bye" } }, { tool: "delete", args: { file_path: p } });
    }
    steps.push({ tool: "glob", args: { pattern: "../**" } }, { tool: "grep", args: { pattern: "zq" } }, { tool: "delete", args: { file_path: "/" } });
    const noRules = project(steps, { permissions: [] });
    const withRules = project(steps);
    for (const { dir, scenario } of [noRules, withRules]) {
      symlinkSync(join(outside, "secret.txt"), join(dir, "ws", "link.txt"));
      symlinkSync(join(outside, "dir"), join(dir, "ws", "linkdir"));
      const before = { ws: treeHash(join(dir, "ws")), parent: readdirSync(dir).sort(), outside: treeHash(outside) };
      const r = run(["dry-run", scenario, "--format", "json"]);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout, /zq-outside/);
      const json = JSON.parse(r.stdout);
      assert.equal(json.scenarios[0].steps.length, steps.length);
      // Links leading out are left out of listings (until a step writes a file of that name into the overlay).
      assert.equal(json.scenarios[0].steps[0].output, "/workspace/.env (8 bytes)\n/workspace/README.md (6 bytes)\n/workspace/src/ (directory)".replace(/^.*\.env.*\n/, dir === withRules.dir ? "" : "$&"));
      assert.doesNotMatch(json.scenarios[0].steps[1].output, /link/);
      assert.deepEqual({ ws: treeHash(join(dir, "ws")), parent: readdirSync(dir).sort(), outside: treeHash(outside) }, before);
    }
  });
});


describe("agent-sandbox map", () => {
  test("every sample file and folder with the deciding rule, in text and JSON", () => {
    const config = join(EXAMPLE_DIR, "agent-sandbox.jsonc");
    const json = run(["map", config, "--format", "json"]);
    assert.ok(json.code === 0 || json.code === 1, json.stderr);
    const map = JSON.parse(json.stdout);
    assert.equal(map.agent, "main");
    assert.equal(map.role, null);
    const env = map.entries.find((e: { path: string }) => e.path === "/workspace/.env");
    assert.deepEqual({ ...env, kind: undefined }, { path: "/workspace/.env", kind: undefined, read: "deny", write: "deny", readRule: 0, writeRule: 0 });
    assert.equal(map.entries.length, 10);
    const auditor = JSON.parse(run(["map", config, "--agent", "auditor", "--format", "json"]).stdout);
    assert.ok(auditor.entries.every((e: { write: string }) => e.write === "deny"));
    const text = run(["map", config]);
    assert.match(text.stdout, /^\/workspace {2}\(agent main\)\n {2}\.env {2}read deny \(rule 0: \/workspace\/\.env\), write deny \(rule 0: \/workspace\/\.env\)$/m);
    assert.equal(run(["map", config, "--agent", "nobody"]).code, 2);
  });
});

