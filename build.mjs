// Bundles the CLI, the language server and the VS Code client into dist/ with esbuild, minified (as shipped).
//
//   dist/cli.js             the CLI (`node dist/cli.js`: a contract): its own code only
//   dist/server.js          the language server (`node dist/server.js --stdio`): its own code only
//   dist/analysis-worker.js the server's worker thread for the exact rule analysis (the second phase)
//   dist/engine.js          the engine, once, for all three: parser, schema, model, runtimes, checks, jsonc-parser,
//                           picomatch
//   dist/analysis.js        the exact rule analysis (automata, refa: half of all the code), loaded with require()
//                           only when an analysis runs (server/src/engine/analysisLoader.ts); refa's Unicode
//                           range tables written compactly (scripts/compactTables.mjs)
//   dist/client.js          the VS Code extension's entry: registers commands, nothing else
//   dist/client-session.js  the rest of the client (vscode-languageclient), loaded after activation
//   dist/client-testing.js  Test Explorer for dry-run scenarios, loaded with the session
//   dist/lsp.js             the LSP libraries (vscode-jsonrpc, -protocol, -types), once, for server and client
//   dist/tree-sitter.js     tree-sitter's JavaScript glue, loaded with require() only when a source file is checked
//   dist/*.wasm             tree-sitter and its TypeScript, TSX and Python grammars (source files only)
//
// How the sharing works: a first pass bundles every entry alone and records which modules each contains. Within a
// group of entries (below), a module that two or more of them contain goes to the group's table bundle, whose
// entry is one lazy getter per module (`require` on first access, so a module's top level runs only when something
// uses it). The second pass bundles each entry again with every import of a shared module replaced by a read from
// that table. No module is bundled twice (build.mjs fails if one is), so module state is the same for every caller.
//
// Flags: `--outdir=DIR` builds elsewhere; `--no-minify` keeps the output readable (debugging only; `--minify`, the
// default, is accepted for older scripts).
import { build } from "esbuild";
import { nodeBundleOptions } from "./scripts/esbuildOptions.mjs";
import { compactRefaTables } from "./scripts/compactTables.mjs";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL(".", import.meta.url));
const pkg = JSON.parse(readFileSync(resolve(ROOT, "package.json"), "utf8"));
const outdir = process.argv.find((a) => a.startsWith("--outdir="))?.slice("--outdir=".length) ?? "dist";
const minify = !process.argv.includes("--no-minify");

const common = { ...nodeBundleOptions(ROOT, pkg.version), minify, legalComments: "none" };

/** Every bundle built from an entry point: `external` for the VS Code API, which the extension host provides. */
const ENTRIES = {
  // Node 22.1+ keeps V8's compiled code of the bundles between runs (its own cache, in the temp folder): much of
  // the CLI's start-up is compiling them. A no-op on older Node. ("use strict" first: it must open the file.)
  cli: { entry: "server/src/cli/main.ts", banner: { js: '#!/usr/bin/env node\n"use strict";require("node:module").enableCompileCache?.();' } },
  server: { entry: "server/src/lsp/server.ts" },
  "analysis-worker": { entry: "server/src/lsp/analysisWorker.ts" },
  analysis: { entry: "server/src/engine/analysis.ts" },
  "tree-sitter": { entry: "server/src/engine/sources/treeSitterRuntime.ts" },
  client: { entry: "client/src/extension.ts", external: ["vscode"] },
  "client-session": { entry: "client/src/session.ts", external: ["vscode"] },
  "client-testing": { entry: "client/src/testing.ts", external: ["vscode"] },
};

/** Table bundles and the entries that share them. The client's entry shares nothing: activation loads only it. */
const GROUPS = [
  { table: "engine", entries: ["cli", "server", "analysis-worker", "analysis"] },
  { table: "lsp", entries: ["server", "client-session", "client-testing"] },
];

