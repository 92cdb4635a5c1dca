import { test } from "node:test";
import assert from "node:assert/strict";
import { DFA, JS, NFA } from "refa";
import { Budget, DEFAULT_PATTERN_BUDGET } from "../../server/src/engine/automata/budget";
import { constructedRegexDfa, hasPlainStart, isPlainPathRegex, regexDfa, sortedWordGroups } from "../../server/src/engine/automata/regexAutomaton";
import { generateRules } from "../../bench/generate";
import { dotMatchingRegexes } from "../../server/src/engine/automata/dotMatching";
import { compileJsGlob } from "../../server/src/engine/runtime/jsGlob";
import { compilePyGlob } from "../../server/src/engine/runtime/pyGlob";
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

/** A DFA spelled node by node, in refa's order of its nodes and of each node's edges. */
function spelled(dfa: DFA): string {
  const nodes = [...dfa.nodes()];
  const id = new Map(nodes.map((n, i) => [n, i]));
  return nodes.map((n, i) => `${i}${dfa.finals.has(n) ? "*" : ""}:${[...n.out.entries()].map(([range, to]) => `${range.min}-${range.max}>${id.get(to)}`).join(",")}`).join(" ");
}

test("regexDfa: a plain path's regular expression (both matchers, and read with DOTGLOB) gives the DFA of the long way, node for node", () => {
  const r = rng(61_000);
  const names = ["a", "ab", "Z9", "x y", "a-b", "a_b", ".", "..", ".env", "a.b", "b.", "...", "-", "_"];
  const patterns = ["/", "//", "/a//b", "/a/", "/a/b/", "/workspace/notes.md", "/.env", "/a/./b", "/a/../b"];
  for (let i = 0; i < 300; i++) {
    const segments = Array.from({ length: 1 + Math.floor(r() * 4) }, () => (r() < 0.1 ? "" : pick(r, names)));
    patterns.push(`/${segments.join("/")}${r() < 0.2 ? "/" : ""}`);
  }
  let chains = 0;
  for (const pattern of patterns) {
    const js = compileJsGlob(pattern).regex;
    const py = compilePyGlob(pattern);
    const dot = dotMatchingRegexes(pattern);
    const sources = [...(js ? [{ source: js.source, flags: js.flags }] : []), ...py.regexes.map((x) => ({ source: x.source, flags: x.flags })), ...("sources" in dot ? dot.sources.map((source) => ({ source, flags: "su" })) : [])];
    for (const regex of sources) {
      if (isPlainPathRegex(regex)) chains++;
      const budget = () => new Budget(DEFAULT_PATTERN_BUDGET);
      const long = constructedRegexDfa(regex, budget());
      const short = regexDfa(regex, budget());
      assert.equal(spelled(short), spelled(long), `${pattern}: /${regex.source}/${regex.flags}`);
      assert.equal(short.countNodes(), long.countNodes());
    }
  }
  // Most of them take the chain (the rest, `.` and `..` names among them, hold the test to the long way on both sides).
  assert.ok(chains > patterns.length, `${chains} chains of ${patterns.length} patterns`);
});

test("regexDfa: regular expressions that only look like a plain path's take the long way", () => {
  for (const source of ["^(?:\\/a\\/b)$", "^(?:[\\u{2f}]+a[\\u{2f}]+b[\\u{2f}]*?)$"]) assert.ok(isPlainPathRegex({ source, flags: source.includes("u{") ? "su" : "" }));
  for (const [source, flags] of [["^(?:\\/a\\/b)$", "i"], ["^(?:\\/a\\/b)$", "m"], ["^(?:\\/a\\/b)", ""], ["(?:\\/a\\/b)$", ""], ["^(?:\\/a.b)$", ""], ["^(?:\\/a\\/b*)$", ""], ["^(?:\\/é)$", ""]] as const) {
    assert.ok(!isPlainPathRegex({ source, flags }), `/${source}/${flags}`);
  }
  // A literal slash right after a run of them is read the long way (the chain would not be deterministic).
  const regex = { source: "^(?:[\\u{2f}]+\\/a)$", flags: "su" };
  const budget = () => new Budget(DEFAULT_PATTERN_BUDGET);
  assert.equal(spelled(regexDfa(regex, budget())), spelled(constructedRegexDfa(regex, budget())));
});

