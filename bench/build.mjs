// Bundles the benchmark (bench/run.ts and everything it imports: the engine's sources, vscode-json-languageservice)
// with esbuild, as build.mjs bundles the product, into bench/run.bundle.js (not committed). `npm run bench` runs
// that bundle rather than the sources through tsx: tsx keeps function names by wrapping every nested function in a
// `__name(…)` call (Object.defineProperty at each closure's creation), which the shipped bundles do not do and
// which cost the engine 5–10 % of its time in section 2; so each side is timed as it ships.
import { build } from "esbuild";
import { nodeBundleOptions } from "../scripts/esbuildOptions.mjs";
import { compactRefaTables } from "../scripts/compactTables.mjs";
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

/**
 * The harness's own files (bench/, test/) find the repository from `__dirname`, as tsx runs them, each from its
 * own folder (test/lsp/lspClient.ts: two levels up); in one bundle `__dirname` would be bench/ for all of them.
 * So in those files it is replaced by the folder of the file itself, and `__filename` by the file.
 */
const harnessPaths = {
  name: "harness-paths",
  setup(b) {
    b.onLoad({ filter: /[\\/](bench|test)[\\/].*\.ts$/ }, (args) => {
      if (args.path.includes("node_modules")) return undefined;
      const source = readFileSync(args.path, "utf8");
      const contents = source.replace(/\b__dirname\b/g, JSON.stringify(dirname(args.path))).replace(/\b__filename\b/g, JSON.stringify(args.path));
      return { contents, loader: "ts" };
    });
  },
};

await build({
  ...nodeBundleOptions(ROOT, pkg.version),
  entryPoints: ["bench/run.ts"],
  // Beside the sources (git-ignored); the harness finds the repository through `harnessPaths`.
  outfile: "bench/run.bundle.js",
  // Readable stack traces if the benchmark fails; minifying changes names, not speed.
  minify: false,
  plugins: [harnessPaths, compactRefaTables],
});
