// Bundles the CLI (and, as they land, the language server and the VS Code client) into dist/ with esbuild.
import { build } from "esbuild";
import { readFileSync, rmSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
const common = {
  bundle: true,
  platform: "node",
  // jsonc-parser's UMD build requires its modules dynamically; its ESM build bundles cleanly.
  mainFields: ["module", "main"],
  target: "node20",
  format: "cjs",
  sourcemap: false,
  minify: process.argv.includes("--minify"),
  legalComments: "none",
  define: { AGENT_SANDBOX_VERSION: JSON.stringify(pkg.version) },
  logLevel: "warning",
};

rmSync(new URL("./dist", import.meta.url), { recursive: true, force: true });
await build({ ...common, entryPoints: ["server/src/cli/main.ts"], outfile: "dist/cli.js", banner: { js: "#!/usr/bin/env node" } });
