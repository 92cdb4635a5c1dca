/**
 * The reference pages (docs/reference/) show a selection of the vectors the test suite runs. Each row shown there
 * must say what the vector tables under test/vectors/ say (the tables the runtime tests read), so the pages cannot
 * drift from what is tested: the row must exist, every code span of the page's row must appear in the table's row,
 * and the verdicts (match/no, ALLOW/DENY/ERROR, scoped/not scoped, block/allow) must be the table's.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { codes, specText, stripMarkup, tableRows } from "../helpers/specTables";
import { ROOT } from "./markdownBlocks";

const ID = /^([VCGTDRAS])\d+$/;
const vectors = specText("deepagents-semantics.md");
/** The table row of each vector id (its first word: the delete table writes "D12  deny write /proj"). */
const byId = new Map<string, string[]>();
for (const row of tableRows(vectors, /^[VCGTDRAS]\d+\b/)) {
  const id = stripMarkup(row[0]!).split(/\s+/)[0]!;
  if (!byId.has(id)) byId.set(id, row);
}

const firstWord = (cell: string) => stripMarkup(cell).replace(/`/g, "").split(/[\s(,;]+/)[0]!.toLowerCase();
const scoped = (cell: string) => (/not scoped/i.test(cell) ? "not scoped" : /scoped/i.test(cell) ? "scoped" : cell);

test("every vector a reference page shows says what the tested vector tables say", () => {
  const pages = readdirSync(join(ROOT, "docs", "reference")).filter((f) => f.endsWith(".md"));
  let shown = 0;
  for (const page of pages) {
    for (const row of tableRows(readFileSync(join(ROOT, "docs", "reference", page), "utf8"), ID)) {
      const id = stripMarkup(row[0]!);
      const where = `docs/reference/${page}, ${id}`;
      const vector = byId.get(id);
      assert.ok(vector, `${where}: no such vector in test/vectors/deepagents-semantics.md`);
      shown++;
      // Bold markers are markup outside code spans and text inside them (`/**`): look in both readings.
      const raw = vector.join(" | ");
      for (const span of row.slice(1).flatMap(codes)) {
        assert.ok(raw.includes(span) || raw.replace(/\*\*/g, "").includes(span), `${where}: \`${span}\` is not in the vector's row: ${raw}`);
      }
      const kind = id[0];
      if (kind === "G") assert.deepEqual(row.slice(3, 5).map(firstWord), vector.slice(3, 5).map(firstWord), where);
      if (kind === "T") assert.deepEqual(row.slice(3, 5).map(firstWord), vector.slice(3, 5).map(firstWord), where);
      if (kind === "R") assert.deepEqual(row.slice(3, 5).map(scoped), vector.slice(3, 5).map(scoped), where);
      if (kind === "D") assert.deepEqual(row.slice(3, 7).map(firstWord), vector.slice(2, 6).map(firstWord), where);
    }
  }
  assert.ok(shown >= 60, `only ${shown} vectors shown`);
});
