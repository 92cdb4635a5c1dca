// The built CLI keeps V8's compiled code of its bundles between runs on Node 20 (server/src/cli/compileCache.ts).
// Node 22.1+ has its own cache (module.enableCompileCache), which the CLI uses instead: there is nothing of ours
// to test there.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { scratchDir } from "../helpers/scratch";

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
    const written = statSync(join(cache, files[0]!)).mtimeMs;
    const second = run(cache, args);
    assert.deepEqual(second, first);
    // Accepted, so not written again.
    assert.equal(statSync(join(cache, files[0]!)).mtimeMs, written);
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
