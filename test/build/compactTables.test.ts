// The build writes refa's Unicode range tables compactly (scripts/compactTables.mjs). These tests hold the rewritten
// library to the original: every list decodes to what JSON.parse gave, and the two libraries agree on real patterns.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
// @ts-expect-error: a build script in plain JavaScript, without type declarations
import { compactRangeTables, DECODER_NAME, DECODER_SOURCE, encodeRanges } from "../../scripts/compactTables.mjs";

const ROOT = join(__dirname, "..", "..");
const require = createRequire(__filename);
const REFA = join(ROOT, "node_modules", "refa", "index.js");
const original = readFileSync(REFA, "utf8");

type Range = { min: number; max: number };
const decode = new Function(`${DECODER_SOURCE}; return ${DECODER_NAME};`)() as (s: string) => Range[];

test("every range list of refa decodes to exactly what JSON.parse gave, keys in the same order", () => {
  const lists = [...original.matchAll(/JSON\.parse\('(\[\{"min"[^']*\])'\)/g)].map((m) => m[1]!);
  assert.ok(lists.length > 300, `only ${lists.length} range lists found: has refa changed its layout?`);
  const { count } = compactRangeTables(original);
  assert.equal(count, lists.length, "a range list was left out of the rewrite");
  for (const json of lists) {
    const expected = JSON.parse(json) as Range[];
    const decoded = decode(encodeRanges(expected));
    assert.equal(JSON.stringify(decoded), JSON.stringify(expected));
  }
  // Edge cases the tables may not have: empty, a single point, a gap of zero, an unsorted list.
  for (const ranges of [[], [{ min: 0, max: 0 }], [{ min: 5, max: 9 }, { min: 9, max: 12 }], [{ min: 100, max: 200 }, { min: 3, max: 4 }], [{ min: 0, max: 1114111 }]]) {
    assert.deepEqual(decode(encodeRanges(ranges)), ranges);
  }
});

test("the rewritten refa is half the size and parses patterns exactly as the original does", () => {
  const { contents } = compactRangeTables(original);
  assert.ok(contents.length < original.length * 0.7, `${contents.length} of ${original.length} bytes`);
  const rewritten = { exports: {} as Record<string, unknown> };
  new Function("exports", "require", "module", contents)(rewritten.exports, require, rewritten);
  const libraries = [require(REFA), rewritten.exports] as Array<{ JS: { Parser: { fromLiteral(l: { source: string; flags: string }): { parse(options?: { maxNodes: number }): { expression: unknown } } } } }>;
  const patterns = [
    ["\\p{L}+", "u"], ["\\p{Script=Greek}", "u"], ["\\P{Lu}", "u"], ["[\\p{N}&&\\p{ASCII}]", "v"], ["\\w\\d\\s", "iu"],
    ["k", "iu"], ["[a-zß]", "i"], ["\\p{Emoji_Presentation}", "u"], ["\\p{RGI_Emoji}", "v"], [".", "su"], ["\\b\\W", "u"],
  ] as const;
  for (const [source, flags] of patterns) {
    const [a, b] = libraries.map((lib) => JSON.stringify(lib.JS.Parser.fromLiteral({ source, flags }).parse({ maxNodes: 1_000_000 }).expression, (key, value) => (key === "parent" ? undefined : value)));
    assert.equal(b, a, `/${source}/${flags}`);
  }
});

test("the shipped analysis bundle holds refa with its tables rewritten", () => {
  const source = readFileSync(join(ROOT, "build.mjs"), "utf8");
  assert.match(source, /compactRefaTables/, "build.mjs no longer rewrites refa's tables");
  assert.match(readFileSync(join(ROOT, "bench", "build.mjs"), "utf8"), /compactRefaTables/, "the benchmark would time another refa than the one shipped");
});
