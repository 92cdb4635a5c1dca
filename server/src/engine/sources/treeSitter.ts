import type * as TreeSitter from "@vscode/tree-sitter-wasm";

/**
 * Tree-sitter through its WebAssembly build, with the grammars VS Code itself ships (`@vscode/tree-sitter-wasm`):
 * one error-tolerant parser for TypeScript, JavaScript and Python (README, "Dependencies", says why this one).
 *
 * Nothing here runs until a host asks for a language: the runtime's `.wasm` and each grammar are read (through the
 * host's `GrammarFiles`, the engine reads no file itself) the first time a file of that language is checked.
 * Loading is asynchronous (WebAssembly compiles so); parsing after it is synchronous.
 */
export type SourceLanguage = "typescript" | "tsx" | "python";

/** Reads one of the shipped `.wasm` files by name (`tree-sitter.wasm`, `tree-sitter-python.wasm`, …). */
export type GrammarFiles = (fileName: string) => Uint8Array | Promise<Uint8Array>;

export type SyntaxNode = TreeSitter.Node;
export type SyntaxTree = TreeSitter.Tree;

const GRAMMAR_FILE: Record<SourceLanguage, string> = {
  typescript: "tree-sitter-typescript.wasm",
  tsx: "tree-sitter-tsx.wasm",
  python: "tree-sitter-python.wasm",
};
/** Every `.wasm` file the product ships (build.mjs copies them into dist/). */
export const WASM_FILES = ["tree-sitter.wasm", ...Object.values(GRAMMAR_FILE)] as const;

let runtime: Promise<typeof TreeSitter> | undefined;
const languages = new Map<SourceLanguage, Promise<TreeSitter.Language>>();
const parsers = new Map<SourceLanguage, TreeSitter.Parser>();

function loadRuntime(files: GrammarFiles): Promise<typeof TreeSitter> {
  runtime ??= (async () => {
    // Required here, not imported at the top: its 170 kB of glue are read only when a source file is checked.
    const module = require("./treeSitterRuntime") as typeof TreeSitter;
    const wasmBinary = await files("tree-sitter.wasm");
    // `wasmBinary`: the module is given its bytes instead of fetching or reading them itself.
    await module.Parser.init({ wasmBinary } as unknown as Parameters<typeof module.Parser.init>[0]);
    return module;
  })();
  return runtime;
}

/** Loads the parser for `language` (once; later calls return at once). Rejects when a file cannot be read. */
export async function loadLanguage(language: SourceLanguage, files: GrammarFiles): Promise<void> {
  if (parsers.has(language)) return;
  const module = await loadRuntime(files);
  let loading = languages.get(language);
  if (!loading) {
    loading = (async () => module.Language.load(await files(GRAMMAR_FILE[language])))();
    languages.set(language, loading);
  }
  const grammar = await loading;
  if (!parsers.has(language)) {
    const parser = new module.Parser();
    parser.setLanguage(grammar);
    parsers.set(language, parser);
  }
}

/** Whether `loadLanguage(language)` has finished. */
export function isLanguageLoaded(language: SourceLanguage): boolean {
  return parsers.has(language);
}

/**
 * How long one parse may take. Tree-sitter's error recovery is slow on text that is not code at all (a few hundred
 * kilobytes of random bytes take minutes), and nothing counts its work, so this one bound is a clock: a parse that
 * reaches it is given up, and the file is treated as one that calls nothing. No real source file comes near it
 * (a 2,000-line file parses in tens of milliseconds).
 */
export const PARSE_DEADLINE_MS = 1000;

/**
 * Parses `text` with a loaded language and gives the tree to `use`, then frees it (trees live in the WebAssembly
 * heap, not the garbage-collected one). Undefined when the parse was given up. Throws if the language was not loaded.
 */
export function withTree<T>(language: SourceLanguage, text: string, use: (tree: SyntaxTree) => T): T | undefined {
  const parser = parsers.get(language);
  if (!parser) throw new Error(`The ${language} grammar is not loaded.`);
  const deadline = Date.now() + PARSE_DEADLINE_MS;
  parser.reset();
  const tree = parser.parse(text, null, { progressCallback: () => Date.now() > deadline });
  if (!tree) return undefined;
  try {
    return use(tree);
  } finally {
    tree.delete();
  }
}
