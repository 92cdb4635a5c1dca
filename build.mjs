// Bundles the CLI, the language server and the VS Code client into dist/ with esbuild.
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

// `--outdir=DIR` builds elsewhere (the benchmark measures the shipped, minified bundles without touching dist/).
const outdir = process.argv.find((a) => a.startsWith("--outdir="))?.slice("--outdir=".length) ?? "dist";
rmSync(outdir, { recursive: true, force: true });
await build({ ...common, entryPoints: ["server/src/cli/main.ts"], outfile: `${outdir}/cli.js`, banner: { js: "#!/usr/bin/env node" } });
// The language server: IPC when VS Code starts it, `--stdio` for other editors.
await build({ ...common, entryPoints: ["server/src/lsp/server.ts"], outfile: `${outdir}/server.js` });
// The VS Code client: `vscode` is provided by the extension host.
await build({ ...common, entryPoints: ["client/src/extension.ts"], outfile: `${outdir}/client.js`, external: ["vscode"] });
