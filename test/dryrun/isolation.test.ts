/**
 * Isolation of the dry run on every path a host takes through it, in process: the CLI's scenario runner
 * (`dry-run`), the scenario checks the language server runs on every edit (`checkDryRunText` with the host's
 * options), and the capability map (`map`); over a workspace served by a filesystem backend, a state backend and a
 * composite route, with and without rules. The workspace holds symbolic links to a file and a folder outside it;
 * the scenario reads, lists, searches, writes, edits and deletes everywhere (`..`, host-absolute paths, the links,
 * `/`, relative paths). Afterwards the workspace's content hash, the listing of the folder around it and the
 * outside folder's hash are what they were, and no output, finding or map entry holds anything from outside.
 * (test/cli/dryRun.test.ts does the same through the built CLI process.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runScenarioSource } from "../../server/src/cli/commands/dryRun";
import { hostWorkspace, scenarioCheckOptions } from "../../server/src/host/workspace";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { checkDryRunText } from "../../server/src/engine/checkDryRun";
import { capabilityMap } from "../../server/src/engine/dryrun/capabilityMap";
import { scratchDir, treeHash } from "../helpers/scratch";

const SECRET = "zq-outside-content-29";


function stepsEverywhere(outside: string): unknown[] {
  const steps: unknown[] = [{ tool: "ls", args: { path: "/workspace" } }, { tool: "glob", args: { pattern: "**/*" } }, { tool: "grep", args: { pattern: "zq" } }];
  const paths = [
    "/workspace/link.txt", "/workspace/linkdir", "/workspace/linkdir/x.txt", "/workspace/../secret.txt", "/workspace/./link.txt", "/workspace/sub/../../secret.txt",
    `${outside}/secret.txt`, `${outside}/dir`, `/workspace${outside}/secret.txt`, "/workspace", "/workspace/README.md", "/workspace/src", "/", "/etc/passwd",
    "workspace/README.md", "../secret.txt", "~/secret.txt", "/workspace/~/x",
  ];
  for (const p of paths) {
    steps.push(
      { tool: "read_file", args: { file_path: p } }, { tool: "ls", args: { path: p } }, { tool: "grep", args: { pattern: "zq", path: p } },
      { tool: "glob", args: { pattern: "**", path: p } }, { tool: "write_file", args: { file_path: p, content: "overwritten" } },
      { tool: "edit_file", args: { file_path: p, old_string: "hello", new_string: "bye" } }, { tool: "delete", args: { file_path: p } },
      { tool: "execute", args: { command: `cat ${p}; rm -rf ${p}` } },
    );
  }
  steps.push(
    { tool: "glob", args: { pattern: "../**" } }, { tool: "glob", args: { pattern: "/**" } }, { tool: "grep", args: { pattern: "zq", glob: "../*" } },
    { tool: "task", args: { subagent_type: "general-purpose", description: "x", steps: [{ tool: "write_file", args: { file_path: "/workspace/new.txt", content: "n" } }, { tool: "delete", args: { file_path: "/workspace" } }] } },
    { tool: "delete", args: { file_path: "/" } }, { tool: "ls", args: { path: "/" } },
  );
  return steps;
}

const BACKENDS: [string, unknown][] = [
  ["filesystem", { type: "filesystem", rootDir: "./ws", virtualMode: true }],
  ["state", { type: "state" }],
  ["composite route", { type: "composite", default: { type: "state" }, routes: { "/workspace/": { type: "filesystem", rootDir: "./ws", virtualMode: true } } }],
];
const RULES: [string, unknown[] | undefined][] = [
  ["no rules", undefined],
  ["rules", [{ operations: ["read", "write"], paths: ["/workspace/.env"], mode: "deny" }, { operations: ["write"], paths: ["/workspace/src/**"], mode: "deny" }]],
];

for (const [backendName, backend] of BACKENDS) {
  for (const [rulesName, permissions] of RULES) {
    test(`isolation, ${backendName} backend, ${rulesName}: the disk is as it was and nothing from outside shows`, () => {
      const outside = scratchDir("isolation-outside");
      writeFileSync(join(outside, "secret.txt"), `${SECRET}\n`);
      mkdirSync(join(outside, "dir"));
      writeFileSync(join(outside, "dir", "x.txt"), `${SECRET} in a folder\n`);
      const dir = scratchDir("isolation");
      mkdirSync(join(dir, "ws", "src"), { recursive: true });
      writeFileSync(join(dir, "ws", "README.md"), "hello\n");
      writeFileSync(join(dir, "ws", ".env"), "TOKEN=1\n");
      writeFileSync(join(dir, "ws", "src", "a.ts"), "const a = 1;\n");
      symlinkSync(join(outside, "secret.txt"), join(dir, "ws", "link.txt"));
      symlinkSync(join(outside, "dir"), join(dir, "ws", "linkdir"));
      const config = { version: 1, backend, workspace: { root: "./ws", mountAt: "/workspace" }, ...(permissions ? { permissions } : {}) };
      writeFileSync(join(dir, "agent-sandbox.jsonc"), JSON.stringify(config));
      const steps = stepsEverywhere(outside);
      // Every step expects ok: wherever the run says otherwise, the finding's detail carries the runtime's answer.
      const scenarioText = JSON.stringify({ config: "./agent-sandbox.jsonc", steps: steps.map((s) => ({ ...(s as object), expect: "ok" })) });
      const scenarioPath = join(dir, "s.dryrun.jsonc");
      writeFileSync(scenarioPath, scenarioText);
      const before = { ws: treeHash(join(dir, "ws")), around: readdirSync(dir).sort(), outside: treeHash(outside) };

      const ran = runScenarioSource(scenarioText, "s.dryrun.jsonc", dir);
      assert.equal(ran.error, undefined);
      assert.ok(ran.steps.length >= steps.length, `${ran.steps.length} steps ran`);
      const checked = checkDryRunText(scenarioText, scenarioCheckOptions(scenarioPath));
      assert.ok(checked.findings.some((f) => f.code === "scenario-expectation-failed"), "the checks ran the scenario");
      assert.ok(!checked.findings.some((f) => f.code === "internal-error"));
      const { model } = checkConfigText(JSON.stringify(config));
      const map = capabilityMap(model!, "main", null, hostWorkspace(join(dir, "ws"))!)!;

      const everything = JSON.stringify({ ran, findings: checked.findings, map });
      assert.ok(!everything.includes("zq-outside"), "content from outside the workspace appears in an output");
      assert.deepEqual(map.entries.map((e) => e.path), ["/workspace/.env", "/workspace/README.md", "/workspace/src", "/workspace/src/a.ts"]);
      // The run did write and delete (in its overlay): the last listing of the workspace differs from the first.
      assert.notEqual(ran.steps[0]!.output, ran.steps.at(-1)!.output);
      assert.deepEqual({ ws: treeHash(join(dir, "ws")), around: readdirSync(dir).sort(), outside: treeHash(outside) }, before);
    });
  }
}
