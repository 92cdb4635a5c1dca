import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { GrammarFiles } from "../engine/sources";

/**
 * The parser's `.wasm` files, for the CLI and the language server: next to the bundle in dist/ (build.mjs copies
 * them there; the VSIX ships them), or, run from the sources (tests), in the package that provides them.
 */
export const grammarFiles: GrammarFiles = (fileName) => readFileSync(locate(fileName));

function locate(fileName: string): string {
  const beside = join(__dirname, fileName);
  if (existsSync(beside)) return beside;
  // server/src/host → the package in node_modules (a bundle never gets here: build.mjs puts the files beside it).
  return join(__dirname, "../../../node_modules/@vscode/tree-sitter-wasm/wasm", fileName);
}
