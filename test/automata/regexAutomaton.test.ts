import { test } from "node:test";
import assert from "node:assert/strict";
import { DFA, JS, NFA } from "refa";
import { Budget, DEFAULT_PATTERN_BUDGET } from "../../server/src/engine/automata/budget";
import { regexDfa } from "../../server/src/engine/automata/regexAutomaton";
import { pick, rng } from "./harness";

/**
 * regexDfa builds a regular expression's minimal DFA through its own subset construction (lookarounds read
 * backwards, classes that lead to the same state worked out once). Where refa can build the automaton itself (no
 * lookaround), the two must be the same minimal DFA; with lookarounds, the DFA must answer as JavaScript does.
 */
const ATOMS = ["a", "b", "\\/", "\\.", "[ab]", "[^/]", ".", "(?:a|b\\/)", "(?:\\.a|b)"];
const QUANTIFIERS = ["", "", "*", "+", "?", "*?", "{1,2}"];

function randomRegex(r: () => number, lookarounds: boolean): string {
  const parts: string[] = [];
  const n = 1 + Math.floor(r() * 5);
  for (let i = 0; i < n; i++) {
    if (lookarounds && r() < 0.25) parts.push(pick(r, ["(?!\\.)", "(?=[ab])", "(?!(?:^|\\/)\\.{1,2}(?:\\/|$))", "(?:^|\\/)", "(?=.)"]));
    parts.push(pick(r, ATOMS) + pick(r, QUANTIFIERS));
  }
  return `^(?:${parts.join("")})$`;
}

test("regexDfa: the minimal DFA refa builds, for 400 random regular expressions without lookarounds", () => {
  for (let seed = 1; seed <= 400; seed++) {
    const source = randomRegex(rng(40_000 + seed), false);
    const ours = regexDfa({ source, flags: "" }, new Budget(DEFAULT_PATTERN_BUDGET));
    // refa's automata match whole words: its side reads the expression without the anchors.
    const { expression, maxCharacter } = JS.Parser.fromLiteral({ source: source.slice(1, -1), flags: "" }).parse();
    const theirs = DFA.fromFA(NFA.fromRegex(expression, { maxCharacter }));
    theirs.minimize();
    assert.ok(ours.structurallyEqual(theirs), `seed ${seed}: /${source}/`);
  }
});

test("regexDfa: with lookarounds, accepts exactly the strings JavaScript matches (up to length 5 over a, b, /, .)", () => {
  const words: string[] = [""];
  for (let length = 1, from = 0; length <= 5; length++) {
    const to = words.length;
    for (let i = from; i < to; i++) for (const c of "ab/.") words.push(words[i]! + c);
    from = to;
  }
  for (let seed = 1; seed <= 150; seed++) {
    const source = randomRegex(rng(50_000 + seed), true);
    const dfa = regexDfa({ source, flags: "s" }, new Budget(DEFAULT_PATTERN_BUDGET));
    const regex = new RegExp(source, "s");
    for (const w of words) assert.equal(dfa.test([...w].map((c) => c.charCodeAt(0)) as never), regex.test(w), `seed ${seed}: /${source}/s on ${JSON.stringify(w)}`);
  }
});
