/**
 * `CompiledRuleList.decide` against the definition: walk the rules in order and ask each pattern's own matcher
 * (`runtime.compilePattern(p).matches`), on thousands of generated rule lists and paths, both runtimes, both tiers
 * (the folder index, and the automata that take over once a list has been asked often). Same decision, same rule,
 * same pattern, same failure, on every input.
 *
 * The patterns mix what people write (bench/generate.ts) with the shapes where glob matchers differ: braces
 * (nested, empty alternatives, ranges), classes (`[!a]`, `[^a]`, posix), extglob, escapes, `**` inside a segment,
 * `//`, trailing slashes, dotfiles, non-ASCII text, regex metacharacters. The paths come from the same small
 * vocabulary, so matches are common, plus the strings a tool path can hold that are not plain (`/a/./b`, `//a`,
 * `/a/`, `/`, line terminators).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { generateInputs, generateRules } from "../../bench/generate";
import { CompiledRuleList, type PermissionRuleInput, type RuleDecision } from "../../server/src/engine/permissions/ruleList";
import { deepagentsJs, deepagentsPy } from "../../server/src/engine/runtime";
import { leadingFolderAlternatives } from "../../server/src/engine/runtime/globText";
import { isPlainPath, type CompiledPattern, type Operation, type Runtime } from "../../server/src/engine/runtime/runtime";
import { makeRng, type Rng } from "../helpers/random";

const OPS: Operation[] = ["read", "write"];

/** The definition, one rule and one pattern at a time (no index, no automaton). */
function naiveDecide(runtime: Runtime, compile: (p: string) => CompiledPattern, rules: readonly PermissionRuleInput[], op: Operation, path: string) {
  for (let ruleIndex = 0; ruleIndex < rules.length; ruleIndex++) {
    const rule = rules[ruleIndex]!;
    const failure = runtime.ruleCallFailure(rule, op);
    if (failure) return { decision: "allow", ruleIndex, patternIndex: -1, failure };
    if (!runtime.operationsCover(rule.operations, op) || !Array.isArray(rule.paths)) continue;
    for (let patternIndex = 0; patternIndex < rule.paths.length; patternIndex++) {
      const p = rule.paths[patternIndex];
      if (typeof p !== "string" || p.length === 0) continue;
      const c = compile(p);
      if (c.unusable) return { decision: "allow", ruleIndex, patternIndex, failure: c.unusable };
      if (!c.matches(path)) continue;
      const decision = rule.mode === "deny" ? "deny" : rule.mode === "interrupt" && runtime.modes.includes("interrupt") ? "interrupt" : "allow";
      return { decision, ruleIndex, patternIndex, failure: undefined };
    }
  }
  return { decision: "allow", ruleIndex: -1, patternIndex: -1, failure: undefined };
}

const NAMES = ["a", "b", "ab", "src", "docs", ".env", ".git", "x.pem", "y.key", "id_rsa", "id_rsa.pub", "a.txt", "1.csv", "é", "a b", "{a,b}", "+(a|b)", "(b)", "$b", "a.b.c", "..."];
const NASTY_SEGMENTS = [".", "..", "", "a\nb", "a\u2028", "ü.pem", "*", "[a]", "!a"];

function pathOf(r: Rng): string {
  const depth = r.int(5);
  const segments: string[] = [];
  for (let i = 0; i < depth; i++) segments.push(r.chance(0.06) ? r.pick(NASTY_SEGMENTS) : r.pick(NAMES));
  let path = `/${segments.join("/")}`;
  if (r.chance(0.04)) path = `/${path}`;
  if (r.chance(0.04)) path += "/";
  if (r.chance(0.01)) path = r.pick(["", "a/b", ".", "/"]);
  return path;
}

/** One glob segment, from plain names to every operator either library knows. */
function segmentGlob(r: Rng): string {
  return r.weighted<() => string>([
    [8, () => r.pick(NAMES)],
    [5, () => "**"],
    [4, () => "*"],
    [3, () => `*.${r.pick(["pem", "key", "txt", "csv", "{pem,key}", "{txt,b,c}"])}`],
    [2, () => `${r.pick(["id_rsa", "a", ".env"])}*`],
    [2, () => `{${r.pick(NAMES)},${r.pick(NAMES)}}`],
    [1, () => r.pick(["{,x}a", "{a,{b,ab}}", "{1..3}.csv", "{a..c}", "{1..10..2}", "{01..03}", "{a,b", "a}"])],
    [1, () => r.pick(["?", "??", "a?", "?.env", ".?nv"])],
    [1, () => r.pick(["[0-9]*.csv", "[ab]", "[!a]", "[^a]", "[a-c]*", "[[:alpha:]]", "[.]env", "[abc", "b.[tT][xX][tT]"])],
    [1, () => r.pick(["+(a|b)", "@(a|b)", "!(a)", "*(a).txt", "?(b)", "(a|b)", "a@b", "b+c", "#b", "b^c", "$b"])],
    [1, () => r.pick(["\\*.txt", "\\{a,b\\}", "a**", "**.env", "x**y", "a b", "é", "ü*"])],
  ])();
}

