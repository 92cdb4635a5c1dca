import { test } from "node:test";
import assert from "node:assert/strict";
import { compilePyGlob, countBraceExpansions, pyGlobMatch } from "../../server/src/engine/runtime/pyGlob";
import { deepagentsPy } from "../../server/src/engine/runtime";

/**
 * Expected values come from wcmatch 11.0.1 + bracex 3.0.1 (`globmatch(path, pattern, flags=BRACE | GLOBSTAR)` on
 * Linux). The G rows are the "Py" column of docs/spec §2.1 (shared/spec/deepagents-semantics.md); the other
 * vectors were produced by running the same library.
 */

// [row, pattern, path, Python result]
const MATCHER_TABLE: ReadonlyArray<readonly [string, string, string, boolean]> = [
  ["G1", "/**", "/", true],
  ["G2", "/**", "/a", true],
  ["G3", "/**", "/a/b", true],
  ["G4", "/**", "/.env", false],
  ["G5", "/**", "/.git/config", false],
  ["G6", "/workspace/**", "/workspace", false],
  ["G7", "/workspace/**", "/workspace/a", true],
  ["G8", "/workspace/**", "/workspace/a/b", true],
  ["G9", "/workspace/**", "/workspace/.env", false],
  ["G10", "/workspace/**", "/workspace/.git/config", false],
  ["G11", "/workspace/**", "/workspace2/a", false],
  ["G12", "/workspace/**", "/workspace/./a", false],
  ["G13", "/workspace/**", "//workspace/a", true],
  ["G14", "/workspace", "/workspace", true],
  ["G15", "/workspace", "/workspace/a", false],
  ["G16", "/workspace/", "/workspace", false],
  ["G17", "/workspace/", "/workspace/a", false],
  ["G18", "/workspace/*", "/workspace", false],
  ["G19", "/workspace/*", "/workspace/a", true],
  ["G20", "/workspace/*", "/workspace/a/b", false],
  ["G21", "/workspace/*", "/workspace/.env", false],
  ["G22", "/*", "/", false],
  ["G23", "/*", "/a", true],
  ["G24", "/*", "/a/b", false],
  ["G25", "/*", "/.env", false],
  ["G26", "/*.txt", "/a.txt", true],
  ["G27", "/*.txt", "/d/a.txt", false],
  ["G28", "/**/*.txt", "/a.txt", true],
  ["G29", "/**/*.txt", "/d/a.txt", true],
  ["G30", "/**/*.txt", "/d/e/a.txt", true],
  ["G31", "/**/*.txt", "/d/.a.txt", false],
  ["G32", "/a/**/b", "/a/b", true],
  ["G33", "/a/**/b", "/a/x/y/b", true],
  ["G34", "/**/secrets", "/secrets", true],
  ["G35", "/**/secrets", "/a/secrets", true],
  ["G36", "/**/secrets", "/a/secrets/x", false],
  ["G37", "/**/secrets/**", "/secrets/x", true],
  ["G38", "/**/secrets/**", "/a/secrets/x", true],
  ["G39", "/**/secrets/**", "/a/secrets", false],
  ["G40", "/**/.env", "/a/.env", true],
  ["G41", "/.*", "/.env", true],
  ["G42", "/*env", "/.env", false],
  ["G43", "/?env", "/.env", false],
  ["G44", "/data/{a,b}.txt", "/data/a.txt", true],
  ["G45", "/data/{a,b}.txt", "/data/c.txt", false],
  ["G46", "/data/{a,{b,c}}.txt", "/data/c.txt", true],
  ["G47", "/data/{a,b}/**", "/data/b/x/y", true],
  ["G48", "/data/{a,b}", "/data/{a,b}", false],
  ["G49", "/data/{1..3}.txt", "/data/2.txt", true],
  ["G50", "/data/{1..3}.txt", "/data/4.txt", false],
  ["G51", "/data/{a..c}.txt", "/data/b.txt", true],
  ["G52", "/data/[abc].txt", "/data/a.txt", true],
  ["G53", "/data/[abc].txt", "/data/d.txt", false],
  ["G54", "/data/[!a].txt", "/data/a.txt", false],
  ["G55", "/data/[!a].txt", "/data/b.txt", true],
  ["G56", "/data/[^a].txt", "/data/b.txt", true],
  ["G57", "/data/[a-c].txt", "/data/b.txt", true],
  ["G58", "/data/?.txt", "/data/a.txt", true],
  ["G59", "/data/?.txt", "/data/ab.txt", false],
  ["G60", "/data/+(a|b).txt", "/data/aa.txt", false],
  ["G61", "/data/+(a|b).txt", "/data/+(a|b).txt", true],
  ["G62", "/data/@(a|b).txt", "/data/a.txt", false],
  ["G63", "/data/!(a).txt", "/data/b.txt", false],
  ["G64", "/data/!(a).txt", "/data/a.txt", false],
  ["G65", "/data/*(a).txt", "/data/.txt", false],
  ["G66", "!/secrets/**", "/public/a", false],
  ["G67", "!/secrets/**", "/secrets/a", false],
  ["G68", "!/secrets/**", "!/secrets/a", true],
  ["G69", "/data/\\*.txt", "/data/*.txt", true],
  ["G70", "/data/\\*.txt", "/data/a.txt", false],
  ["G71", "/Data/**", "/data/x", false],
  ["G72", "/data/**", "/DATA/x", false],
  ["G73", "/secrets//**", "/secrets/a", true],
  ["G74", "/secrets/**/", "/secrets/a", true],
  ["G75", "/a/(b|c)", "/a/b", false],
  ["G76", "/a/(b|c)", "/a/(b|c)", true],
  ["G77", "/a/b c/**", "/a/b c/d", true],
  ["G78", "/workspace/**/", "/workspace/a", true],
  ["G79", "/**/", "/a", true],
  ["G80", "/proj/*", "/proj/app", true],
  ["G81", "/proj/*.log", "/proj/app.log", true],
  ["G82", "/a/**.txt", "/a/b.txt", true],
  ["G83", "/a/**.txt", "/a/x/b.txt", false],
  ["G84", "/**.env", "/.env", true],
  ["G85", "/**.env", "/x.env", true],
  ["G86", "/a/b**", "/a/bc/d", false],
  ["G87", "/a/b**", "/a/bc", true],
  ["G88", "/data/{,x}y", "/data/y", true],
  ["G89", "/data/{,x}y", "/data/xy", true],
  ["G90", "/data/[[:alpha:]].txt", "/data/a.txt", true],
  ["G91", "/data/[[:digit:]].txt", "/data/1.txt", true],
  ["G92", "/data/{a,b", "/data/{a,b", true],
  ["G93", "/data/{a,b", "/data/a", false],
  ["G94", "/data/[abc", "/data/[abc", true],
  ["G95", "/data/[abc", "/data/a", false],
  ["G96", "/data/{1..10..2}.txt", "/data/3.txt", true],
  ["G97", "/data/{1..10..2}.txt", "/data/4.txt", false],
  ["G98", "/data/{01..03}.txt", "/data/02.txt", true],
  ["G99", "/data/{01..03}.txt", "/data/2.txt", false],
  ["G100", "/**/.env", "/.env", true],
  ["G101", "/{,**/}.env", "/.env", true],
  ["G102", "/{,**/}.env", "/a/b/.env", true],
  ["G103", "/workspace{,/**}", "/workspace", true],
  ["G104", "/workspace{,/**}", "/workspace/a/b", true],
  ["G105", "/workspace{,/**}", "/workspace/.env", false],
  ["G106", "/a/.*", "/a/.env", true],
  ["G107", "/a/.*", "/a/.", true],
  ["G108", "/a/*", "/a/.", false],
  ["G109", "/a/**/*", "/a/.hidden/x", false],
  ["G110", "/a/[.]env", "/a/.env", false],
  ["G111", "/a/?(b)", "/a/", false],
  ["G112", "/a/?(b)", "/a/b", false],
  ["G113", "/a/b?(c)", "/a/b", false],
  ["G114", "/a/\\{b,c\\}", "/a/{b,c}", true],
  ["G115", "/a/\\{b,c\\}", "/a/b", false],
  ["G116", "/a/b.txt", "/a/b.txt", true],
  ["G117", "/a/b.[tT][xX][tT]", "/a/b.TXT", true],
  ["G118", "/a/$b", "/a/$b", true],
  ["G119", "/a/(b)", "/a/(b)", true],
  ["G120", "/a/b+c", "/a/b+c", true],
  ["G121", "/a/b@c", "/a/b@c", true],
  ["G122", "/a/#b", "/a/#b", true],
  ["G123", "/a/b^c", "/a/b^c", true],
  ["G124", "/a/*/c", "/a/b/c", true],
  ["G125", "/a/*/c", "/a/.b/c", false],
  ["G126", "/**/node_modules/**", "/x/node_modules/y", true],
  ["G127", "/**/node_modules/**", "/node_modules/y", true],
];

