import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { mayMatchDotName, plainFolderGlobstarMatches, plainFolderOfGlobstar } from "../../server/src/engine/checks/dotfilesUnprotected";
import { MAX_NESTING, parseJsonc } from "../../server/src/engine/config/parse";
import { firstTooDeepOffset } from "../helpers/nesting";
import { deepagentsJs, deepagentsPy } from "../../server/src/engine/runtime";
import { isCanonical, leadingFolders } from "../../server/src/engine/runtime/globText";
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

  test("a Python pattern without a dot-capable spot matches no path with a dot name", () => {
    const dotPaths = ps.filter((p) => p.split("/").some((s) => s.startsWith(".") && s !== "." && s !== ".."));
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

  test("deepagents-js matches a canonical path with `<plain folder>/**` exactly when the path is below the folder", () => {
    const r = makeRng(17);
    const FOLDER_SEGMENTS = ["a", "b", "ab", "a-b", "x_y", "a.b", "v1", "A", ".git", "workspace"];
    let compared = 0;
    let below = 0;
    for (let i = 0; i < 300; i++) {
      const folder = "/" + Array.from({ length: 1 + r.int(3) }, () => r.pick(FOLDER_SEGMENTS)).join("/");
      const pattern = `${folder}/**`;
      assert.equal(plainFolderOfGlobstar(pattern), folder, pattern);
      const compiled = deepagentsJs.compilePattern(pattern);
      const candidates = [...ps, folder, `${folder}/.env`, `${folder}/a/.env`, `${folder}/.git/config`, `${folder}x/.env`, `${folder.slice(0, -1)}/.env`];
      for (const path of candidates) {
        if (!isCanonical(deepagentsJs, path)) continue;
        compared++;
        const expected = compiled.matches(path);
        if (expected) below++;
        assert.equal(plainFolderGlobstarMatches(folder, path), expected, `${pattern} against ${path}`);
      }
    }
    assert.ok(compared > 10_000 && below > 500, `only ${compared} paths compared, ${below} below their folder`);
    for (const pattern of ["/a/**/x", "/a/*/**", "/{a,b}/**", "/a[b]/**", "**", "/**", "/a//**", "/a/**/**", "a/**", "/a b/**", "/a/./**", "/a/../**"]) assert.equal(plainFolderOfGlobstar(pattern), undefined, pattern);
  });

  test("leadingFolders is never longer than what a matched path starts with (both runtimes)", () => {
    let checked = 0;
    for (const pattern of [...pats, "/a/b/**", "/a/**", "/ab/x", "/a-b/_x/*.ts"]) {
      const folders = leadingFolders(pattern);
      for (const runtime of [deepagentsJs, deepagentsPy]) {
        const compiled = runtime.compilePattern(pattern);
        if (compiled.unusable) continue;
        for (const path of [...ps, "/a/b", "/a", "/ab/x", "/a-b/_x/y.ts"]) {
          if (!compiled.matches(path)) continue;
          checked++;
          assert.ok(path.startsWith(folders), `${runtime.id}: ${pattern} matches ${path}, which does not start with ${folders}`);
        }
      }
    }
    assert.ok(checked > 200, `only ${checked} matches checked`);
    assert.equal(leadingFolders("/a/b/**"), "/a/b");
    assert.equal(leadingFolders("/**/x"), "");
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