test("regexDfa: an expression that starts with a plain path gives, spliced to the automaton of its rest, the minimal DFA of the long way", () => {
  const patterns = new Set<string>(["/a/**", "/a/b/**/*.{ts,tsx}", "/w/{.git,.venv}/**", "/a/*", "/a/?", "/a/[ab]", "/a/b*", "/a/b?c", "/ab/ab*", "/a/a/**/a", "/.a/**", "/a./**", "/a/.*", "/a/{b,c/d}/**", "/a/@(x|y)", "/a/!(x)", "/a/+(ab)", "/a/**/.env", "/a/b/{c,}/**", "/x/**/*.min.*", "/a/\\*", "/a/b[/]c", "/a{,/b}", "/a/b/../**", "/a/./b/*"]);
  for (const seed of [1, 2, 3]) for (const rule of generateRules(300, 70_000 + seed)) for (const p of rule.paths) patterns.add(p);
  const r = rng(71_000);
  const heads = ["/workspace", "/workspace/packages/web", "/a", "/a/a", "/.cache", "/x-y/z_1", "/s p"];
  const tails = ["/**", "/**/*", "/*", "/**/*.{ts,tsx}", "/**/*.test.ts", "/*/src/**", "/{dist,.cache}/**", "/?.md", "/[!a]*", "/**/.*", "/.*/**", "*", "**", "{,.x}", "/@(a|b)/**", "/[[:alpha:]]*"];
  for (let i = 0; i < 200; i++) patterns.add(pick(r, heads) + pick(r, tails) + (r() < 0.3 ? pick(r, tails) : ""));
  let spliced = 0;
  let checked = 0;
  // Written by hand: a start the rest repeats (the splice is not minimal until its states are joined to the
  // rest's), alternatives at the top level and unbalanced groups (not a start of every match), a quantifier on the
  // start's last character or group, groups whose words end alike (one state for both), words that start others.
  const written = ["^(?:\\/a(?:\\/a)*)$", "^(?:\\/ab(?:\\/ab)+)$", "^(?:\\/a\\/b|\\/c)$", "^(?:\\/a)|(?:\\/b)$", "^(?:\\/ab*)$", "^(?:\\/ab{2})$", "^(?:[\\u{2f}]+a(?:[\\u{2f}]+a)*[\\u{2f}]*?)$", "^(?:\\/ab[])$", "^(?:\\/w\\/(?:web|api|cli)\\/src(?:\\/[^/]*)?)$", "^(?:\\/(?:a|ab)\\/x*)$", "^(?:\\/(?:ab|a)c*)$", "^(?:\\/(?:a|a)b*)$", "^(?:\\/(?:a|b)*c)$", "^(?:\\/(?:|a)b*)$", "^(?:\\/x(?:ab|cb)d*)$", "^(?:\\/(?:a|b)(?:c|d)(?:\\/(?:a|b)(?:c|d))*)$", "^(?:\\/a\\/a(?:\\/a)*)$", "^(?:\\/b\\/a(?:\\/a)*)$", "^(?:[\\u{2f}]+a[\\u{2f}]+a(?:[\\u{2f}]+a)*[\\u{2f}]*?)$"];
  // Capturing groups (picomatch's braces), and backreferences, which a rest built without the start's groups would
  // read as octal escapes: the long way refuses them, and so must the short one.
  written.push("^(?:\\/w\\/(web|api)\\/src(?:\\/[^/]*)?)$", "^(?:\\/(a|b)x\\1)$", "^(?:\\/(a|b)x(c)\\2)$");
  for (const source of written) {
    const regex = { source, flags: source.includes("u{") ? "su" : "" };
    const budget = () => new Budget(DEFAULT_PATTERN_BUDGET);
    let long: string;
    try {
      long = spelled(constructedRegexDfa(regex, budget()));
    } catch {
      assert.throws(() => regexDfa(regex, budget()), `/${source}/`);
      continue;
    }
    assert.equal(spelled(regexDfa(regex, budget())), long, `/${source}/`);
  }
  for (const pattern of patterns) {
    const js = compileJsGlob(pattern).regex;
    const py = compilePyGlob(pattern);
    const dot = dotMatchingRegexes(pattern);
    const sources = [...(js ? [{ source: js.source, flags: js.flags }] : []), ...(py.error === undefined ? py.regexes.map((x) => ({ source: x.source, flags: x.flags })) : []), ...("sources" in dot ? dot.sources.map((source) => ({ source, flags: "su" })) : [])];
    for (const regex of sources) {
      let long: DFA;
      try {
        long = constructedRegexDfa(regex, new Budget(DEFAULT_PATTERN_BUDGET));
      } catch {
        // Not analysable the long way: regexDfa reads it the long way too (its own errors), nothing to compare.
        assert.throws(() => regexDfa(regex, new Budget(DEFAULT_PATTERN_BUDGET)));
        continue;
      }
      if (hasPlainStart(regex)) spliced++;
      checked++;
      const short = regexDfa(regex, new Budget(DEFAULT_PATTERN_BUDGET));
      assert.equal(spelled(short), spelled(long), `${pattern}: /${regex.source}/${regex.flags}`);
      assert.equal(short.countNodes(), long.countNodes(), `${pattern}: /${regex.source}/${regex.flags}`);
    }
  }
  assert.ok(spliced > checked / 2, `${spliced} of ${checked} expressions spliced`);
});