function nastyPattern(r: Rng): string {
  const n = 1 + r.int(4);
  const segments: string[] = [];
  for (let i = 0; i < n; i++) segments.push(segmentGlob(r));
  let p = `/${segments.join("/")}`;
  if (r.chance(0.05)) p = p.replace("/", "//");
  if (r.chance(0.05)) p += "/";
  if (r.chance(0.03)) p = r.pick(["/**", "/*", "/", "**/*.pem", "!/a/**", "/{,**/}.env", "/a{,/**}", "/**/", "/a/**/"]);
  return p;
}

function nastyRules(r: Rng): PermissionRuleInput[] {
  const count = 1 + r.int(8);
  const rules: PermissionRuleInput[] = [];
  for (let i = 0; i < count; i++) {
    const paths: unknown[] = [];
    const k = 1 + r.int(3);
    for (let j = 0; j < k; j++) paths.push(nastyPattern(r));
    if (r.chance(0.02)) paths.push(r.pick<unknown>(["", 5, null]));
    const operations = r.weighted<unknown>([
      [10, ["read"]],
      [10, ["write"]],
      [15, ["read", "write"]],
      [1, "read"],
      [1, "readwrite"],
      [1, null],
      [1, 7],
    ]);
    const mode = r.pick<unknown>(["deny", "deny", "allow", undefined, "interrupt", "block"]);
    rules.push(mode === undefined ? { operations, paths } : { operations, paths, mode });
  }
  if (r.chance(0.02)) rules.push({ operations: ["read", "write"], paths: "/x/**" });
  return rules;
}

function compareAll(runtime: Runtime, rules: PermissionRuleInput[], paths: readonly string[], label: string): number {
  const cache = new Map<string, CompiledPattern>();
  const compile = (p: string) => {
    let c = cache.get(p);
    if (!c) cache.set(p, (c = runtime.compilePattern(p)));
    return c;
  };
  const lists = [
    new CompiledRuleList(runtime, rules, { noAutomaton: true }),
    new CompiledRuleList(runtime, rules, { automatonAfter: 0 }),
    new CompiledRuleList(withFolderPrefixes(runtime), rules, { noAutomaton: true }),
  ];
  const TIERS = ["index", "automata", "folder prefixes"];
  let matched = 0;
  for (const path of paths) {
    for (const op of OPS) {
      const want = naiveDecide(runtime, compile, rules, op, path);
      if (want.ruleIndex >= 0) matched++;
      for (const [k, list] of lists.entries()) {
        // The folder prefixes hold for paths with single slashes (wcmatch reads `/` as `[/]+`): dotfiles-unprotected
        // asks its lists about plain paths only.
        if (k === 2 && !isPlainPath(path)) continue;
        // Twice: the first call may build automaton states, the second reads them.
        for (let again = 0; again < 2; again++) {
          const got: RuleDecision = list.decide(op, path);
          const summary = { decision: got.decision, ruleIndex: got.ruleIndex, patternIndex: got.patternIndex, failure: got.failure };
          if (JSON.stringify(summary) !== JSON.stringify(want)) {
            assert.deepEqual(summary, want, `${label} (${TIERS[k]}): ${op} ${JSON.stringify(path)} with ${JSON.stringify(rules)}`);
          }
        }
      }
    }
  }
  return matched;
}

/**
 * The runtime with each pattern filed under its leading folders, brace alternatives read (globText.ts
 * `leadingFolderAlternatives`), as dotfiles-unprotected compiles its lists: the index must still find every rule.
 */
function withFolderPrefixes(runtime: Runtime): Runtime {
  return {
    ...runtime,
    compilePattern(pattern) {
      const compiled = runtime.compilePattern(pattern);
      if (compiled.unusable) return compiled;
      return { pattern, literalPrefix: compiled.literalPrefix, literalPrefixes: leadingFolderAlternatives(pattern), matches: (path) => compiled.matches(path) };
    },
  };
}

