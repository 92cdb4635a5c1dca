import type * as TreeSitter from "@vscode/tree-sitter-wasm";
import { registeredMap } from "../caches";

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
 * The last tree of each language and the text it is of. An editor checks the same file after every keystroke: the
 * next parse reuses this tree where the text did not change (tree-sitter's incremental parsing), so an edit of a
 * 2,000-line file costs a fraction of parsing it whole. One tree per language, replaced by each parse (trees live
 * in the WebAssembly heap, not the garbage-collected one, so the replaced tree is freed at once).
 */
class LastTrees {
  private readonly trees = new Map<SourceLanguage, { text: string; tree: TreeSitter.Tree }>();
  get size(): number {
    return this.trees.size;
  }
  /** Takes the language's tree out (the caller frees it or puts a tree back). */
  take(language: SourceLanguage): { text: string; tree: TreeSitter.Tree } | undefined {
    const last = this.trees.get(language);
    this.trees.delete(language);
    return last;
  }
  put(language: SourceLanguage, text: string, tree: TreeSitter.Tree): void {
    this.take(language)?.tree.delete();
    this.trees.set(language, { text, tree });
  }
  clear(): void {
    for (const { tree } of this.trees.values()) tree.delete();
    this.trees.clear();
  }
}
const lastTrees = registeredMap("sources/treeSitter.lastTrees", "one tree per language (three), of a file of up to 1 MB", new LastTrees());

/** Above this, a file's tree is not kept for the next parse (its memory is better given back). */
const KEEP_TREE_CHARACTERS = 1024 * 1024;

/**
 * Parses `text` with a loaded language and gives the tree to `use` (which must not keep it or its nodes).
 * Undefined when the parse was given up. Throws if the language was not loaded.
 */
export function withTree<T>(language: SourceLanguage, text: string, use: (tree: SyntaxTree) => T): T | undefined {
  const parser = parsers.get(language);
  if (!parser) throw new Error(`The ${language} grammar is not loaded.`);
  const last = lastTrees.take(language);
  let tree: TreeSitter.Tree | null;
  if (last?.text === text) tree = last.tree;
  else {
    // The previous tree helps only when the two texts share most of their text (the same file, edited).
    const edit = last ? editBetween(last.text, text) : undefined;
    const reuse = last && edit && edit.oldEndIndex - edit.startIndex <= last.text.length / 2 ? last.tree : null;
    if (reuse) reuse.edit(edit!);
    const deadline = Date.now() + PARSE_DEADLINE_MS;
    parser.reset();
    tree = parser.parse(text, reuse, { progressCallback: () => Date.now() > deadline });
    last?.tree.delete();
  }
  if (!tree) return undefined;
  try {
    return use(tree);
  } finally {
    if (text.length <= KEEP_TREE_CHARACTERS) lastTrees.put(language, text, tree);
    else tree.delete();
  }
}

/** The one edit that turns `before` into `after`: what lies between their common start and their common end. */
export function editBetween(before: string, after: string): TreeSitter.Edit {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  const oldEnd = before.length - end;
  const newEnd = after.length - end;
  return { startIndex: start, oldEndIndex: oldEnd, newEndIndex: newEnd, startPosition: pointAt(before, start), oldEndPosition: pointAt(before, oldEnd), newEndPosition: pointAt(after, newEnd) };
}

/** Row and column of an offset, as the parser counts them (UTF-16 code units, as its offsets). */
function pointAt(text: string, offset: number): TreeSitter.Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}
