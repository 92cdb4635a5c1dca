// tree-sitter's JavaScript glue, as its own bundle (build.mjs: dist/tree-sitter.js), required by treeSitter.ts only
// when a source file is first checked: no other run parses its 170 kB.
export { Parser, Language } from "@vscode/tree-sitter-wasm";