describe("CompiledRuleList agrees with the rule-by-rule definition", () => {
  for (const runtime of [deepagentsJs, deepagentsPy]) {
    test(`${runtime.id}: generated lists of unusual patterns × paths`, () => {
      const r = makeRng(runtime.id === "deepagents-js" ? 20261202 : 20261203);
      const lists = runtime.id === "deepagents-js" ? 3000 : 600;
      let decided = 0;
      let total = 0;
      for (let n = 0; n < lists; n++) {
        const rules = nastyRules(r);
        const paths: string[] = [];
        for (let i = 0; i < 30; i++) paths.push(pathOf(r));
        // Every pattern text as a path too (picomatch's string-equality test), and its neighbours.
        for (const rule of rules) if (Array.isArray(rule.paths)) for (const p of rule.paths) if (typeof p === "string") paths.push(p, `${p}/a`, p.replace(/\/[^/]*$/, "") || "/");
        decided += compareAll(runtime, rules, paths, `list ${n}`);
        total += paths.length * 2;
      }
      // The generator must produce matches, or the comparison says little.
      assert.ok(decided > total / 20, `only ${decided} of ${total} inputs were decided by a rule`);
    });

    test(`${runtime.id}: the benchmark's rule lists × inputs (and canonical paths outside them)`, () => {
      const inputs = generateInputs(1000, 7).map((i) => i.path);
      for (const size of [10, 100, 300]) {
        for (const seed of [1, 2, 3]) compareAll(runtime, generateRules(size, seed), inputs.slice(0, size === 300 ? 300 : 1000), `bench ${size}/${seed}`);
      }
    });
  }

  test("a pattern written again later in the list is decided by its first copy (the index asks only that one)", () => {
    // Copies under other modes and operations, an unusable copy (Python: too many brace expansions) and a rule
    // whose call fails, between them: the first to match is still the first in rule order.
    const unusable = `/u/${"{a,b}".repeat(11)}`;
    const rules: PermissionRuleInput[] = [
      { operations: ["write"], paths: ["/**/.env"], mode: "deny" },
      { operations: ["read"], paths: ["/w/**", "/**/*.pem"], mode: "allow" },
      { operations: ["read", "write"], paths: ["/**/.env", unusable], mode: "deny" },
      { operations: ["read"], paths: ["/w/**", "/w/*.pem"], mode: "deny" },
      { operations: ["read"], paths: [unusable, "/**/*.pem"], mode: "interrupt" },
      { operations: null, paths: ["/x"], mode: "deny" },
      { operations: ["read", "write"], paths: ["/**/*.pem", "/**/.env"], mode: "deny" },
    ];
    const paths = ["/w/.env", "/w/a.pem", "/.env", "/a/.env", "/u/aaaaaaaaaaa", "/x", "/v/.env", "/a/b.pem", "//w/a.pem", "/w/", "/"];
    for (const runtime of [deepagentsJs, deepagentsPy]) {
      for (const cut of [2, 3, 4, 5, 7]) assert.ok(compareAll(runtime, rules.slice(0, cut), paths, `${runtime.id} first ${cut}`) > 0);
      // Without the failing rule, the copies after it are reached.
      assert.ok(compareAll(runtime, rules.filter((r) => r.operations !== null), paths, `${runtime.id} all usable`) > 0);
    }
  });

  test("the index asks a pattern only about plain paths that end with a character its matches can end with", () => {
    // `/**/*.pem` is a candidate for every path (no literal prefix): the last character spares most of the asking.
    const rules: PermissionRuleInput[] = [
      { operations: ["read"], paths: ["/**/*.pem", "/**/*.key", "/**/*.{p12,crt}"], mode: "deny" },
      { operations: ["read"], paths: ["/**/.env"], mode: "deny" },
    ];
    for (const runtime of [deepagentsJs, deepagentsPy]) {
      const asked: string[] = [];
      const counting: Runtime = {
        ...runtime,
        compilePattern(pattern) {
          const compiled = runtime.compilePattern(pattern);
          return { pattern, literalPrefix: compiled.literalPrefix, unusable: compiled.unusable, matches: (path) => (asked.push(pattern), compiled.matches(path)) };
        },
      };
      const list = new CompiledRuleList(counting, rules, { noAutomaton: true });
      assert.equal(list.decide("read", "/w/.env").ruleIndex, 1);
      assert.deepEqual(asked, ["/**/.env"], `${runtime.id}: only the pattern that can end with "v" is asked`);
      asked.length = 0;
      assert.equal(list.decide("read", "/w/a.crt").ruleIndex, 0);
      assert.deepEqual(asked, ["/**/*.{p12,crt}"], `${runtime.id}: a brace's names' last characters`);
      // Not a plain path (a trailing slash): every candidate is asked.
      asked.length = 0;
      assert.equal(list.decide("read", "/w/b/").ruleIndex, -1);
      assert.equal(asked.length, 4, `${runtime.id}: ${asked.join(" ")}`);
    }
  });

  test("deepagents-js: the automata cover the common shapes (the tier under test is really used)", () => {
    for (const p of ["/a/**", "/**/*.pem", "/**/.env", "/a/**/*.{pem,key}", "/a/{b,c}/**", "/a/*/dist", "/a/[0-9]*.csv", "/a/?.md", "/a/b", "/**/id_rsa*"]) {
      assert.ok(deepagentsJs.compilePattern(p).plainPathRegex, p);
    }
    for (const p of ["/a/+(b|c)", "/a/[!a]x", "/a/é", "/a/[^a]"]) {
      const re = deepagentsJs.compilePattern(p).plainPathRegex;
      // Either not restated, or restated and then checked by the generated lists above.
      assert.ok(re === undefined || re.kind !== undefined, p);
    }
  });

  test("deepagents-py: the automata cover the common shapes (the tier under test is really used)", () => {
    for (const p of ["/a/**", "/**/*.pem", "/**/.env", "/a/**/*.{pem,key}", "/a/{b,c}/**", "/a/*/dist", "/a/[0-9]*.csv", "/a/b", "/**/id_rsa*", "/*.txt"]) {
      assert.ok(deepagentsPy.compilePattern(p).plainPathRegex, p);
    }
    // The benchmark's lists: most of their patterns join the automata (a private field, read only here).
    const list = new CompiledRuleList(deepagentsPy, generateRules(100, 1), { automatonAfter: 0 });
    list.decide("read", "/a/b");
    const table = (list as unknown as { read: { entries: unknown[]; others: unknown[] } }).read;
    assert.ok(table.others.length < table.entries.length / 4, `${table.others.length} of ${table.entries.length} patterns left to the matcher`);
  });

  test("a list whose automaton would need too many states falls back and stays exact", () => {
    // `*a` then 14 `?` then `/**`: left to right, the automaton must remember where each of the last 15
    // characters had an `a`, about 2^15 states, past the budget; every answer must still be the definition's.
    const rules: PermissionRuleInput[] = [
      { operations: ["read"], paths: ["/**/*a??????????????/**"], mode: "deny" },
      { operations: ["read"], paths: ["/x/**"], mode: "allow" },
    ];
    const compile = (p: string) => deepagentsJs.compilePattern(p);
    const list = new CompiledRuleList(deepagentsJs, rules, { automatonAfter: 0 });
    const r = makeRng(7);
    let denied = 0;
    for (let i = 0; i < 3000; i++) {
      let name = "";
      for (let k = 0; k < 40; k++) name += r.chance(0.5) ? "a" : "b";
      const path = r.chance(0.2) ? `/x/${name}/y` : `/${name}/y`;
      const want = naiveDecide(deepagentsJs, compile, rules, "read", path);
      const got = list.decide("read", path);
      assert.deepEqual([got.decision, got.ruleIndex, got.patternIndex], [want.decision, want.ruleIndex, want.patternIndex], path);
      if (got.decision === "deny") denied++;
    }
    assert.ok(denied > 100 && denied < 3000, `${denied} denials: the generator must produce both answers`);
    // The budget was really reached (a private field, read only here: otherwise this test would prove nothing).
    assert.ok((list as unknown as { read: { rebuilds: number } }).read.rebuilds >= 1, "the automaton never ran out of states");
  });

  test("a list asked many times switches to the automata and keeps answering the same", () => {
    const rules = generateRules(50, 9);
    const inputs = generateInputs(400, 11);
    const slow = new CompiledRuleList(deepagentsJs, rules, { noAutomaton: true });
    const fast = new CompiledRuleList(deepagentsJs, rules);
    for (let round = 0; round < 3; round++) {
      for (const { op, path } of inputs) assert.deepEqual(fast.decide(op, path), slow.decide(op, path), `${op} ${path}`);
    }
  });
});
