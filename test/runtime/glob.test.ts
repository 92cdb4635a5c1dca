import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deepagentsJs, deepagentsPy } from "../../server/src/engine/runtime";
import { codes, specText, stripMarkup, tableRows } from "../helpers/specTables";

const rows = tableRows(specText("deepagents-semantics.md"), /^G\d+$/);

describe("§2.1 matcher table (G1–G127), both runtimes", () => {
  test("the table has 127 rows", () => assert.equal(rows.length, 127));
  for (const [id, patternCell, pathCell, jsCell, pyCell] of rows) {
    const pattern = codes(patternCell!)[0]!;
    const path = codes(pathCell!)[0]!;
    test(`${id} ${pattern} ~ ${path}: deepagents-js ${stripMarkup(jsCell!)}`, () => {
      assert.equal(deepagentsJs.compilePattern(pattern).matches(path), stripMarkup(jsCell!) === "match");
    });
    test(`${id} ${pattern} ~ ${path}: deepagents-py ${stripMarkup(pyCell!)}`, () => {
      assert.equal(deepagentsPy.compilePattern(pattern).matches(path), stripMarkup(pyCell!) === "match");
    });
  }
});

describe("literal prefixes never claim more than the matcher", () => {
  for (const [id, patternCell, pathCell] of rows) {
    const pattern = codes(patternCell!)[0]!;
    const path = codes(pathCell!)[0]!;
    for (const runtime of [deepagentsJs, deepagentsPy]) {
      const compiled = runtime.compilePattern(pattern);
      if (compiled.matches(path) && !path.startsWith("//")) {
        test(`${id} ${runtime.id}: ${path} starts with "${compiled.literalPrefix}"`, () => assert.ok(path.startsWith(compiled.literalPrefix)));
      }
    }
  }
});