test("spec §2.1 matcher table, Python column (G1–G127)", async (t) => {
  assert.equal(MATCHER_TABLE.length, 127);
  for (const [row, pattern, path, expected] of MATCHER_TABLE) {
    await t.test(`${row}: globmatch(${JSON.stringify(path)}, ${JSON.stringify(pattern)})`, () => {
      assert.equal(pyGlobMatch(path, pattern), expected);
      const compiled = compilePyGlob(pattern);
      assert.equal(compiled.error, undefined);
      // The exposed regular expressions agree with the matcher.
      assert.equal(
        compiled.regexes.some((re) => re.test(path)),
        expected,
      );
    });
  }
});

/** What `bracex.iexpand(pattern, keep_escapes=True)` yields, observed through matching and counting. */
const EXPANSIONS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["/data/{a,{b,c}}.txt", ["/data/a.txt", "/data/b.txt", "/data/c.txt"]],
  ["/{a..c}", ["/a", "/b", "/c"]],
  ["/{1..10..2}", ["/1", "/3", "/5", "/7", "/9"]],
  ["/{01..03}", ["/01", "/02", "/03"]],
  ["/{-05..3}", ["/-05", "/-04", "/-03", "/-02", "/-01", "/000", "/001", "/002", "/003"]],
  ["/{3..1}", ["/3", "/2", "/1"]],
  ["/{a..e..-2}", ["/a", "/c", "/e"]],
  ["/{1..10..0}", ["/1", "/2", "/3", "/4", "/5", "/6", "/7", "/8", "/9", "/10"]],
  // The alphabet bracex walks is chr(65)..chr(122) with the backslash blanked.
  ["/{Z..a}", ["/Z", "/[", "/", "/]", "/^", "/_", "/`", "/a"]],
  // Python's int() and bracex's `\d` accept any Unicode decimal digit.
  ["/{١..٣}", ["/1", "/2", "/3"]],
  ["/{,x}y", ["/y", "/xy"]],
  ["/{1..3}{a,b}", ["/1a", "/1b", "/2a", "/2b", "/3a", "/3b"]],
  ["/{{a,b},c}", ["/a", "/b", "/c"]],
  // Not groups: kept as literal text.
  ["/{a,b", ["/{a,b"]],
  ["/{}", ["/{}"]],
  ["/x{}y", ["/x{}y"]],
  ["/{a}", ["/{a}"]],
  ["/${a,b}", ["/${a,b}"]],
  // bash's top-level rule: `}` does not close a group that has no comma yet.
  ["/{a}{b,c}", ["/{a}b", "/{a}c"]],
  ["/{a},b}", ["/a}", "/b"]],
  ["/{a,b}}", ["/a}", "/b}"]],
  // Escapes are kept (keep_escapes=True) and then read by wcmatch.
  ["/{a\\,b,c}", ["/a,b", "/c"]],
];

