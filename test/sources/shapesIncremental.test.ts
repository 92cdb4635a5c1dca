import { before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { clearCaches } from "../../server/src/engine/caches";
import { readAgents, sourceLanguageOf } from "../../server/src/engine/sources";
import { editBetween, withTree, type SourceLanguage } from "../../server/src/engine/sources/treeSitter";
import { loadGrammars, SOURCE_FIXTURES } from "../helpers/sources";

// Incremental parsing (treeSitter.ts keeps each language's last tree for the next parse): after any edit, the tree
// and what is read from it are those a parse from scratch gives. Edits of every kind the editor sends: a character
// typed or deleted, a line pasted, text with characters outside the BMP and CRLF line ends, an edit at either end.

before(loadGrammars);

const fresh = (language: SourceLanguage, text: string) => {
  clearCaches();
  return withTree(language, text, (tree) => tree.rootNode.toString());
};
const incremental = (language: SourceLanguage, before: string, after: string) => {
  clearCaches();
  withTree(language, before, () => undefined);
  return withTree(language, after, (tree) => tree.rootNode.toString());
};

/** A small seeded generator, so that a failure names an edit that can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const PIECES = ["x", "", "\n", "  ", '"', "(", ")", "[", "]", "{", "}", ",", "é", "😀", "\r\n", "# note\n", "// note\n", "permissions", "import deepagents\n"];

const files = ["ts", "py", "shapes/ts", "shapes/py"].flatMap((folder) =>
  readdirSync(join(SOURCE_FIXTURES, folder))
    .filter((f) => sourceLanguageOf(f))
    .map((f) => ({ name: `${folder}/${f}`, language: sourceLanguageOf(f)!, text: readFileSync(join(SOURCE_FIXTURES, folder, f), "utf8") })),
);

test("the edit between two texts is the part between their common start and end", () => {
  assert.deepEqual(editBetween("ab\ncd", "ab\ncXd"), { startIndex: 4, oldEndIndex: 4, newEndIndex: 5, startPosition: { row: 1, column: 1 }, oldEndPosition: { row: 1, column: 1 }, newEndPosition: { row: 1, column: 2 } });
  assert.deepEqual(editBetween("aaa", "aa"), { startIndex: 2, oldEndIndex: 3, newEndIndex: 2, startPosition: { row: 0, column: 2 }, oldEndPosition: { row: 0, column: 3 }, newEndPosition: { row: 0, column: 2 } });
});

for (const file of files) {
  test(`incremental parsing after edits: ${file.name}`, () => {
    const next = random(file.text.length);
    let text = file.text;
    for (let i = 0; i < 12; i++) {
      const at = Math.floor(next() * (text.length + 1));
      const cut = Math.min(text.length - at, Math.floor(next() * 4));
      const piece = PIECES[Math.floor(next() * PIECES.length)]!;
      const edited = text.slice(0, at) + piece + text.slice(at + cut);
      const where = `${file.name}, edit ${i}: ${JSON.stringify(piece)} at ${at} replacing ${cut}`;
      assert.equal(incremental(file.language, text, edited), fresh(file.language, edited), where);
      // What is read from the kept tree is what is read from a fresh one.
      clearCaches();
      const read = (t: string) => JSON.stringify(readAgents(t, file.language).map((a) => [a.config, a.call]), (key, value: unknown) => (key === "parent" ? undefined : value));
      const expected = read(edited);
      clearCaches();
      readAgents(text, file.language);
      assert.equal(read(edited), expected, where);
      text = edited;
    }
  });
}
