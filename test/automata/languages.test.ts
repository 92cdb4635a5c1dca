import { test } from "node:test";
import assert from "node:assert/strict";
import type { DFA } from "refa";
import { asTypedPaths, canonicalPaths, patternLanguage, wordOf } from "../../server/src/engine/automata/languages";
import { deepagentsJs, deepagentsPy, type Runtime } from "../../server/src/engine/runtime";
import { firstCode, specText, stripMarkup, tableRows } from "../helpers/specTables";
import { randomPattern, rng } from "./harness";

/**
 * The automata are the matchers: for the spec's glob table (§2.1), for every pattern the property tests use, and for
 * random ones, a pattern's automaton accepts exactly the strings the runtime's own matcher accepts, over every string
 * of a small alphabet up to a length. The canonical-path languages are exactly what the runtimes' canonicalisation
 * produces (§1.3).
 */

const alphabetOf = (runtime: Runtime) => (runtime === deepagentsJs ? "utf16" : "codepoints") as "utf16" | "codepoints";

function accepts(dfas: readonly DFA[], text: string, runtime: Runtime): boolean {
  const word = wordOf(text, alphabetOf(runtime));
  return dfas.some((d) => d.test(word as never));
}

function* strings(alphabet: readonly string[], maxLength: number): Generator<string> {
  yield "";
  let layer = [""];
  for (let n = 1; n <= maxLength; n++) {
    const next: string[] = [];
    for (const s of layer) for (const c of alphabet) next.push(s + c);
    yield* next;
    layer = next;
  }
}

test("§2.1: every G row's pattern automaton agrees with the runtime's matcher on the row's path", () => {
  const rows = tableRows(specText("deepagents-semantics.md"), /^G\d+$/);
  assert.ok(rows.length > 120);
  for (const row of rows) {
    const pattern = firstCode(row[1]!)!;
    const path = firstCode(row[2]!)!;
    for (const [runtime, cell] of [[deepagentsJs, row[3]!], [deepagentsPy, row[4]!]] as const) {
      const language = patternLanguage(runtime, pattern);
      assert.ok(language.ok, `${stripMarkup(row[0]!)} ${runtime.id}: ${!language.ok ? language.reason : ""}`);
      const expected = stripMarkup(cell) === "match";
      assert.equal(accepts(language.dfas, path, runtime), expected, `${stripMarkup(row[0]!)} ${runtime.id}: ${pattern} vs ${path}`);
    }
  }
});

test("pattern automata accept exactly what the matcher accepts, on every string up to length 6 (both runtimes)", () => {
  const r = rng(42);
  const patterns = new Set<string>([
    "/workspace/**", "/**", "/*", "/**/*.txt", "/a/**/b", "/**/.env", "/.*", "/*env", "/?env", "/data/{a,b}.txt", "/data/[!a].txt",
    "/data/+(a|b).txt", "/data/!(a).txt", "/a/?(b)", "/a/**.txt", "/a/b**", "/{,**/}.env", "/workspace{,/**}", "/secrets//**", "/**/",
    "/a/.", "/a/**/*/**", "/a/[.]b", "/a/(?!b)*", "/x/{1..3}", "/a\\*b", "/a/[[:alpha:]]",
  ]);
  while (patterns.size < 90) patterns.add(randomPattern(r));
  const alphabet = ["a", "b", ".", "/", "\n", "*"];
  const all = [...strings(alphabet, 6)];
  for (const runtime of [deepagentsJs, deepagentsPy]) {
    for (const pattern of patterns) {
      const language = patternLanguage(runtime, pattern);
      if (!language.ok) {
        // Never a wrong automaton: only "not analysed" (with a reason) or a pattern the runtime itself refuses.
        assert.ok(language.reason.length > 0);
        continue;
      }
      const matcher = runtime.compilePattern(pattern);
      for (const s of all) assert.equal(accepts(language.dfas, s, runtime), matcher.matches(s), `${runtime.id} ${pattern} on ${JSON.stringify(s)}`);
    }
  }
});

