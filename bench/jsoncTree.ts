/**
 * jsonc-parser's `parseTree` against our `parseJsoncTree` (server/src/engine/config/jsoncTree.ts) on the benchmark's
 * configs (`generateConfigText`, 10 / 100 / 1,000 rules): CPU time, interleaved rounds, median (bench/measure.ts).
 * Both must give the same tree first (test/engine/jsoncTree.test.ts checks that on far more inputs).
 *
 *   node --expose-gc --import tsx bench/jsoncTree.ts
 */
import assert from "node:assert/strict";
import { parseTree, type ParseError, type ParseOptions } from "jsonc-parser";
import { parseJsoncTree } from "../server/src/engine/config/jsoncTree";
import { SCHEMA_URI } from "./check";
import { generateConfigText } from "./generate";
import { measureInterleaved } from "./measure";

const OPTIONS: ParseOptions = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

async function main(): Promise<void> {
  for (const rules of [10, 100, 1000]) {
    const text = generateConfigText(rules, 1000 + rules, SCHEMA_URI); // the text bench/profile.ts checks
    const e1: ParseError[] = [];
    const e2: ParseError[] = [];
    assert.equal(JSON.stringify(parseJsoncTree(text, e2, OPTIONS), (k, v) => (k === "parent" ? undefined : v)), JSON.stringify(parseTree(text, e1, OPTIONS), (k, v) => (k === "parent" ? undefined : v)));
    assert.deepEqual(e2, e1);
    const [theirs, ours] = await measureInterleaved(
      [
        { name: "parseTree", pass: () => parseTree(text, [], OPTIONS)!.length, unitsPerPass: 1 },
        { name: "parseJsoncTree", pass: () => parseJsoncTree(text, [], OPTIONS)!.length, unitsPerPass: 1 },
      ],
      { rounds: 15, minRoundMs: 100, warmupMs: 500 },
    );
    console.log(
      `${String(rules).padStart(5)} rules, ${(text.length / 1024).toFixed(0).padStart(4)} KB: parseTree ${theirs!.msPerUnit.toFixed(3)} ms, parseJsoncTree ${ours!.msPerUnit.toFixed(3)} ms  (${(theirs!.msPerUnit / ours!.msPerUnit).toFixed(2)}× faster; spread ${(theirs!.spread * 100).toFixed(0)}% / ${(ours!.spread * 100).toFixed(0)}%)`,
    );
  }
}

void main();
