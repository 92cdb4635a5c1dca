import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";
import { deepagentsJs, deepagentsPy, type Runtime } from "../../server/src/engine/runtime";
import { neverMatchReason } from "../../server/src/engine/checks/pattern/patternNeverMatches";
import type { Finding } from "../../server/src/engine/diagnostics";

const CODE = "pattern-never-matches";

const rules = (paths: string, extra = "") => config(`${extra}"permissions": [
    { "operations": ["read", "write"], "paths": [${paths}], "mode": "deny" }
  ]`);

/** Every canonical tool path of `runtime` up to `depth` segments over `names` (plus the roots). */
function universe(runtime: Runtime, names: readonly string[], depth = 3): string[] {
  const out = new Set<string>(["/", "//"]);
  let level = [""];
  for (let d = 0; d < depth; d++) {
    level = level.flatMap((p) => names.map((n) => `${p}/${n}`));
    for (const p of level) out.add(p).add(`/${p}`);
  }
  return [...out].filter((p) => {
    const c = runtime.canonicalToolPath(p, true);
    return c.ok && c.path === p;
  });
}

const BASE_NAMES = ["a", "b", ".env", ".", "x.txt", ".git", "config"];
const wordsOf = (pattern: string) => pattern.split(/[^A-Za-z0-9._-]+/).filter((w) => w && w !== "..");

function matchedIn(runtime: Runtime, pattern: string, names: readonly string[] = [...BASE_NAMES, ...wordsOf(pattern)]): string[] {
  const compiled = runtime.compilePattern(pattern);
  return universe(runtime, [...new Set(names)]).filter((p) => compiled.matches(p));
}

function newErrors(before: string, after: string): string[] {
  const said = (f: Finding) => `${f.code}: ${f.message} ${f.detail ?? ""}`;
  const old = new Set(findings(before).filter((f) => f.severity === "error").map(said));
  return findings(after).filter((f) => f.severity === "error" && !old.has(said(f))).map(said);
}

test("fires in deepagents-js on a trailing slash, a `//`, and a trailing `/**/`", () => {
  const found = expectFindings(rules(`⟦"/workspace/"⟧, ⟦"/secrets//**"⟧, ⟦"/x/**/"⟧, ⟦"/**/"⟧, "/ok/**"`), CODE);
  assert.ok(found.every((f) => f.severity === "warning"));
  assert.equal(
    found[0]!.message,
    'The pattern "/workspace/" never matches in deepagents-js 1.14.1.',
  );
  assert.equal(
    found[0]!.detail,
    'In deepagents-js 1.14.1, its tool paths never end in "/" (a trailing slash is removed before matching), and this pattern only matches text that does. The rule decides nothing through "/workspace/".',
  );
  assert.equal(found[1]!.message, 'The pattern "/secrets//**" never matches in deepagents-js 1.14.1.');
  assert.match(found[1]!.detail!, /never contain "\/\/" \(repeated slashes are collapsed before matching\)/);
  assert.match(found[2]!.detail!, /a pattern ending in "\/\*\*\/" only matches text that does/);
});

test("fires in deepagents-py only where wcmatch cannot match either (a trailing slash after a name)", () => {
  const py = `"runtime": "deepagents-py",\n  `;
  const found = expectFindings(rules(`⟦"/workspace/"⟧, "/secrets//**", "/x/**/", "/**/", ⟦"/a/*/"⟧`, py), CODE);
  // Not "never": deepagents-py matches the argument `/workspace\` as `/workspace/` (§1.3), as explain shows.
  assert.equal(
    found[0]!.message,
    'The pattern "/workspace/" matches no ordinary tool path in deepagents-py 0.7.8.',
  );
  assert.equal(
    found[0]!.detail,
    'In deepagents-py 0.7.8, its tool paths end in "/" only for an argument ending in a backslash ("/a\\" is matched as "/a/"): for every other argument the trailing slash is removed before matching, and this pattern only matches text that ends in "/". The rule decides nothing through "/workspace/" except for such an argument.',
  );
  assert.deepEqual(deepagentsPy.canonicalToolPath("/workspace\\", true), { ok: true, path: "/workspace/" });
});

test("names the runtime in compatibleWith, and what the other runtime matches", () => {
  const found = expectFindings(rules(`⟦"/secrets//**"⟧`, `"runtime": "deepagents-py",\n  "compatibleWith": ["deepagents-js"],\n  `), CODE);
  assert.equal(found[0]!.message, 'The pattern "/secrets//**" never matches in deepagents-js 1.14.1 (in compatibleWith).');
  assert.match(found[0]!.detail!, /^In deepagents-js 1\.14\.1 \(in compatibleWith\), /);
  assert.match(found[0]!.detail!, /deepagents-py 0\.7\.8 does match it \(for example "\/secrets\/a"\)\.$/);
  const both = expectFindings(rules(`⟦"/workspace/"⟧`, `"compatibleWith": ["deepagents-py"],\n  `), CODE);
  assert.equal(both[0]!.message, 'The pattern "/workspace/" matches no ordinary tool path in deepagents-js 1.14.1 or deepagents-py 0.7.8 (in compatibleWith).');
  assert.match(both[0]!.detail!, /^In deepagents-js 1\.14\.1, its tool paths never end in "\/"/);
});