test("§1.3: the canonical-path languages are exactly the runtimes' canonicalisation (strings up to length 6)", () => {
  // Backslashes, `~`, and a surrogate pair split in two: every corner of validatePath / validate_path.
  const alphabet = ["a", ".", "/", "\\", "~", "\uD800", "\uDC00"];
  for (const runtime of [deepagentsJs, deepagentsPy]) {
    const canonical = canonicalPaths(runtime);
    const typed = asTypedPaths(runtime);
    const test1 = (dfa: DFA, s: string) => dfa.test(wordOf(s, alphabetOf(runtime)) as never);
    for (const raw of strings(alphabet, 6)) {
      const c = runtime.canonicalToolPath(raw, true);
      // Whatever canonicalisation produces is in the language…
      if (c.ok) assert.ok(test1(canonical, c.path), `${runtime.id}: ${JSON.stringify(raw)} → ${JSON.stringify(c.path)} not canonical`);
      // …and "typed as it is" means exactly a fixed point.
      assert.equal(test1(typed, raw), c.ok && c.path === raw, `${runtime.id}: ${JSON.stringify(raw)} as typed`);
    }
    // …and everything in the language is produced by some argument (the path itself, or with `\` for `/`, or "").
    for (const s of strings(alphabet, 5)) {
      if (!test1(canonical, s)) continue;
      const reached = [s, `/${s.slice(1).replace(/\//g, "\\")}`, ""].some((a) => {
        const c = runtime.canonicalToolPath(a, true);
        return c.ok && c.path === s;
      });
      assert.ok(reached, `${runtime.id}: ${JSON.stringify(s)} is in the canonical language but no argument produces it`);
    }
  }
});

test("a pattern that cannot be turned into an automaton exactly is not analysed, with a reason", () => {
  // A lookbehind picomatch passes through: no exact automaton here, so no claim.
  const lookbehind = patternLanguage(deepagentsJs, "/a/(?<=a)b");
  assert.equal(lookbehind.ok, false);
  if (!lookbehind.ok) assert.match(lookbehind.reason, /lookbehind/);
  // Over budget: reported as such.
  const tiny = patternLanguage(deepagentsJs, "/a/{b,c}/**/*.{d,e,f}/x", { milliseconds: 1000, states: 3 });
  assert.equal(tiny.ok, false);
  if (!tiny.ok) assert.equal(tiny.kind, "budget");
  // A pattern the runtime itself cannot use (wcmatch's brace-expansion limit).
  const limit = patternLanguage(deepagentsPy, `/${"{a,b}".repeat(11)}`);
  assert.equal(limit.ok, false);
  if (!limit.ok) assert.equal(limit.kind, "unusable");
});

test("a pattern too big for the analysis is a budget skip, quickly, and its reason does not repeat the pattern", () => {
  // More syntax nodes than refa may build (its TooManyNodesError, whose minified class only `instanceof` knows):
  // a budget matter, not a pattern refa "cannot read".
  const nodes = patternLanguage(deepagentsPy, `/data/${"ab".repeat(12_000)}/**`);
  assert.equal(nodes.ok, false);
  if (!nodes.ok) {
    assert.equal(nodes.kind, "budget", nodes.reason.slice(0, 200));
    assert.match(nodes.reason, /needed more than \d+ automaton states/);
  }
  // A regular expression longer than the analysis reads is not parsed at all (refa took about 0.5 s to give up on
  // one of 100,000 characters, past the pattern's budget of 250 ms, which its parser cannot check).
  for (const pattern of [`/data/${"ab".repeat(50_000)}/**`, `/data/${"a*".repeat(50_000)}`]) {
    const big = patternLanguage(deepagentsPy, pattern);
    assert.equal(big.ok, false);
    if (!big.ok) {
      assert.equal(big.kind, "budget");
      assert.match(big.reason, /over the 30,000 the analysis reads/);
      assert.ok(big.reason.length < 300, `${big.reason.length} characters`);
    }
  }
});