test("sortedWordGroups: a rest's groups of plain words in sorted order, nothing else touched", () => {
  assert.equal(sortedWordGroups("\\/[^/]*?\\.(py|json)"), "\\/[^/]*?\\.(json|py)");
  assert.equal(sortedWordGroups("(?:tsx|ts|js)(?:\\/|$)"), "(?:js|ts|tsx)(?:\\/|$)");
  assert.equal(sortedWordGroups("(b|a)*(d|c)"), "(a|b)*(c|d)");
  // An escaped backslash does not escape the group after it.
  assert.equal(sortedWordGroups("\\\\(b|a)"), "\\\\(a|b)");
  // Escaped parentheses, character classes, lookarounds and groups with anything but words stay as written.
  for (const kept of ["(?:x\\(b|a))", "[(b|a)]", "(?!b|a)", "(?=b|a)", "(b|a\\/)", "(b|.)", "(b)", "[\\](b|a)]"]) {
    assert.equal(sortedWordGroups(kept), kept, kept);
  }
});

test("regexDfa: expressions whose rests differ only in the order of a group's words read their rests alike, each still its own minimal DFA", () => {
  const starts = ["\\/w", "\\/w\\/src", "\\/a"];
  // In pairs: the same rest with a group's words in two orders.
  const rests = ["\\/[^/]*?\\.(py|json)", "\\/[^/]*?\\.(json|py)", "\\/[^/]*(?:b|ab|a)\\/x*", "\\/[^/]*(?:a|ab|b)\\/x*", "(?:\\/(?!\\.)(?=.)[^/]*?\\.(tsx|ts)|$)", "(?:\\/(?!\\.)(?=.)[^/]*?\\.(ts|tsx)|$)"];
  for (let k = 0; k < rests.length; k += 2) assert.equal(sortedWordGroups(rests[k]!), sortedWordGroups(rests[k + 1]!), rests[k]);
  for (const start of starts) {
    for (const rest of rests) {
      const regex = { source: `^(?:${start}${rest})$`, flags: "" };
      assert.ok(hasPlainStart(regex), regex.source);
      const long = constructedRegexDfa(regex, new Budget(DEFAULT_PATTERN_BUDGET));
      const short = regexDfa(regex, new Budget(DEFAULT_PATTERN_BUDGET));
      assert.equal(spelled(short), spelled(long), regex.source);
    }
  }
});
