import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The product's own documentation, as installed beside the code that runs: a bundle in `dist/` has it at
 * `../docs` (the extension's folder, the npm package, a checkout), the TypeScript sources under `server/src/…` a
 * few levels further up. Every diagnostic code links to its page there, so a link works offline and opens the
 * page of the version that produced the finding; no web page of the product is assumed to exist.
 */
export function docsFolder(from: string = __dirname): string {
  for (let dir = from, up = 0; up < 5; up++, dir = dirname(dir)) {
    if (existsSync(join(dir, "docs", "checks"))) return join(dir, "docs");
  }
  // Not installed beside its docs (a bundle copied elsewhere): the conventional place, named all the same.
  return join(from, "..", "docs");
}

/** The `file:` URI of the docs folder (no trailing slash): what a client can open without a network. */
export function docsUri(from?: string): string {
  return pathToFileURL(docsFolder(from)).href;
}
