import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { mayMatchDotName } from "../../server/src/engine/automata/dotMatching";
import { isPlainPath } from "../../server/src/engine/runtime/runtime";
import { expandBraces } from "../../server/src/engine/runtime/simpleGlob";
import { MAX_NESTING, parseJsonc } from "../../server/src/engine/config/parse";
import { firstTooDeepOffset } from "../helpers/nesting";
import { deepagentsJs, deepagentsPy } from "../../server/src/engine/runtime";
import { globNodes, leadingFolderAlternatives, leadingFolders, simpleGlobNodes } from "../../server/src/engine/runtime/globText";
import { commonPrefix, literalPrefixOfRegex } from "../../server/src/engine/runtime/literalPrefix";
import { compilePyGlob, hasLiteralAlternative, pyGlobError, pyGlobTextLiteralAlternatives, pyGlobTextLiterals } from "../../server/src/engine/runtime/pyGlob";
import { makeRng } from "../helpers/random";

/**
 * The shortcuts that keep `check` fast answer without compiling, or skip patterns: each must give exactly what the
 * full computation gives. These compare them with it on generated patterns and paths (a failing seed reproduces).
 */

const PATTERN_PIECES = ["/", "/", "/", "*", "**", "?", ".", "a", "b", "ab", ".env", "{a,b}", "{,x/}", "{.a,b}", "[a]", "[!a]", "[.]", "\\", "\\.", "x", "[", "]", "{", "}", ",", "-", "_"];
const PATH_SEGMENTS = ["a", "b", "ab", "x", ".env", ".a", "a.b", ".", "x.a", "-", "_", "b.env"];

function patterns(seed: number, count: number): string[] {
  const r = makeRng(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let p = r.chance(0.9) ? "/" : "";
    const n = 1 + r.int(6);
    for (let k = 0; k < n; k++) p += r.pick(PATTERN_PIECES);
    out.push(p);
  }
  return out;
}

/** Canonical-looking paths: single slashes, no trailing slash. */
function paths(seed: number, count: number): string[] {
  const r = makeRng(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = 1 + r.int(4);
    out.push("/" + Array.from({ length: n }, () => r.pick(PATH_SEGMENTS)).join("/"));
  }
  return out;
}

function eagerPrefix(pattern: string): string {
  const { regexes } = compilePyGlob(pattern);
  if (regexes.length === 0) return "";
  let prefix = pattern;
  for (const regex of regexes) prefix = commonPrefix(prefix, literalPrefixOfRegex(regex.source));
  return prefix;
}

