/**
 * Every cache kept across runs is in one list (server/src/engine/caches.ts): none is made outside it, each has a
 * bound, and `clearCaches` empties all of them.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { clearCaches, memo, registeredCaches } from "../../server/src/engine/caches";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { SCHEMA_URI } from "../../bench/check";
import { generateConfigText } from "../../bench/generate";

const SOURCES = join(__dirname, "..", "..", "server", "src");

/** The registry's own modules: the only places a cache's class may be constructed. */
const REGISTRY_MODULES = ["engine/caches.ts", "engine/boundedCache.ts", "engine/memo.ts"];

/**
 * Module-level collections that start empty and are not caches: the state of a running host, or a constant.
 * Each with why; anything else empty at module level is a cache and must be made through caches.ts.
 */
const NOT_CACHES: Readonly<Record<string, string>> = {
  "lsp/server.ts workspaceFiles": "the configs the server found in the workspace: its state, not a copy of an answer",
  "lsp/server.ts pushed": "the files whose diagnostics were pushed: the client's state",
  "lsp/server.ts pending": "the debounce timers of open files",
  "lsp/server.ts lastNotified": "what the client was last told per file",
  "cli/v8Flags.ts phasesSet": "the V8 flag phases this process has entered",
  "engine/authorization/rbac.ts EMPTY": "a read-only empty set",
  "engine/sources/treeSitter.ts languages": "the grammars loaded, one per source language (three at most): the parser's state, which a host loads once, asynchronously, before checking; emptied, checks would find no grammar",
  "engine/sources/treeSitter.ts parsers": "a parser per loaded grammar (three at most), as above",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith(".ts") ? [path] : [];
  });
}

const files = sourceFiles(SOURCES).map((path) => ({ path, name: relative(SOURCES, path).split("\\").join("/"), text: readFileSync(path, "utf8") }));

/** The names given to caches.ts's constructors in the sources: `memo<…>("name")`, `sharedCache<…>("name", …)`, … */
const REGISTRATION = /\b(?:sharedCache|cachesPerOwner|weakCache|memo|registeredMap)(?:<.*?>)?\(\s*"([^"]+)"/g;

test("no cache is made outside the registry: no BoundedCache or Memo constructed, no empty collection at module level", () => {
  const outside: string[] = [];
  for (const { name, text } of files) {
    if (REGISTRY_MODULES.includes(name)) continue;
    text.split("\n").forEach((line, i) => {
      if (/\bnew (?:BoundedCache|Memo)\b/.test(line)) outside.push(`${name}:${i + 1}: ${line.trim()}`);
      // At module level (column 0), a Map, WeakMap or Set that starts empty is filled as the program runs.
      const empty = /^(?:export )?(?:const|let) (\w+)\b.*=\s*new (?:Map|WeakMap|Set|WeakSet)(?:<.*>)?\(\)/.exec(line);
      if (empty && !NOT_CACHES[`${name} ${empty[1]}`]) outside.push(`${name}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(outside, [], "make these through server/src/engine/caches.ts (or, for a host's state, list them in NOT_CACHES with why)");
});

test("every cache named in the sources is registered once its module is loaded, each with a bound", async () => {
  const named = new Map<string, string>();
  for (const { name, text } of files) {
    if (REGISTRY_MODULES.includes(name)) continue;
    for (const m of text.matchAll(REGISTRATION)) {
      assert.ok(!named.has(m[1]!), `${m[1]} is named twice (${named.get(m[1]!)}, ${name})`);
      named.set(m[1]!, name);
    }
  }
  // The modules that make caches, loaded (the engine's bundle loads a module on first use).
  for (const module of new Set(named.values())) await import(join(SOURCES, module));
  const registered = registeredCaches();
  assert.deepEqual(registered.map((c) => c.name).sort(), [...named.keys()].sort());
  for (const cache of registered) assert.ok(cache.bound.trim().length > 0, `${cache.name} has no bound`);
  // The figure the issue counted: about two dozen caches and nine memos.
  assert.ok(registered.length >= 30, `${registered.length} caches`);
});

test("clearCaches empties every cache a checked config filled, and the next check answers the same", () => {
  const texts = [generateConfigText(12, 3, SCHEMA_URI), generateConfigText(12, 4, SCHEMA_URI).replace('"runtime": "deepagents-js"', '"runtime": "deepagents-py"')];
  const before = texts.map((text) => JSON.stringify(checkConfigText(text, { analysis: true }).findings));
  const filled = registeredCaches().filter((c) => c.size() > 0);
  // Compiled patterns, automata, memos of the models, decisions: most of the list holds something now.
  assert.ok(filled.length >= 15, `only ${filled.map((c) => c.name).join(", ")} held entries`);
  clearCaches();
  assert.deepEqual(registeredCaches().filter((c) => c.size() > 0).map((c) => c.name), []);
  assert.deepEqual(texts.map((text) => JSON.stringify(checkConfigText(text, { analysis: true }).findings)), before);
});

test("a cleared memo reads nothing for the objects it had values for", () => {
  const m = memo<object, number>("test/caches.aMemo");
  const key = {};
  m.set(key, 1);
  assert.equal(m.get(key), 1);
  assert.ok(registeredCaches().find((c) => c.name === "test/caches.aMemo")!.size() === 1);
  clearCaches();
  assert.equal(m.get(key), undefined);
  m.set(key, 2);
  assert.equal(m.get(key), 2);
});
