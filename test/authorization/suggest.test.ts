/**
 * `closeName` looks only at candidates near the word in length (a tool-name check asks it about 100 names against
 * every tool of 10,000 subagents). It must answer exactly as the plain `didYouMean` over every candidate would.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { closeName } from "../../server/src/engine/authorization/suggest";
import { didYouMean, editDistance } from "../../server/src/engine/didYouMean";
import { makeRng } from "../helpers/random";

/** The definition: the shared suggestion over every candidate, then the stricter distance. */
function reference(word: string, candidates: readonly string[]): string | undefined {
  const suggestion = didYouMean(word, candidates);
  if (suggestion === undefined) return undefined;
  if (suggestion.toLowerCase() === word.toLowerCase()) return suggestion;
  const limit = Math.max(1, Math.floor(Math.min(word.length, suggestion.length) / 4));
  return editDistance(word, suggestion) <= limit ? suggestion : undefined;
}

test("the same answer as over every candidate, on generated names", () => {
  const r = makeRng(31);
  // Mostly ASCII names (where candidates are left out by length), some with characters whose case mapping
  // changes their length or leaves ASCII (`İ`, the Kelvin sign, `ß`), an accent, and a surrogate pair.
  const ascii = ["a", "b", "e", "l", "r", "s", "_", "A", "R"];
  const alphabet = [...ascii, "İ", "K", "ß", "é", "😀"];
  const name = (max: number) => {
    const letters = r.chance(0.7) ? ascii : alphabet;
    return Array.from({ length: 1 + r.int(max) }, () => r.pick(letters)).join("");
  };
  const mutate = (s: string) => {
    const i = r.int(s.length + 1);
    return r.pick([s.toUpperCase(), s.slice(0, i) + r.pick(alphabet) + s.slice(i), s.slice(0, i) + s.slice(i + 1), s + s.slice(0, r.int(6))]);
  };
  let suggested = 0;
  for (let round = 0; round < 1500; round++) {
    // Up to 26 units: past 16 a quarter of the length is more than 3 (didYouMean once took a length gap over 3 for the distance).
    const max = r.pick([6, 14, 26]);
    const candidates = Array.from({ length: 1 + r.int(40) }, () => name(max));
    const word = r.chance(0.6) ? mutate(r.pick(candidates)) : name(max);
    const expected = reference(word, candidates);
    if (expected !== undefined) suggested++;
    assert.equal(closeName(word, candidates), expected, `${JSON.stringify(word)} among ${JSON.stringify(candidates)}`);
  }
  assert.ok(suggested > 200, `only ${suggested} rounds had a suggestion: the test would not notice a wrong filter`);
});

test("a near name is found among 20,000 far ones; a case-only difference always counts", () => {
  const tools = [...Array.from({ length: 20_000 }, (_, i) => `tool_number_${i}_of_many`), "web_search", "Read_file"];
  assert.equal(closeName("web_serch", tools), "web_search");
  assert.equal(closeName("read_file", tools), "Read_file");
  assert.equal(closeName("bash", tools), undefined);
  assert.equal(closeName("STRASSE", ["straße"]), reference("STRASSE", ["straße"]));
  // Lowercasing "İ" gives two units: a case-only difference between names of different lengths still counts.
  const dotted = "i\u0307".repeat(6);
  assert.equal(closeName(dotted, ["İİİİİİ", "tool_a"]), "İİİİİİ");
});
