/**
 * The plain-path restatement of wcmatch's patterns (server/src/engine/runtime/pyPlainPath.ts) against the matcher
 * it restates (`compilePyGlob(p).matches`, the Pike VM over wcmatch's own regular expression): on every plain path
 * of a small universe it must give the same answer, and on every other string it may only say "match" more often
 * (the rule automaton relies on both, see ruleAutomaton.ts). The restatement is run by a small interpreter written
 * here, independent of the automaton.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compilePyGlob } from "../../server/src/engine/runtime/pyGlob";
import { DFA_NO, DFA_UNSURE, DFA_YES, PlainPathDfa, pyPlainPathRegex } from "../../server/src/engine/runtime/pyPlainPath";
import { isPlainPath } from "../../server/src/engine/runtime/runtime";
import { deepagentsPy } from "../../server/src/engine/runtime";
import type { PlainPathRegex } from "../../server/src/engine/runtime/runtime";
import { makeRng, type Rng } from "../helpers/random";
import { codes, specText, stripMarkup, tableRows } from "../helpers/specTables";

/** The automaton's column for a code unit (ruleAutomaton.ts): ASCII as is, line separators as `\n`, the rest 128. */
const column = (c: number): number => (c < 128 ? c : c === 0x2028 || c === 0x2029 ? 10 : 128);

/** Does `re` match all of `s`? The end offsets reachable from each start offset, by structural recursion. */
function interpret(re: PlainPathRegex, s: string): boolean {
  const ends = (r: PlainPathRegex, from: ReadonlySet<number>): Set<number> => {
    const out = new Set<number>();
    switch (r.kind) {
      case "set":
        for (const i of from) if (i < s.length && r.set[column(s.charCodeAt(i))] === 1) out.add(i + 1);
        return out;
      case "end":
        for (const i of from) if (i === s.length) out.add(i);
        return out;
      case "seq": {
        let at: Set<number> = new Set(from);
        for (const item of r.items) at = ends(item, at);
        return at;
      }
      case "alt":
        for (const item of r.items) for (const i of ends(item, from)) out.add(i);
        return out;
      case "star": {
        for (const i of from) out.add(i);
        let frontier: Set<number> = new Set(from);
        while (frontier.size > 0) {
          const next = new Set<number>();
          for (const i of ends(r.item, frontier)) if (!out.has(i)) next.add(i);
          for (const i of next) out.add(i);
          frontier = next;
        }
        return out;
      }
    }
  };
  return ends(re, new Set([0])).has(s.length);
}

/** runtime.ts's definition of a plain path. */
function isPlain(path: string): boolean {
  if (!path.startsWith("/") || /[\n\r\u2028\u2029]/.test(path)) return false;
  return path.slice(1).split("/").every((seg) => seg !== "" && seg !== "." && seg !== "..");
}

// The universe: every path of depth 1 to 3 over these names (1,330 plain paths), plus strings that are not plain.
const NAMES = ["a", "b", ".a", "a.b", ".env", "ab", "a.", "..a", ".a.b", "é", "😀"];
const PLAIN: string[] = [];
(function fill(prefix: string, depth: number) {
  if (depth === 0) return;
  for (const n of NAMES) {
    PLAIN.push(`${prefix}/${n}`);
    fill(`${prefix}/${n}`, depth - 1);
  }
})("", 3);
const NOT_PLAIN = ["", "/", "//", "a", ".a", "//a", "/a/", "/a//b", "/./a", "/a/.", "/a/..", "/../a", "/.", "/..", "//.a", "/a\nb", "/a/\u2028", "///a.b", "/.a/", "/a/./b"];

function patternPiece(r: Rng): string {
  return r.weighted<() => string>([
    [10, () => r.pick(["a", "b", ".", "e", "env", "a.b"])],
    [6, () => "*"],
    [4, () => "**"],
    [3, () => "?"],
    [3, () => r.pick(["[ab]", "[!a]", "[^.]", "[.a]", "[a-c]", "[!.]", "[[:alpha:]]", "[é]", "[/]", "[a", "[]a]", "[!\\x00-\\x7f]"])],
    [3, () => r.pick(["{a,b}", "{,.}", "{a,/b}", "{.a,*}", "{**,a}/", "{a,{b,.}}", "{1..2}", "{a,"])],
    [2, () => r.pick(["\\.", "\\*", "\\a", "\\/", "\\?", "\\[", "\\\\"])],
  ])();
}

function randomPattern(r: Rng): string {
  const depth = 1 + r.int(3);
  const segments: string[] = [];
  for (let i = 0; i < depth; i++) {
    const n = 1 + r.int(3);
    let seg = "";
    for (let k = 0; k < n; k++) seg += patternPiece(r);
    segments.push(seg);
  }
  let p = `/${segments.join("/")}`;
  if (r.chance(0.05)) p = `/${p}`;
  if (r.chance(0.08)) p += "/";
  return p;
}

/**
 * Compare one pattern on the whole universe; returns whether it was restated at all. The restatement is checked
 * through the interpreter, through its own automaton (`PlainPathDfa`, asked each path twice: the second answer
 * comes from the states the first one built), and through `deepagentsPy.compilePattern(p).matches`, which uses
 * that automaton after a few calls.
 */