describe("check speed-ups agree with the full computation", () => {
  const pats = patterns(11, 600);
  const ps = paths(12, 120);

  test("deepagents-py's lazy compiled pattern: same matches, error and literal prefix as compiling up front", () => {
    let matched = 0;
    for (const pattern of pats) {
      const full = compilePyGlob(pattern);
      const lazy = deepagentsPy.compilePattern(pattern);
      assert.equal(lazy.unusable, full.error, pattern);
      assert.equal(pyGlobError(pattern), full.error, pattern);
      for (const path of ps) {
        const expected = full.matches(path);
        if (expected) matched++;
        assert.equal(lazy.matches(path), expected, `${pattern} against ${path}`);
      }
      assert.equal(lazy.literalPrefix, eagerPrefix(pattern), pattern);
    }
    // The comparison means something only if the generated patterns match some of the paths.
    assert.ok(matched > 200, `only ${matched} matches`);
  });

  test("pyGlobError: the brace-expansion limit without compiling", () => {
    for (const pattern of ["/{a,b}".repeat(10), "/{a,b}".repeat(9), "/{1..1000}", "/{1..1001}", "/{a,b}{1..600}", "/{,}{,}{,}"]) {
      assert.equal(pyGlobError(pattern), compilePyGlob(pattern).error, pattern);
    }
    assert.ok(pyGlobError("/{a,b}".repeat(10)), "1,024 expansions are over the limit");
    // The shortcut's claim: without a range, nine commas or fewer never pass the limit, however they nest.
    const r = makeRng(23);
    const pieces = ["{", "}", ",", ",", "{a,b}", "{,}", "{a,{b,c}}", "a", "/", "\\,", "\\{", "*", "{x,y,z}"];
    let nested = 0;
    for (let i = 0; i < 3000; i++) {
      let pattern = "/";
      while (pattern.split(",").length - 1 < 9 && pattern.length < 40) pattern += r.pick(pieces);
      if (pattern.split(",").length - 1 > 9) continue;
      if (pattern.includes("{{") || /\{[^}]*\{/.test(pattern)) nested++;
      assert.equal(compilePyGlob(pattern).error, undefined, pattern);
      assert.equal(pyGlobError(pattern), undefined, pattern);
    }
    assert.ok(nested > 500, `only ${nested} patterns with nested braces`);
  });

  test("a path the pattern's literal text is missing from is not matched (Python)", () => {
    for (const pattern of pats) {
      const literals = pyGlobTextLiterals(pattern);
      if (!literals) continue;
      const compiled = compilePyGlob(pattern);
      for (const path of ps) {
        let from = 0;
        const inOrder = literals.every((l) => (from = path.indexOf(l, from)) >= 0 && ((from += l.length), true));
        if (!inOrder) assert.equal(compiled.matches(path), false, `${pattern} against ${path}`);
      }
    }
  });

  test("a path holding no brace expansion's literal text is not matched (Python)", () => {
    // Brace patterns as configs write them, and the generated ones; paths also with `//` and a trailing `/`.
    const written = ["/w/{dist,.cache}/**", "/w/**/*.{pem,key}", "/w/{a,b}/{c,.env}", "/w/{,.}env", "/{a,b{c,d}}/x", "/w/{.git,}/**", "/w/{a,{b}", "/w/{1..3}.log", "/w/{a..c}/*"];
    const all = [...written, ...pats.filter((p) => p.includes("{"))];
    const extra = ["/w/dist/a", "/w/.cache/x", "/w/a.pem", "/w/b/.env", "/w/env", "/w/.env", "/bd/x", "/w//dist/a", "/w/.git/", "/w/2.log", "/w/b/c"];
    let filtered = 0;
    let told = 0;
    for (const pattern of all) {
      const alternatives = pyGlobTextLiteralAlternatives(pattern);
      if (!alternatives) continue;
      told++;
      const compiled = compilePyGlob(pattern);
      const lazy = deepagentsPy.compilePattern(pattern);
      for (const path of [...ps, ...extra, ...ps.map((q) => `/${q}`), ...ps.map((q) => `${q}/`)]) {
        const matches = compiled.matches(path);
        if (!hasLiteralAlternative(alternatives, path)) {
          filtered++;
          assert.equal(matches, false, `${pattern} against ${path}`);
        }
        assert.equal(lazy.matches(path), matches, `${pattern} against ${path} (compiled lazily)`);
      }
    }
    // The test says something only if the alternatives are read for many patterns and rule paths out.
    assert.ok(told > 40 && filtered > 1000, `${told} patterns told, ${filtered} paths ruled out`);
    assert.deepEqual(pyGlobTextLiteralAlternatives("/w/{dist,.cache}/**"), [["w", "dist"], ["w", ".cache"]]);
    // What the text cannot tell: an escape, a class, an expansion with no literal text, the expansion limit.
    for (const pattern of ["/w/\\{a,b}", "/w/[ab]{c,d}", "/{a,**}", "/{a,b}".repeat(10)]) assert.equal(pyGlobTextLiteralAlternatives(pattern), undefined, pattern);
  });

  test("a Python pattern without a dot-capable spot matches no path with a dot name (nor a `.` segment)", () => {
    const dotPaths = ps.filter((p) => p.split("/").some((s) => s.startsWith(".") && s !== ".."));
    assert.ok(dotPaths.some((p) => p.split("/").includes(".")), "paths with a `.` segment are asked too");
    let skipped = 0;
    for (const pattern of pats) {
      if (mayMatchDotName(pattern)) continue;
      skipped++;
      const compiled = compilePyGlob(pattern);
      for (const path of dotPaths) assert.equal(compiled.matches(path), false, `${pattern} against ${path}`);
    }
    assert.ok(skipped > 50, `only ${skipped} patterns without a dot-capable spot`);
    // The quirks the test has to keep: an empty `*` before a literal `.`, `?` or class at a segment start.
    for (const [pattern, path] of [["/*.txt", "/.txt"], ["/*?env", "/.env"], ["/*[.]env", "/.env"], ["/a/{b/,}.env", "/a/.env"]] as const) {
      assert.ok(mayMatchDotName(pattern), pattern);
      assert.ok(compilePyGlob(pattern).matches(path), `${pattern} matches ${path} in Python`);
    }
  });

  test("simplePatternMatcher answers as each runtime's compiled matcher does on plain paths, and declines every other glob", () => {
    const SEGMENTS = ["a", "b", "ab", "a-b", "x_y", "a.b", ".git", "*", "**", "*.ts", "a*", "*b", "a*b", "*.*", ".*", "*a*", "{a,b}", "{.git,ab}", "*.{ts,js}", "{a,b}*", "{x_y,a.b,c}"];
    const NAMES = ["a", "b", "ab", "a-b", "x_y", "a.b", ".git", ".env", "x.ts", "a.ts", "b.js", ".ts", "..ts", ".a.ts", "ab.ts", "aab", "abab", ".ab", ".b", "c", "*", "{a,b}", "a*b"];
    for (const runtime of [deepagentsJs, deepagentsPy]) {
      const r = makeRng(17);
      let compared = 0;
      let matched = 0;
      let dotMatched = 0;
      for (let i = 0; i < 1500; i++) {
        const pattern = "/" + Array.from({ length: 1 + r.int(4) }, () => r.pick(SEGMENTS)).join("/");
        const simple = runtime.simplePatternMatcher(pattern);
        if (!simple) {
          // Only what the reader leaves to the compiled matcher on purpose: `**/**`.
          assert.ok(pattern.includes("**/**"), `${runtime.id}: ${pattern} was declined`);
          continue;
        }
        const compiled = runtime.compilePattern(pattern);
        const candidates = [pattern, ...Array.from({ length: 40 }, () => "/" + Array.from({ length: 1 + r.int(4) }, () => r.pick(NAMES)).join("/"))];
        for (const path of candidates) {
          if (!isPlainPath(path)) continue;
          compared++;
          const expected = compiled.matches(path);
          if (expected) matched++;
          if (expected && path.includes("/.")) dotMatched++;
          assert.equal(simple(path), expected, `${runtime.id}: ${pattern} against ${path}`);
        }
      }
      assert.ok(compared > 30_000 && matched > 2000 && dotMatched > 300, `${runtime.id}: only ${compared} paths compared, ${matched} matched (${dotMatched} with a dot name)`);
    }
    // Each runtime's own readings at the ends of a pattern and of dot names, checked against its matcher and against what it says.
    const readings: [typeof deepagentsJs, string, string, boolean][] = [
      [deepagentsJs, "/**/x", "/x", false], [deepagentsJs, "/**/x", "/a/x", true], [deepagentsJs, "/**", "/x", true], [deepagentsJs, "/a/**/x", "/a/x", true],
      [deepagentsJs, "/a/**", "/a", true], [deepagentsJs, "/*/**", "/a", false], [deepagentsJs, "/a*/**", "/ab", false], [deepagentsJs, "/*.ts/**", "/a.ts", true],
      [deepagentsJs, "/{a,b}/**", "/a", true], [deepagentsJs, "/**/*.ts", "/a.ts", false], [deepagentsJs, "/a/*/**/b", "/a/q/b", true], [deepagentsJs, "/a/{b,c}", "/a/{b,c}", true],
      [deepagentsJs, "/*", "/.a", true], [deepagentsJs, "/a/**", "/a/.b/c", true],
      [deepagentsPy, "/**/x", "/x", true], [deepagentsPy, "/a/**", "/a", false], [deepagentsPy, "/a/**", "/a/.b", false], [deepagentsPy, "/*", "/.a", false],
      [deepagentsPy, "/*.ts", "/.ts", true], [deepagentsPy, "/*.ts", "/..ts", false], [deepagentsPy, "/*a", "/.a", false], [deepagentsPy, "/a*", "/a.b", true],
      [deepagentsPy, "/**/*.ts", "/.q/a.ts", false], [deepagentsPy, "/**/*.ts", "/q/.ts", true], [deepagentsPy, "/.git/**", "/.git/x", true], [deepagentsPy, "/a/{b,c}", "/a/{b,c}", false],
    ];
    for (const [runtime, pattern, path, expected] of readings) {
      assert.equal(runtime.compilePattern(pattern).matches(path), expected, `${runtime.id} itself: ${pattern} against ${path}`);
      assert.equal(runtime.simplePatternMatcher(pattern)!(path), expected, `${runtime.id}: ${pattern} against ${path}`);
    }
    // Its brace reading is bracex's: the same expansions, in the same order (duplicates aside).
    const rb = makeRng(29);
    let expandedCount = 0;
    for (let i = 0; i < 2000; i++) {
      const pattern = "/" + Array.from({ length: 1 + rb.int(4) }, () => rb.pick([...SEGMENTS, "{a,b,a}", "x{.a,-b}y", "{a,b}{c,d}", "{a,", "a}", "{,a}", "{a..c}"])).join("/");
      const expansions = expandBraces(pattern);
      if (!expansions) continue;
      expandedCount++;
      assert.deepEqual([...new Set(expansions)], compilePyGlob(pattern).expansions, pattern);
    }
    assert.ok(expandedCount > 1000, `only ${expandedCount} patterns expanded`);
    for (const pattern of ["/a/?", "/a/[b]", "/a/{a}", "/{a,}", "/{1..3}", "/{a,..}", "/{.,a}", "/a/", "a/**", "**", "/a//b", "/a/./b", "/a/../b", "/a**", "/a/**/**", "/{a,{b,c}}", "/!a", "/a/+(b)", "/a\\b", "/a b", "/{a,b/c}", "/" + "{a,b}".repeat(7)]) {
      for (const runtime of [deepagentsJs, deepagentsPy]) assert.equal(runtime.simplePatternMatcher(pattern), undefined, `${runtime.id}: ${pattern}`);
    }
    // picomatch refuses a pattern past its length limit at call time: no path matches it there.
    const long = "/a" + "/b".repeat(40_000);
    assert.ok(deepagentsJs.compilePattern(long).unusable, "picomatch refuses the long pattern");
    assert.equal(deepagentsJs.simplePatternMatcher(long), undefined);
  });

  test("simpleGlobNodes reads a simple pattern into the nodes parseNodes gives it", () => {
    const r = makeRng(31);
    const pieces = ["/", "/", "a", "b.c", "-", "_", "*", "**", "***", "{a,b}", "{.git,x-y}", "{a}", "{,a}", "{a,}", "{1..3}", "{a,b", "a}", ",", "{a,{b,c}}", "{a..b,c}", "."];
    let read = 0;
    for (let i = 0; i < 5000; i++) {
      let pattern = r.chance(0.9) ? "/" : "";
      const n = r.int(7);
      for (let k = 0; k < n; k++) pattern += r.pick(pieces);
      const nodes = simpleGlobNodes(pattern);
      if (!nodes) continue;
      read++;
      assert.deepEqual(nodes.length > 0 ? [nodes] : [], globNodes(pattern), pattern);
    }
    assert.ok(read > 1000, `only ${read} patterns read`);
    for (const pattern of ["/a/[b]", "/a/?", "/a\\*", "/+(a)", "/a|/b", "/{a,b", "/{a}"]) assert.equal(simpleGlobNodes(pattern), undefined, pattern);
  });

  test("leadingFolders and leadingFolderAlternatives: every matched path starts with one, and then ends or goes on with / (both runtimes)", () => {
    let checked = 0;
    let expanded = 0;
    const extra = ["/a/b/**", "/a/**", "/ab/x", "/a-b/_x/*.ts", "/.env/**", "/a/.env", "/a.b/x", "/{a,.env}/**", "/a/{b,.env}/*", "/{a,b}", "/a/{b,c}x/**", "/a/b{.a,x}/**", "/{a,b}/{x,.a}/**", "/./a/**", "/a/../b/**"];
    const extraPaths = ["/a/b", "/a", "/ab/x", "/a-b/_x/y.ts", "/.env/x", "/.env", "/a/.env", "/a.b/x", "/a/bx/y", "/a/cx", "/a/b.a/x", "/b/.a/x", "/b/x", "/a/b/x"];
    for (const pattern of [...pats, ...extra]) {
      const folders = leadingFolders(pattern);
      const alternatives = leadingFolderAlternatives(pattern);
      if (alternatives.length > 1) expanded++;
      for (const runtime of [deepagentsJs, deepagentsPy]) {
        const compiled = runtime.compilePattern(pattern);
        if (compiled.unusable) continue;
        for (const path of [...ps, ...extraPaths, ...extraPaths.map((p) => `${p}/a`)]) {
          if (!compiled.matches(path)) continue;
          checked++;
          const folderOf = (prefix: string) => path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === "/" || prefix === "");
          assert.ok(folderOf(folders), `${runtime.id}: ${pattern} matches ${path}, which does not start with the folder ${folders}`);
          assert.ok(alternatives.some(folderOf), `${runtime.id}: ${pattern} matches ${path}, which starts with none of ${alternatives.join(" ")}`);
        }
      }
    }
    assert.ok(checked > 300 && expanded > 10, `only ${checked} matches checked, ${expanded} patterns expanded`);
    assert.equal(leadingFolders("/a/b/**"), "/a/b");
    assert.equal(leadingFolders("/**/x"), "");
    assert.equal(leadingFolders("/w/.git/**"), "/w/.git");
    assert.equal(leadingFolders("/w/./a/**"), "/w");
    assert.deepEqual(leadingFolderAlternatives("/w/{dist,.cache}/**"), ["/w/dist", "/w/.cache", "/w/{dist,.cache}/**"]);
    assert.deepEqual(leadingFolderAlternatives("/w/**/*.{a,b}"), ["/w"]);
  });

  test("parseJsonc stops at the bracket that opens level 129 exactly where jsonc-parser's scanner counts it", () => {
    const r = makeRng(13);
    const pieces = ["{", "}", "[", "]", "[", "{", "\"", "\\", "/", "*", "//", "/*", "*/", "\n", "\r", "a", "1", "-", ",", ":", " ", "\\\"", "\\u00", "[".repeat(40), "{".repeat(30), "]".repeat(20)];
    let deep = 0;
    for (let i = 0; i < 3000; i++) {
      let text = "";
      const n = 1 + r.int(60);
      for (let k = 0; k < n; k++) text += r.pick(pieces);
      const expected = firstTooDeepOffset(text);
      if (expected < 0) continue;
      deep++;
      const nesting = parseJsonc(text).findings.filter((f) => f.message.startsWith("Nesting deeper than"));
      assert.deepEqual(nesting.map((f) => f.span.start), [expected], JSON.stringify(text));
    }
    assert.ok(deep > 50, `only ${deep} texts nest deeper than ${MAX_NESTING}`);
  });
});
