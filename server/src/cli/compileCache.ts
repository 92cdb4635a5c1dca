/**
 * V8's compiled code of the CLI's sibling bundles (engine.js, and analysis.js when --analysis loads it) kept between
 * runs on Node 20, where `module.enableCompileCache` (Node 22.1+, called by the bundle's first line) does not exist:
 * compiling the engine's 230 KB is a good part of the CLI's start-up (bench/cli.ts), and most runs load the same
 * bundles as the last one.
 *
 * How: while the bundle runs as the main module, `.js` files of its own folder are compiled through `vm.Script` with
 * the cached data of an earlier run; when there was none (or V8 refused it: another Node version or other V8
 * flags), the data is created when the process exits, so that it holds every function this run compiled, not just
 * the top level.
 *
 * Where: `$NODE_COMPILE_CACHE` (the variable Node 22 reads) or `<tmpdir>/agent-sandbox-compile-cache`, a folder only
 * the current user may write (cached code is run as is: a folder others can write is never used). One file per
 * bundle, named after the bundle's path, size, modification time, inode and the Node version and architecture;
 * V8 checks its own version, flags and the source's length on top. `NODE_DISABLE_COMPILE_CACHE` (Node 22's
 * variable) turns it off.
 *
 * What it is worth, measured with `node --import tsx bench/cliMachinery.ts --runs 15` (the built CLI on Node 20,
 * CPU time of the process, medians of 15 interleaved rounds, load average 20 to 26 on 2 cores): without it the
 * example's `check` (mostly start-up) takes 460 ms of CPU instead of 320 (1.44×), and `check --no-analysis` of
 * 1,000 rules 220 instead of 200 (1.10×); a run of seconds (200 rules with the analysis, 4.4 s) the same.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { tmpdir } from "node:os";
import type { Script } from "node:vm";

interface NodeModule {
  exports: unknown;
  filename: string;
  require(id: string): unknown;
}
type Loader = (module: NodeModule, filename: string) => void;
interface ModuleStatics {
  _extensions: Record<string, Loader>;
  _resolveFilename(request: string, parent: NodeModule, isMain: boolean, options?: unknown): string;
  _cache: unknown;
  wrap(source: string): string;
}

/** FNV-1a of a string, base 36: a short, stable file name for a bundle's path. */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36);
}

/** The cache folder, created if need be; `undefined` when it cannot be used safely. */
function cacheFolder(): string | undefined {
  const folder = process.env.NODE_COMPILE_CACHE || join(tmpdir(), "agent-sandbox-compile-cache");
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = statSync(folder);
    const uid = process.getuid?.();
    // Anyone who can write the folder can choose the code this process runs.
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (process.platform !== "win32" && (stat.mode & 0o022) !== 0)) return undefined;
    return folder;
  } catch {
    return undefined;
  }
}

/**
 * Installs the cache for `.js` files in `bundleFolder` (the running bundle's own folder). Does nothing where Node
 * has its own cache, when it is turned off, or when the folder cannot be used.
 */
export function installCompileCache(bundleFolder: string): void {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return;
  const nodeModule = require("node:module") as typeof import("node:module") & { enableCompileCache?: unknown };
  if (typeof nodeModule.enableCompileCache === "function") return;
  const Module = nodeModule as unknown as ModuleStatics;
  const original = Module._extensions[".js"];
  if (!original) return;
  let folder: string | undefined | null = null;
  const toWrite: { script: Script; file: string; prefix: string }[] = [];

  Module._extensions[".js"] = (module, filename) => {
    if (dirname(filename) !== bundleFolder) return original(module, filename);
    folder ??= cacheFolder();
    if (folder === undefined) return original(module, filename);
    const vm = require("node:vm") as typeof import("node:vm");
    const source = readFileSync(filename, "utf8");
    const stat = statSync(filename);
    const prefix = `${basename(filename)}-${hashOf(filename)}-`;
    const file = join(folder, `${prefix}${hashOf(`${stat.size} ${stat.mtimeMs} ${stat.ino} ${stat.dev} ${process.version} ${process.arch}`)}.cache`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    const script = new vm.Script(Module.wrap(source), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) toWrite.push({ script, file, prefix });
    const compiled = script.runInThisContext({ displayErrors: true }) as (exports: unknown, require: unknown, module: NodeModule, filename: string, dirname: string) => void;
    // What Node gives a CommonJS module as `require`: the bundles use require(id) and nothing else of it.
    const localRequire = Object.assign((id: string) => module.require(id), {
      resolve: (request: string, options?: unknown) => Module._resolveFilename(request, module, false, options),
      main: require.main,
      cache: Module._cache,
      extensions: Module._extensions,
    });
    compiled.call(module.exports, module.exports, localRequire, module, filename, dirname(filename));
  };

  process.once("exit", () => {
    for (const { script, file, prefix } of toWrite) {
      try {
        const data = script.createCachedData();
        // Older caches of the same bundle path are of files that are gone.
        for (const name of readdirSync(dirname(file))) if (name.startsWith(prefix) && name.endsWith(".cache")) rmSync(join(dirname(file), name), { force: true });
        // A whole file or none: other runs may be reading the folder.
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, data, { mode: 0o600 });
        renameSync(temporary, file);
      } catch {
        // A cache that cannot be written costs the next run its compile time, nothing else.
      }
    }
  });
}

// Before main.ts's other imports load engine.js: this module is imported first. Only as the CLI's bundle (tests
// import main.ts from the sources, where there is nothing to cache).
if (require.main === module) installCompileCache(__dirname);