function compare(pattern: string): boolean {
  const glob = compilePyGlob(pattern);
  const re = pyPlainPathRegex(glob);
  if (!re) return false;
  const dfa = new PlainPathDfa(re);
  const compiled = deepagentsPy.compilePattern(pattern);
  for (const path of PLAIN) {
    const want = glob.matches(path);
    if (interpret(re, path) !== want) assert.fail(`${pattern} on plain ${JSON.stringify(path)}: wcmatch says ${want}`);
    for (let again = 0; again < 2; again++) {
      const answer = dfa.test(path);
      if (answer !== DFA_UNSURE && answer !== (want ? DFA_YES : DFA_NO)) assert.fail(`${pattern} on plain ${JSON.stringify(path)}: automaton says ${answer}`);
    }
    if (compiled.matches(path) !== want) assert.fail(`${pattern} on plain ${JSON.stringify(path)}: compilePattern says ${!want}`);
  }
  for (const path of [...NOT_PLAIN, pattern, `${pattern}/a`]) {
    const want = glob.matches(path);
    assert.ok(isPlain(path) || !want || interpret(re, path), `${pattern} on ${JSON.stringify(path)}: wcmatch matches, the restatement must too`);
    assert.ok(!want || dfa.test(path) !== DFA_NO, `${pattern} on ${JSON.stringify(path)}: the automaton must not say no`);
    assert.equal(compiled.matches(path), want, `${pattern} on ${JSON.stringify(path)}: compilePattern`);
  }
  return true;
}

describe("deepagents-py plain-path restatement = wcmatch on plain paths", () => {
  test("the universe is what the test thinks it is (and `isPlainPath` agrees with the definition)", () => {
    assert.equal(PLAIN.length, 11 + 121 + 1331);
    assert.ok(PLAIN.every(isPlain));
    assert.ok(NOT_PLAIN.every((p) => !isPlain(p)));
    for (const p of [...PLAIN, ...NOT_PLAIN, "/a\rb", "/a/\u2029", "/...", "/.../a"]) assert.equal(isPlainPath(p), isPlain(p), JSON.stringify(p));
  });

  test("an automaton that runs out of states says so and never answers wrong", () => {
    // `[ab]` after a `**` at 12 places from the end: left to right, the automaton must remember the last 12
    // characters, past its budget of states.
    const pattern = "/**/*a[ab][ab][ab][ab][ab][ab][ab][ab][ab][ab][ab]";
    const glob = compilePyGlob(pattern);
    const dfa = new PlainPathDfa(pyPlainPathRegex(glob)!);
    const r = makeRng(5);
    let unsure = 0;
    for (let i = 0; i < 2000; i++) {
      let name = "";
      for (let k = 0; k < 20; k++) name += r.chance(0.5) ? "a" : "b";
      const answer = dfa.test(`/x/${name}`);
      if (answer === DFA_UNSURE) unsure++;
      else assert.equal(answer === DFA_YES, glob.matches(`/x/${name}`), name);
    }
    assert.ok(unsure > 0, "the state budget was never reached");
  });

  test("shapes people write are restated (so the automaton is really used)", () => {
    for (const p of ["/**", "/a/**", "/**/*.pem", "/**/.env", "/a/**/*.{pem,key}", "/{a,b}/**", "/a/*/dist", "/a/[0-9]*.csv", "/a/b", "/**/id_rsa*", "/*.txt", "/a/.*", "/a/**/"]) {
      assert.ok(pyPlainPathRegex(compilePyGlob(p)), p);
      assert.ok(compare(p), p);
    }
  });

  test("what cannot be restated exactly gives up", () => {
    // `?` and classes with non-ASCII members (one code point, one or two code units), non-ASCII text, a `\/`
    // right after `**/`, patterns that do not start with `/`, unusable ones.
    for (const p of ["/a/?", "/[!a]", "/é", "/**/\\/x", "a/**", "**/*.pem", "/{1..2000}"]) {
      assert.equal(pyPlainPathRegex(compilePyGlob(p)), undefined, p);
    }
    assert.equal(deepagentsPy.compilePattern("a/b").plainPathRegex, undefined);
  });

  test("wcmatch quirks survive: `/*.txt` matches `/.txt`, `/a/**` does not match `/a`, stars skip dot names", () => {
    const on = (p: string, path: string) => interpret(pyPlainPathRegex(compilePyGlob(p))!, path);
    assert.equal(on("/*.txt", "/.txt"), true);
    assert.equal(on("/*.txt", "/.a.txt"), false);
    assert.equal(on("/a/**", "/a"), false);
    assert.equal(on("/a/**", "/a/b/.env"), false);
    assert.equal(on("/**/.env", "/a/.env"), true);
    assert.equal(on("/**/.env", "/.git/.env"), false);
  });

  test("random patterns × every path of the universe: zero disagreements", () => {
    const r = makeRng(20261203);
    let restated = 0;
    const total = 2500;
    for (let n = 0; n < total; n++) if (compare(randomPattern(r))) restated++;
    // Most generated patterns must be restated, or the comparison says little.
    assert.ok(restated > total / 3, `only ${restated} of ${total} patterns restated`);
  });

  test("spec §2.1 matcher table (G rows), Python column, through the restatement", () => {
    const rows = tableRows(specText("deepagents-semantics.md"), /^G\d+$/);
    assert.equal(rows.length, 127);
    let used = 0;
    for (const [id, patternCell, pathCell, , pyCell] of rows) {
      const pattern = codes(patternCell!)[0]!;
      const path = codes(pathCell!)[0]!;
      const re = pattern.startsWith("/") ? pyPlainPathRegex(compilePyGlob(pattern)) : undefined;
      if (!re) continue;
      const want = stripMarkup(pyCell!) === "match";
      if (isPlain(path)) {
        used++;
        assert.equal(interpret(re, path), want, `${id} ${pattern} ~ ${path}`);
      } else if (want) assert.ok(interpret(re, path), `${id} ${pattern} ~ ${path} (not plain: may only widen)`);
    }
    assert.ok(used > 60, `only ${used} G rows went through the restatement`);
  });
});