/** Requests loaded lazily with require(), by importer: each becomes a require() of a sibling bundle. */
const LAZY = [
  { request: "./analysis", importer: `${sep}server${sep}src${sep}engine${sep}analysisLoader.ts`, bundle: "./analysis.js" },
  { request: "./session", importer: `${sep}client${sep}src${sep}extension.ts`, bundle: "./client-session.js" },
  { request: "./testing", importer: `${sep}client${sep}src${sep}extension.ts`, bundle: "./client-testing.js" },
  { request: "./treeSitterRuntime", importer: `${sep}server${sep}src${sep}engine${sep}sources${sep}treeSitter.ts`, bundle: "./tree-sitter.js" },
];
const lazy = {
  name: "lazy",
  setup(b) {
    b.onResolve({ filter: /^\.\/(analysis|session|testing|treeSitterRuntime)$/ }, (args) => {
      const target = LAZY.find((l) => l.request === args.path && args.importer.endsWith(l.importer));
      return target ? { path: target.bundle, external: true } : undefined;
    });
  },
};

/**
 * tree-sitter's glue loads two Node modules with `await import(...)` when it starts; the CLI compiles its bundles
 * through `vm.Script` (cli/compileCache.ts), where a dynamic import has no loader. They become `require` calls.
 */
const treeSitterGlue = {
  name: "tree-sitter-glue",
  setup(b) {
    b.onLoad({ filter: /tree-sitter-wasm[\\/]wasm[\\/]tree-sitter\.js$/ }, (args) => ({
      // (The glue declares a `require` of its own in that scope: the module's is kept under another name.)
      contents: `const nodeRequire = require;\n${readFileSync(args.path, "utf8").replace(/await import\((["'])(module|fs\/promises)\1\)/g, 'nodeRequire("$2")')}`,
      loader: "js",
    }));
  },
};

/** Imports of a module in `shared` (repo-relative path → key) read it from the table bundle `table` instead. */
function useShared(table, shared) {
  const file = `./${table}.js`;
  const namespace = `shared-${table}`;
  return {
    name: namespace,
    setup(b) {
      b.onResolve({ filter: /.*/, namespace }, (args) => (args.path === file ? { path: file, external: true } : undefined));
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === "entry-point" || args.pluginData === namespace || args.namespace !== "file") return undefined;
        const resolved = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: namespace });
        if (resolved.errors.length || resolved.external || !resolved.path) return undefined;
        const key = shared.get(relative(ROOT, resolved.path).split(sep).join("/"));
        return key === undefined ? undefined : { path: key, namespace };
      });
      b.onLoad({ filter: /.*/, namespace }, (args) => ({ contents: `module.exports = require(${JSON.stringify(file)})[${JSON.stringify(args.path)}];`, loader: "js" }));
    },
  };
}

/** A table bundle's entry: one lazy getter per shared module. */
function tableSource(shared) {
  const lines = ["const table = (module.exports = {});"];
  for (const [path, key] of shared) {
    lines.push(`Object.defineProperty(table, ${JSON.stringify(key)}, { enumerable: true, get: () => require(${JSON.stringify(resolve(ROOT, path))}) });`);
  }
  return lines.join("\n");
}

/**
 * A module's key in its table: short (every bundle that imports the module names it) and a function of the path
 * alone, so that bundles of two builds never read each other's modules under the wrong name (FNV-1a, base 36).
 */
function keyOf(path) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36);
}

const inputsOf = (result) => Object.keys(Object.values(result.metafile.outputs)[0].inputs);
const options = (name) => ({ ...common, entryPoints: [ENTRIES[name].entry], ...(ENTRIES[name].external ? { external: ENTRIES[name].external } : {}) });