test("does not fire on live patterns, the root, or `//**` (which matches `/` in deepagents-js)", () => {
  expectNoFindings(rules(`"/workspace/**", "/", "//**", "/a/./b", "/data/{1..3}.txt", "/data/{a..c}.txt", "/data/{3..1}.txt"`), CODE);
  expectNoFindings(rules(`"/secrets//**", "/x/**/", "/**/", "/data/{1..10..2}.txt"`, `"runtime": "deepagents-py",\n  `), CODE);
  // Refused at construction: path-not-absolute says so, not this check.
  expectNoFindings(rules(`"workspace/"`), CODE);
});

test("every pattern it reports matches no canonical path, by the runtime's own matcher", () => {
  const cases: [Runtime, string[]][] = [
    [deepagentsJs, ["/workspace/", "/secrets//**", "/x/**/", "/**/", "/a//b/", "///**", "/a//*", "/{a,b}//x", "/a/{b,}/", "/a/*/", "/a/[bc]/", "/.env/", "/a/./"]],
    [deepagentsPy, ["/workspace/", "/a/*/", "/a/b*/", "/.env/", "/a/[bc]/", "/a//b/"]],
  ];
  for (const [runtime, patterns] of cases) {
    for (const pattern of patterns) {
      assert.ok(neverMatchReason(runtime, pattern), `${runtime.id} should report ${pattern}`);
      assert.deepEqual(matchedIn(runtime, pattern), [], `${runtime.id}: ${pattern}`);
    }
  }
});

test("fuzz: random patterns it reports match nothing in a universe of canonical paths", () => {
  let seed = 0x5eed;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const alphabet = ["/", "/", "/", "a", "b", "*", "**", "?", "{", "}", ",", "[", "]", "!", "(", ")", "|", "\\", ".", "@", "+", "x", "-", "1..3", "^"];
  for (const runtime of [deepagentsJs, deepagentsPy]) {
    let reported = 0;
    for (let n = 0; n < 3000; n++) {
      let pattern = "/";
      const length = 1 + Math.floor(random() * 6);
      for (let i = 0; i < length; i++) pattern += alphabet[Math.floor(random() * alphabet.length)];
      if (!neverMatchReason(runtime, pattern)) continue;
      reported++;
      const hit = matchedIn(runtime, pattern, ["a", "b", ".env", ".", "x", "ab", "1", "3", "-"].concat(wordsOf(pattern)));
      assert.deepEqual(hit, [], `${runtime.id} reports ${JSON.stringify(pattern)} but it matches`);
    }
    assert.ok(reported > 100, `${runtime.id}: only ${reported} random patterns reported`);
  }
});