test("brace expansion follows bracex", async (t) => {
  for (const [pattern, paths] of EXPANSIONS) {
    await t.test(pattern, () => {
      const compiled = compilePyGlob(pattern);
      assert.equal(compiled.error, undefined);
      for (const path of paths) assert.ok(compiled.matches(path), `${pattern} should match ${JSON.stringify(path)}`);
      assert.equal(countBraceExpansions(pattern), paths.length);
    });
  }
  await t.test("escaped braces are literal", () => {
    assert.ok(pyGlobMatch("/a/{b,c}", "/a/\\{b,c\\}"));
    assert.ok(!pyGlobMatch("/a/b", "/a/\\{b,c\\}"));
    assert.equal(countBraceExpansions("/a/\\{b,c\\}"), 1);
  });
  await t.test("alternatives that are all empty yield no pattern at all", () => {
    // bracex drops its EMPTY sentinel, so `{,}` alone yields nothing and matches nothing; `/{,}` yields "/" twice.
    assert.equal(countBraceExpansions("{,}"), 0);
    assert.equal(compilePyGlob("{,}").regexes.length, 0);
    assert.equal(pyGlobMatch("", "{,}"), false);
    assert.equal(countBraceExpansions("/{,}"), 2);
    assert.equal(compilePyGlob("/{,}").regexes.length, 1);
    assert.ok(pyGlobMatch("/", "/{,}"));
  });
  await t.test("an empty pattern matches nothing (globmatch returns early)", () => {
    const compiled = compilePyGlob("");
    assert.equal(compiled.error, undefined);
    assert.deepEqual(compiled.regexes, []);
    assert.equal(compiled.matches(""), false);
    assert.equal(countBraceExpansions(""), 0);
  });
});

