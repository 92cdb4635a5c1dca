// Bundles the e2e suite (TypeScript) for the extension host: `vscode` and `mocha` stay external.
import { build } from "esbuild";
for (const name of ["index", "lazyIndex", "extension.test", "lazyStart.test"]) {
  await build({
    entryPoints: [new URL(`./suite/${name}.ts`, import.meta.url).pathname],
    outfile: new URL(`./out/${name}.js`, import.meta.url).pathname,
    bundle: true, platform: "node", target: "node20", format: "cjs", external: ["vscode", "mocha"], logLevel: "warning",
  });
}