// Pass 1: every entry alone.
const alone = {};
for (const name of Object.keys(ENTRIES)) {
  const result = await build({ ...options(name), outfile: "pass1.js", write: false, metafile: true, minify: false, plugins: [lazy, treeSitterGlue, compactRefaTables] });
  alone[name] = inputsOf(result);
}
const assigned = new Set();
for (const group of GROUPS) {
  const counts = new Map();
  for (const name of group.entries) for (const input of alone[name]) counts.set(input, (counts.get(input) ?? 0) + 1);
  const paths = [...counts].filter(([path, n]) => n > 1 && !assigned.has(path)).map(([path]) => path).sort();
  for (const path of paths) assigned.add(path);
  group.shared = new Map(paths.map((path) => [path, keyOf(path)]));
  if (new Set(group.shared.values()).size !== paths.length) throw new Error(`build.mjs: two module keys collide in ${group.table}.js; lengthen keyOf`);
}

// Pass 2, in memory: dist/ is written only once everything built (other processes may be running from it).
const outputs = {};
const files = new Map();
const keep = (result) => {
  for (const file of result.outputFiles) files.set(basename(file.path), file.contents);
  return inputsOf(result);
};
for (const group of GROUPS) {
  const result = await build({
    ...common,
    stdin: { contents: tableSource(group.shared), resolveDir: ROOT, sourcefile: `${group.table}-table.js`, loader: "js" },
    outfile: `${outdir}/${group.table}.js`,
    write: false,
    metafile: true,
    plugins: [lazy],
  });
  outputs[group.table] = keep(result);
}
for (const name of Object.keys(ENTRIES)) {
  const shares = GROUPS.filter((g) => g.entries.includes(name)).map((g) => useShared(g.table, g.shared));
  const banner = ENTRIES[name].banner ? { banner: ENTRIES[name].banner } : {};
  const result = await build({ ...options(name), outfile: `${outdir}/${name}.js`, write: false, metafile: true, plugins: [lazy, treeSitterGlue, compactRefaTables, ...shares], ...banner });
  outputs[name] = keep(result);
}

// What must not happen: a module in two bundles (the client's entry may repeat its two constant modules), refa
// outside analysis.js, the engine or the LSP libraries in the client's entry.
const MAY_REPEAT = new Set(["server/src/commands.ts", "client/src/constants.ts"]);
const problems = [];
const owner = new Map();
for (const [name, inputs] of Object.entries(outputs)) {
  for (const input of inputs) {
    if (input.startsWith("shared-") || input.endsWith("-table.js")) continue;
    if (owner.has(input) && !MAY_REPEAT.has(input)) problems.push(`${input} is in both ${owner.get(input)}.js and ${name}.js`);
    owner.set(input, name);
    if (input.includes("node_modules/refa/") && name !== "analysis") problems.push(`refa is in ${name}.js (only analysis.js may hold it)`);
    if (name === "client" && !MAY_REPEAT.has(input) && !input.startsWith("client/src/")) problems.push(`the client's entry bundles ${input}`);
  }
}
if (problems.length) {
  console.error(`build.mjs: the bundles are not laid out as intended:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}

// The parser's WebAssembly (server/src/engine/sources/treeSitter.ts): the runtime and the three grammars the source
// front ends use, from @vscode/tree-sitter-wasm, beside the bundles (server/src/host/grammarFiles.ts reads them there).
// Read only when a source file is checked; activation and JSONC checks never touch them.
const WASM_DIR = resolve(ROOT, "node_modules/@vscode/tree-sitter-wasm/wasm");
for (const name of ["tree-sitter.wasm", "tree-sitter-typescript.wasm", "tree-sitter-tsx.wasm", "tree-sitter-python.wasm"]) {
  files.set(name, readFileSync(resolve(WASM_DIR, name)));
}

// Each file replaced by a rename (a process starting meanwhile sees the old file or the new one, never half of
// one); files of an earlier layout go.
const dir = resolve(ROOT, outdir);
mkdirSync(dir, { recursive: true });
for (const [name, contents] of files) {
  const temporary = resolve(dir, `.${name}.${process.pid}.tmp`);
  writeFileSync(temporary, contents, { mode: name === "cli.js" ? 0o755 : 0o644 });
  renameSync(temporary, resolve(dir, name));
}
for (const name of readdirSync(dir)) if (!files.has(name)) rmSync(resolve(dir, name), { recursive: true, force: true });