const LIMIT_ERROR = "Pattern limit exceeded the limit of 1000";

test("expansion limit: PatternLimitException without expanding", async (t) => {
  const cases: ReadonlyArray<readonly [string, number]> = [
    ["/{1..1000000}", 1_000_000],
    ["/" + "{a,b}".repeat(30), 2 ** 30],
    ["/" + "{a,b}".repeat(10), 1024],
    ["/{1..1001}", 1001],
    ["/{1..99999999999999999999}", 9_999_999_999_999_999_999 > Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : 0],
    ["/" + "{a,b,c,d,e,f,g,h,i,j}".repeat(400), Number.MAX_SAFE_INTEGER],
  ];
  for (const [pattern, count] of cases) {
    await t.test(pattern.slice(0, 60), () => {
      const started = performance.now();
      const compiled = compilePyGlob(pattern);
      const elapsed = performance.now() - started;
      assert.equal(compiled.error, LIMIT_ERROR);
      assert.deepEqual(compiled.regexes, []);
      assert.equal(compiled.matches("/1"), false);
      assert.equal(pyGlobMatch("/a", pattern), false);
      assert.equal(countBraceExpansions(pattern), count);
      assert.ok(elapsed < 250, `took ${elapsed.toFixed(1)} ms`);
    });
  }
  await t.test("exactly 1000 expansions is allowed", () => {
    const compiled = compilePyGlob("/{1..1000}");
    assert.equal(compiled.error, undefined);
    assert.equal(compiled.regexes.length, 1000);
    assert.ok(compiled.matches("/1000"));
    assert.ok(!compiled.matches("/1001"));
  });
  await t.test("bracex counts empty alternatives towards the limit", () => {
    // 2**10 candidates, all empty: nothing would be yielded, yet bracex's count passes 1000 first.
    assert.equal(compilePyGlob("{,}".repeat(10)).error, LIMIT_ERROR);
    assert.equal(countBraceExpansions("{,}".repeat(10)), 0);
  });
});

test("re.error raised by Python for classes wcmatch mistranslates", () => {
  assert.equal(compilePyGlob("/a/[a-[:alpha:][:upper:]]").error, "bad escape \\A at position 50");
  assert.equal(compilePyGlob("/a/[a-[:alpha:]-[:digit:]]").error, "bad character range \\\\-0 at position 56");
  assert.equal(compilePyGlob("/a\n/[a-[:alpha:][:upper:]]").error, "bad escape \\A at position 52 (line 2, column 41)");
  // When a later POSIX class does not follow, wcmatch's range check silently drops the pieces instead.
  assert.ok(pyGlobMatch("/a/a", "/a/[a-[:alpha:]!]"));
  assert.ok(!pyGlobMatch("/a/b", "/a/[a-[:alpha:]!]"));
});

