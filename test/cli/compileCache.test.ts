// The built CLI keeps V8's compiled code of its bundles between runs on Node 20 (server/src/cli/compileCache.ts).
// Node 22.1+ has its own cache (module.enableCompileCache), which the CLI uses instead: there is nothing of ours
// to test there.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { scratchDir } from "../helpers/scratch";
import { LONG_RUN_CHARACTERS } from "../../server/src/cli/v8Flags";

const CLI = join(__dirname, "..", "..", "dist", "cli.js");
const EXAMPLE = join(__dirname, "..", "..", "examples", "research-agent", "agent-sandbox.jsonc");
const nodeHasItsOwn = typeof (require("node:module") as { enableCompileCache?: unknown }).enableCompileCache === "function";

function run(cache: string, args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", NODE_COMPILE_CACHE: cache };
  delete env.NODE_DISABLE_COMPILE_CACHE;
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const cacheFiles = (dir: string) => readdirSync(dir).filter((n) => n.endsWith(".cache"));

describe("the CLI's compile cache on Node 20", { skip: nodeHasItsOwn ? "this Node has module.enableCompileCache, which the CLI uses instead" : false }, () => {
  const args = ["check", EXAMPLE, "--format", "json"];

  test("the first run writes the engine's compiled code; later runs use it and print the same", () => {
    const cache = join(scratchDir("cc"), "cache");
    const first = run(cache, args);
    assert.equal(first.stderr, "");
    const files = cacheFiles(cache);
    // `check` runs the exact rule analysis by default, which loads analysis.js beside engine.js.
    assert.deepEqual(files.map((f) => f.replace(/-.*/, "")).sort(), ["analysis.js", "engine.js"]);
    assert.equal(statSync(cache).mode & 0o077, 0, "only the user may read or write the folder");
    const written = files.map((f) => statSync(join(cache, f)).mtimeMs);
    const second = run(cache, args);
    assert.deepEqual(second, first);
    // Accepted, so not written again: every bundle's, though the run changes V8 flags on the way (v8Flags.ts).
    assert.deepEqual(files.map((f) => statSync(join(cache, f)).mtimeMs), written);
    assert.deepEqual(cacheFiles(cache), files);
  });

  test("runs of every kind use the caches the others wrote: without the analysis, with it, on a large input", () => {
    const cache = join(scratchDir("cc"), "cache");
    // Past LONG_RUN_CHARACTERS, where the run sets the "long" phase's flags.
    const large = join(scratchDir("cc-large"), "agent-sandbox.jsonc");
    const rules = Array.from({ length: 4000 }, (_, i) => `{ "operations": ["read"], "paths": ["/workspace/folder-${i}/**"], "mode": "deny" }`);
    writeFileSync(large, `{ "version": 1, "runtime": "deepagents-js", "permissions": [\n${rules.join(",\n")}\n] }\n`);
    assert.ok(readFileSync(large, "utf8").length > LONG_RUN_CHARACTERS);
    // A long dry-run file first: the run turns long before the config's analysis is loaded.
    const longDryRun = join(scratchDir("cc-dry"), "long.dryrun.jsonc");
    writeFileSync(longDryRun, `// ${"x".repeat(LONG_RUN_CHARACTERS)}\n{ "version": 1 }\n`);
    const kinds = [
      args,
      ["check", EXAMPLE, "--format", "json", "--no-analysis"],
      ["check", large, "--format", "json", "--no-analysis"],
      ["check", longDryRun, EXAMPLE, "--format", "json"],
      ["explain", EXAMPLE, "--op", "read", "--path", "/workspace/a"],
    ];
    for (const kind of kinds) assert.equal(run(cache, kind).stderr, "", kind.join(" "));
    const files = cacheFiles(cache);
    const written = files.map((f) => statSync(join(cache, f)).mtimeMs);
    for (const kind of [...kinds, ...kinds]) run(cache, kind);
    assert.deepEqual(files.map((f) => statSync(join(cache, f)).mtimeMs), written, "a cache was refused and written again");
  });

  test("a damaged cache file is refused by V8 and replaced; the output is unchanged", () => {
    const cache = join(scratchDir("cc"), "cache");
    const expected = run(cache, args);
    const [file] = cacheFiles(cache);
    writeFileSync(join(cache, file!), Buffer.alloc(4096, 7));
    assert.deepEqual(run(cache, args), expected);
    assert.notDeepEqual(readFileSync(join(cache, file!)), Buffer.alloc(4096, 7));
    assert.deepEqual(run(cache, args), expected);
  });

  test("a folder others may write is never used", { skip: process.platform === "win32" ? "POSIX modes" : false }, () => {
    const cache = join(scratchDir("cc"), "cache");
    mkdirSync(cache);
    chmodSync(cache, 0o777);
    const r = run(cache, args);
    assert.equal(r.stderr, "");
    assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}`);
    assert.deepEqual(cacheFiles(cache), []);
  });

  test("NODE_DISABLE_COMPILE_CACHE turns it off", () => {
    const cache = join(scratchDir("cc"), "cache");
    const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, NODE_COMPILE_CACHE: cache, NODE_DISABLE_COMPILE_CACHE: "1" } });
    assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}`);
    assert.throws(() => readdirSync(cache), /ENOENT/);
  });
});