test("fix: collapse `//`, turn a trailing slash into `/**`; the finding goes, no new error", () => {
  for (const [before, after] of [["/workspace/", "/workspace/**"], ["/secrets//**", "/secrets/**"], ["/x/**/", "/x/**"], ["/**/", "/**"], ["/a//b/", "/a/b/**"]] as const) {
    const text = rules(JSON.stringify(before));
    const [finding] = findings(text, CODE);
    assert.equal(finding!.fixes!.length, 1);
    assert.equal(finding!.fixes![0]!.title, `Change to ${JSON.stringify(after)}`);
    assert.equal(finding!.fixes![0]!.safe, false);
    const fixed = applyFix(text, finding!);
    assert.ok(fixed.includes(JSON.stringify(after)), fixed);
    expectNoFindings(fixed, CODE);
    assert.deepEqual(newErrors(text, fixed), []);
    assert.ok(matchedIn(deepagentsJs, after).length > 0);
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Brace ranges in deepagents-js (§2.2 item 8): what picomatch really matches
// ---------------------------------------------------------------------------------------------------------------

test("a stepped range: says exactly which paths it matches (verified against the matcher)", () => {
  const [finding] = expectFindings(rules(`⟦"/data/{1..10..2}.txt"⟧`), CODE);
  assert.equal(
    finding!.message,
    'deepagents-js 1.14.1 does not expand the brace range "{1..10..2}".',
  );
  assert.equal(
    finding!.detail,
    'deepagents-js 1.14.1 does not expand the brace range "{1..10..2}": picomatch turns it into the class "[1-10-2]", so the pattern matches only "/data/0.txt", "/data/1.txt" and "/data/2.txt" (and the path spelled exactly like the pattern, which micromatch compares as text first). It does not match "/data/3.txt". List the values instead: "/data/{1,3,5,7,9}.txt".',
  );
  assert.equal(finding!.witness, "/data/3.txt");
  const names = ["data", "-.txt", "{1..10..2}.txt", "a", ".env", ...Array.from({ length: 12 }, (_, i) => `${i}.txt`)];
  assert.deepEqual(
    matchedIn(deepagentsJs, "/data/{1..10..2}.txt", names).sort(),
    ["/data/0.txt", "/data/1.txt", "/data/2.txt", "/data/{1..10..2}.txt"],
  );
});

test("a zero-padded range: any two characters between the ends (verified against the matcher)", () => {
  const [finding] = expectFindings(rules(`⟦"/data/{01..03}.txt"⟧`), CODE);
  assert.equal(finding!.message, 'deepagents-js 1.14.1 does not expand the brace range "{01..03}".');
  assert.match(finding!.detail!, /^deepagents-js 1\.14\.1 does not expand the brace range "\{01\.\.03\}": picomatch turns it into the text "01", then any two characters \(even "\/", not a line break\), then the text "03"\. It does not match "\/data\/01\.txt"\./);
  const names = ["data", "01.txt", "02.txt", "03.txt", "01ab03.txt", "0103.txt", "01..03.txt", "01", "a03.txt", "{01..03}.txt"];
  const described = /^\/data\/01[^\n\r\u2028\u2029]{2}03\.txt$/;
  const universeOfNames = universe(deepagentsJs, names);
  const compiled = deepagentsJs.compilePattern("/data/{01..03}.txt");
  for (const path of universeOfNames) {
    assert.equal(compiled.matches(path), described.test(path) || path === "/data/{01..03}.txt", path);
  }
  assert.ok(compiled.matches("/data/01/a03.txt"));
});

test("a multi-digit range without a step is broken too; one-character ranges are not reported", () => {
  const [finding] = expectFindings(rules(`⟦"/d/{1..20}/**"⟧, "/e/{1..9}/**", "/f/{a..z}.md"`), CODE);
  assert.match(finding!.detail!, /the class "\[1-20\]": at that place the pattern matches only one character, "0", "1" or "2"\./);
  const compiled = deepagentsJs.compilePattern("/d/{1..20}/**");
  assert.ok(compiled.matches("/d/0/x") && compiled.matches("/d/2/x") && !compiled.matches("/d/3/x") && !compiled.matches("/d/20/x"));
  expectNoFindings(rules(`"/data/{1..10..2}.txt"`, `"runtime": "deepagents-py",\n  `), CODE);
});

test("a range of more than 1,000 values is reported too, with a witness and no fix", () => {
  // It used to be left out, so `/data/{1..5000}.csv` got no finding in deepagents-js at all.
  const [finding] = expectFindings(rules(`⟦"/data/{1..5000}.csv"⟧`), CODE);
  assert.match(finding!.detail!, /picomatch turns it into the class "\[1-5000\]", so the pattern matches only "\/data\/0\.csv", "\/data\/1\.csv"/);
  const compiled = deepagentsJs.compilePattern("/data/{1..5000}.csv");
  assert.ok(compiled.matches("/data/3.csv") && !compiled.matches("/data/100.csv"));
  assert.ok(finding!.witness !== undefined && !compiled.matches(finding!.witness));
  assert.deepEqual(finding!.fixes, []);
  // A range of millions costs no more.
  const [huge] = expectFindings(rules(`⟦"/data/{1..99999999}.csv"⟧`), CODE);
  assert.match(huge!.detail!, /\[1-99999999\]/);
});

test("fix: write the range out; deepagents-js then matches every value, and the finding goes", () => {
  const text = rules(`"/data/{1..10..2}.txt"`);
  const [finding] = findings(text, CODE);
  assert.equal(finding!.fixes![0]!.title, 'Write the range out: "/data/{1,3,5,7,9}.txt"');
  const fixed = applyFix(text, finding!);
  expectNoFindings(fixed, CODE);
  assert.deepEqual(newErrors(text, fixed), []);
  const compiled = deepagentsJs.compilePattern("/data/{1,3,5,7,9}.txt");
  for (const v of ["1", "3", "5", "7", "9"]) assert.ok(compiled.matches(`/data/${v}.txt`));
  assert.ok(deepagentsPy.compilePattern("/data/{1,3,5,7,9}.txt").matches("/data/9.txt"));
  const padded = rules(`"/data/{01..03}.txt"`);
  assert.match(applyFix(padded, findings(padded, CODE)[0]!), /"\/data\/\{01,02,03\}\.txt"/);
});

test("silenced by an ignore comment on the line above", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["read"], "mode": "deny", "paths": [
    // agent-sandbox-ignore pattern-never-matches
    "/workspace/"
  ] }]`), CODE);
});

test("no fix when the repaired pattern is as dead: `/a/\\/` would become `/a/\\/**`, whose escaped slash picomatch reads as a second `/`", () => {
  const [finding] = findings(rules(`"/a/\\\\/"`), CODE);
  assert.ok(finding);
  assert.deepEqual(finding.fixes, []);
  assert.equal(deepagentsJs.compilePattern("/a/\\/**").matches("/a/x"), false);
  // A repair that does match keeps its fix.
  assert.equal(findings(rules(`"/d/"`), CODE)[0]!.fixes![0]!.title, 'Change to "/d/**"');
});