test("classes, dots and separators", () => {
  assert.ok(pyGlobMatch("/data/b.txt", "/data/[!a].txt"));
  assert.ok(!pyGlobMatch("/data/a.txt", "/data/[!a].txt"));
  assert.ok(!pyGlobMatch("/data//.txt", "/data/[!a].txt"));
  assert.ok(pyGlobMatch("/data/[abc", "/data/[abc"));
  assert.ok(pyGlobMatch("/a/z", "/a/[z-a]") === false); // a reversed range empties the class
  assert.ok(pyGlobMatch("/a/z", "/a/[!z-a]")); // …and negated, matches any one character
  assert.ok(pyGlobMatch("/a/]", "/a/[]]"));
  assert.ok(pyGlobMatch("/a/-", "/a/[a-]"));
  assert.ok(!pyGlobMatch("/a/..", "/a/*"));
  assert.ok(pyGlobMatch("/a/.", "/a/.*")); // a literal leading dot lifts every dot restriction in the segment
  assert.ok(pyGlobMatch("/a/..", "/a/.*"));
  assert.ok(pyGlobMatch("/a/", "/a/**"));
  assert.ok(!pyGlobMatch("/a", "/a/**"));
  assert.ok(!pyGlobMatch("/x/y\n", "/x/y")); // fullmatch: a final newline is not absorbed by `$`
  assert.ok(pyGlobMatch("/x/a\n", "/x/*"));
  assert.ok(!pyGlobMatch("/x/.\n", "/x/*"));
  assert.ok(pyGlobMatch("/😀/é", "/?/?")); // code points, not UTF-16 units
});

test("RecursionError inside bracex falls back to the unexpanded pattern", () => {
  // wcmatch catches the RecursionError (`except Exception: yield p`): braces become literal text. The threshold
  // assumes 50 caller frames on CPython 3.11 (it moves with the real stack depth).
  const shallow = "/{x,y}" + "{1..1}".repeat(400);
  assert.equal(countBraceExpansions(shallow), 2);
  assert.ok(pyGlobMatch("/x" + "1".repeat(400), shallow));

  const deep = "/{x,y}" + "{1..1}".repeat(600);
  assert.equal(countBraceExpansions(deep), 1);
  assert.ok(!pyGlobMatch("/x" + "1".repeat(600), deep));
  assert.ok(pyGlobMatch(deep, deep));

  const nested = "/" + "{".repeat(5000) + "a";
  assert.equal(countBraceExpansions(nested), 1);
  assert.ok(pyGlobMatch(nested, nested));
});

test("100,000-character patterns compile quickly and match correctly", async (t) => {
  const N = 100_000;
  const cases: ReadonlyArray<readonly [string, string, string, boolean]> = [
    ["literal", "/" + "a".repeat(N - 1), "/" + "a".repeat(N - 1), true],
    ["segments", "/a".repeat(N / 2), "/a".repeat(N / 2 - 1) + "/b", false],
    ["question marks", "/" + "?".repeat(N - 1), "/" + "x".repeat(N - 1), true],
    ["stars", "/" + "*".repeat(N - 1), "/anything", true],
    ["globstars", "/" + "**/".repeat(N / 3), "/a/b/c/", true],
    ["classes", "/" + "[ab]".repeat(N / 4), "/" + "ab".repeat(N / 8), true],
    ["unclosed classes", "/" + "[".repeat(N - 1), "/" + "[".repeat(N - 1), true],
    ["unclosed braces", "/" + "{".repeat(N - 1), "/" + "{".repeat(N - 1), true],
    ["invalid groups", "/" + "{a}".repeat(N / 4), "/" + "{a}".repeat(N / 4), true],
    ["many groups", "/" + "{a,b}".repeat(N / 5), "/a", false],
    ["one group, long tail", "/{x,y}/" + "z".repeat(N - 10), "/y/" + "z".repeat(N - 10), true],
  ];
  // No absolute time bound (the machines are shared): each case is held to a multiple of the time a plain literal
  // pattern of the same length takes, measured just before it, which super-linear behaviour exceeds by far.
  const literalTime = () => {
    const started = performance.now();
    compilePyGlob("/" + "a".repeat(N - 1)).matches("/" + "a".repeat(N - 1));
    return performance.now() - started;
  };
  for (const [name, pattern, path, expected] of cases) {
    await t.test(name, () => {
      const baseline = Math.max(literalTime(), 1);
      const started = performance.now();
      const compiled = compilePyGlob(pattern);
      const matched = compiled.matches(path);
      const elapsed = performance.now() - started;
      assert.equal(matched, expected);
      assert.equal(
        compiled.regexes.some((re) => re.test(path)),
        compiled.error === undefined && matched,
      );
      // Typically a few times the literal's time; quadratic work on 100,000 characters would be thousands of times.
      assert.ok(elapsed < 200 * baseline, `${name}: ${elapsed.toFixed(1)} ms, a literal of the same length ${baseline.toFixed(1)} ms`);
    });
  }
});

test("no catastrophic backtracking", () => {
  const started = performance.now();
  // CPython's backtracking `re` does not finish this one in minutes; the answer is still "no match".
  assert.equal(pyGlobMatch("/" + "a".repeat(20_000), "/*a*a*a*a*a*a*a*a*a*a*a*b"), false);
  assert.equal(pyGlobMatch("/" + "a".repeat(22), "/*a*a*a*a*a*a*a*a*a*a*a*b"), false);
  assert.equal(pyGlobMatch("/" + "a/".repeat(5_000) + "c", "/**/a/**/a/**/a/**/b"), false);
  assert.equal(pyGlobMatch("/" + "a".repeat(50) + "b", "/*a*a*a*a*a*a*a*a*a*a*a*b"), true);
  assert.ok(performance.now() - started < 2000);
});

test("patterns that share a brace expansion share its compiled program and each still matches on its own", () => {
  // `/w/**/*.log` is an expansion of both; its program is compiled once (pyGlob/compile.ts `EXPANSIONS`) and run for
  // either pattern, interleaved, so a run must leave nothing behind that the next one reads. (The expected values
  // are wcmatch's: `**` crosses folders, `*` never starts a name with `.`.)
  const a = compilePyGlob("/w/**/*.{crt,log}");
  const b = compilePyGlob("/w/**/*.{kdbx,log}");
  const paths = ["/w/x.log", "/w/x.crt", "/w/x.kdbx", "/w/a/b/x.log", "/w/.x.log", "/w/x.logx", "/v/x.log", "/w/x.crt"];
  for (let round = 0; round < 3; round++) {
    assert.deepEqual(paths.map((p) => [a.matches(p), b.matches(p)]), [
      [true, true], [true, false], [false, true], [true, true], [false, false], [false, false], [false, false], [true, false],
    ], `round ${round}`);
  }
});

test("the runtime's matcher, pre-check included, agrees with the full one on a brace after `$` (literal in bracex)", () => {
  const cases: [string, string, boolean][] = [
    ["/${a,b}", "/${a,b}", true],
    ["/${a,b}", "/$a", false],
    ["/x${a,b}/**", "/x${a,b}/y", true],
    ["/${a,b}*", "/${a,b}c", true],
    ["/${a,b}/{c,d}", "/${a,b}/c", true],
    ["/${a,b}/{c,d}", "/$a/c", false],
  ];
  for (const [pattern, path, expected] of cases) {
    // Asked several times: the runtime's matcher changes strategy after repeated questions.
    const compiled = deepagentsPy.compilePattern(pattern);
    for (let k = 0; k < 300; k++) assert.equal(compiled.matches(path), expected, `${pattern} on ${path} (ask ${k})`);
    assert.equal(compilePyGlob(pattern).matches(path), expected, `${pattern} on ${path}, full matcher`);
  }
});
