import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parseTree, type Node, type ParseError, type ParseOptions } from "jsonc-parser";
import { NestingTooDeep, parseJsoncTree } from "../../server/src/engine/config/jsoncTree";
import { MAX_NESTING, parseJsonc } from "../../server/src/engine/config/parse";
import { firstTooDeepOffset } from "../helpers/nesting";
import { makeRng, envInt, type Rng } from "../helpers/random";
import { generateConfigText } from "../../bench/generate";

/**
 * parseJsoncTree must give exactly what jsonc-parser's parseTree gives (parse.ts relies on it: every range, value
 * and syntax message comes from this tree). Differential: the repository's JSON/JSONC files, the spec's examples,
 * the benchmark's configs, and generated JSONC that is then broken in the ways people and editors break it.
 */

const ROOT = join(__dirname, "..", "..");
const OPTIONS: ParseOptions = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };
/** Every combination of parseTree's options, for the inputs also checked outside parse.ts's own setting. */
const ALL_OPTIONS: ParseOptions[] = [];
for (const allowTrailingComma of [false, true])
  for (const disallowComments of [false, true])
    for (const allowEmptyContent of [false, true]) ALL_OPTIONS.push({ allowTrailingComma, disallowComments, allowEmptyContent });

/** The first difference between parseTree's tree and ours (keys, values, children, parent links), or undefined. */
function treeDifference(expected: Node | undefined, actual: Node | undefined): string | undefined {
  if (expected === undefined || actual === undefined) {
    return expected === actual ? undefined : `root: expected ${expected === undefined ? "none" : expected.type}, got ${actual === undefined ? "none" : actual.type}`;
  }
  const twin = new Map<Node, Node>(); // parseTree's node → ours, for the parent links
  const stack: [Node, Node, string][] = [[expected, actual, "root"]];
  while (stack.length > 0) {
    const [e, a, path] = stack.pop()!;
    twin.set(e, a);
    const eKeys = Object.keys(e).sort();
    const aKeys = Object.keys(a).sort();
    if (eKeys.join() !== aKeys.join()) return `${path}: keys ${aKeys.join()} instead of ${eKeys.join()}`;
    for (const key of eKeys) {
      if (key === "parent" || key === "children") continue;
      const ev = (e as unknown as Record<string, unknown>)[key];
      const av = (a as unknown as Record<string, unknown>)[key];
      if (!Object.is(ev, av)) return `${path}.${key}: ${String(av)} instead of ${String(ev)}`;
    }
    if ("parent" in e) {
      if (e.parent === undefined ? a.parent !== undefined : twin.get(e.parent) !== a.parent) return `${path}: parent link differs`;
    }
    if (e.children || a.children) {
      if (!e.children || !a.children) return `${path}: children ${a.children ? "present" : "missing"}`;
      if (e.children.length !== a.children.length) return `${path}: ${a.children.length} children instead of ${e.children.length}`;
      for (let i = e.children.length - 1; i >= 0; i--) stack.push([e.children[i]!, a.children[i]!, `${path}/${i}:${e.children[i]!.type}`]);
    }
  }
  return undefined;
}

/** Compares the two parsers on one input; the message holds the input so a failure can be replayed. */
function assertSame(text: string, options: ParseOptions = OPTIONS, origin = ""): void {
  const expectedErrors: ParseError[] = [];
  const expected = parseTree(text, expectedErrors, options);
  const actualErrors: ParseError[] = [];
  const actual = parseJsoncTree(text, actualErrors, options);
  const where = `${origin ? `${origin}\n` : ""}input: ${JSON.stringify(text)}\noptions: ${JSON.stringify(options)}`;
  assert.deepStrictEqual(actualErrors, expectedErrors, `errors differ\n${where}`);
  const difference = treeDifference(expected, actual);
  if (difference) assert.fail(`trees differ: ${difference}\n${where}`);
}

function filesUnder(dir: string, found: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === ".git") continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, found);
    else if (/\.jsonc?$/.test(name)) found.push(path);
  }
  return found;
}

// --- generated JSONC ---

const KEYS = ["version", "permissions", "paths", "mode", "a", "", "é", "with space", 'q"uote', "back\\slash", "\u{1F600}", "line\nbreak"];
const WORDS = ["/workspace/**", "read", "deny", "", "x", "\u00e9t\u00e9", "tab\there", "\u2028", "\u{1F600}", "\\u0041 literal", "/"];
const NUMBERS = ["0", "1", "-1", "12.5", "-0", "1e3", "1E-7", "2.5e+10", "123456789012345678901234567890", "0.000001"];

/** Trivia between tokens: nothing, spaces, tabs, each kind of line break, and both kinds of comment. */
function trivia(r: Rng): string {
  return r.weighted<() => string>([
    [4, () => ""],
    [4, () => " "],
    [2, () => "\n  "],
    [1, () => "\r\n\t"],
    [1, () => "\r"],
    [1, () => " // note, with } and ] and \"\n"],
    [1, () => "/* block { [ \" */"],
    [1, () => "/* multi\r\n line */\n"],
  ])();
}

/** A JSON string literal of `s`, sometimes with escapes JSON.stringify would not write. */
function stringLiteral(r: Rng, s: string): string {
  const quoted = JSON.stringify(s);
  if (!r.chance(0.2)) return quoted;
  return quoted.replace(/[a-z/]/, (c) => r.pick([`\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`, c === "/" ? "\\/" : c, `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`]));
}

function value(r: Rng, depth: number): string {
  const kind = depth > 4 ? r.int(4) : r.int(6);
  switch (kind) {
    case 0:
      return stringLiteral(r, r.pick(WORDS));
    case 1:
      return r.pick(NUMBERS);
    case 2:
      return r.pick(["true", "false", "null"]);
    case 3:
      return stringLiteral(r, r.pick(KEYS));
    case 4: {
      const n = r.int(4);
      const members: string[] = [];
      for (let i = 0; i < n; i++) members.push(`${trivia(r)}${stringLiteral(r, r.pick(KEYS))}${trivia(r)}:${trivia(r)}${value(r, depth + 1)}${trivia(r)}`);
      return `{${members.join(",")}${n > 0 && r.chance(0.3) ? "," : ""}${trivia(r)}}`;
    }
    default: {
      const n = r.int(4);
      const items: string[] = [];
      for (let i = 0; i < n; i++) items.push(`${trivia(r)}${value(r, depth + 1)}${trivia(r)}`);
      return `[${items.join(",")}${n > 0 && r.chance(0.3) ? "," : ""}${trivia(r)}]`;
    }
  }
}

/** What gets typed, pasted or lost in the middle of a config: structure, broken tokens, odd characters. */
const GARBAGE = [
  "{", "}", "[", "]", ":", ",", '"', "\\", "/", "*", "/*", "*/", "//", "\n", "\r", "\t", " ", "'",
  "-", "1e", "1e+", "01", ".5", "1.", "-x", "+1", "0x1F", "NaN", "Infinity", "-0", "1E-5", "-.", "--1",
  "tru", "nul", "falsey", "true", "null", "abc", "undefined",
  '"\\q"', '"\\u12"', '"\\uZZZZ"', '"\\u00e9"', "\\u", "\\", '"\u0001"', "\u0001", "\u0000",
  "\u00e9", "\ud800", "\udc00", "\u{1F600}", "\u2028", "\u00a0", "\ufeff", "\f", "\v",
  '"a":', '"k": 1', ",,", "::", "{}", "[]", "[,]", "{,}", '{"a"}', '{"a":}', "[1 2]",
];

function mutate(r: Rng, text: string): string {
  let s = text;
  for (let n = 1 + r.int(4); n > 0; n--) {
    const at = r.int(s.length + 1);
    s = r.weighted<() => string>([
      [5, () => s.slice(0, at) + r.pick(GARBAGE) + s.slice(at)],
      [3, () => s.slice(0, at) + s.slice(Math.min(s.length, at + 1 + r.int(6)))],
      [2, () => s.slice(0, at)],
      [1, () => s.slice(0, at) + r.pick(GARBAGE) + s.slice(Math.min(s.length, at + 1))],
      [1, () => s.slice(0, at) + s.slice(r.int(s.length + 1))],
    ])();
  }
  return s;
}

// --- the tests ---

test("every JSON and JSONC file in examples/, test/ and schemas/ (and the e2e fixtures)", () => {
  const files = ["examples", "test", "schemas", "e2e"].flatMap((dir) => filesUnder(join(ROOT, dir)));
  assert.ok(files.length >= 3, `found only ${files.length} files`);
  for (const file of files) assertSame(readFileSync(file, "utf8"), OPTIONS, relative(ROOT, file));
});

test("every JSON/JSONC example in the spec and the test vectors, and the benchmark's configs", () => {
  const sources = [
    ...["/work/shared/spec", join(ROOT, "test", "vectors")].flatMap((dir) => {
      try {
        return readdirSync(dir).filter((f) => f.endsWith(".md")).map((f) => join(dir, f));
      } catch {
        return []; // the shared spec is not part of every checkout
      }
    }),
  ];
  let blocks = 0;
  for (const file of sources) {
    for (const match of readFileSync(file, "utf8").matchAll(/```jsonc?\n([\s\S]*?)```/g)) {
      assertSame(match[1]!, OPTIONS, file);
      blocks++;
    }
  }
  assert.ok(blocks > 0 || sources.length === 0, "no JSON blocks found in the spec");
  for (const rules of [10, 100, 1000]) assertSame(generateConfigText(rules, 1000 + rules, "file:///schema.json"), OPTIONS, `bench ${rules}`);
});

test("hand-picked recovery cases, also against fixed expectations", () => {
  // An unclosed block comment at the very end moves the scanner one past the text: the end-of-file token, and so
  // the open object, reach past it.
  const errors: ParseError[] = [];
  const root = parseJsoncTree('{"a" /*', errors, OPTIONS)!;
  assert.deepEqual(errors.map((e) => [e.error, e.offset, e.length]), [
    [11, 5, 3], // UnexpectedEndOfComment: the comment's token ends at 8, the text at 7
    [5, 7, 1], // ColonExpected, at the end-of-file token (7 to 8)
    [7, 7, 1], // CloseBraceExpected
  ]);
  assert.equal(root.length, 8);
  assert.equal(root.children![0]!.length, 7); // the property without colon runs to the object's end
  assert.equal(root.children![0]!.colonOffset, undefined);
  for (const text of ['{"a" /*', "/*", "", " ", "//", "x", "[", "{", '{"a":', '{"a" "b": 1}', "[1 2,,]", "{,}", "[,]", "1 2", '"\\', "-", "1e", "01"]) {
    for (const options of ALL_OPTIONS) assertSame(text, options);
  }
});

test("generated JSONC, then broken: insertions, deletions, truncations (seeded)", () => {
  const seed = envInt("JSONC_TREE_SEED", 20261203);
  const cases = envInt("JSONC_TREE_CASES", 20000);
  const r = makeRng(seed);
  let broken = 0;
  for (let i = 0; i < cases; i++) {
    const clean = `${trivia(r)}${value(r, 0)}${trivia(r)}`;
    const text = i % 10 === 0 ? clean : mutate(r, clean);
    const errors: ParseError[] = [];
    parseTree(text, errors, OPTIONS);
    if (errors.length > 0) broken++;
    assertSame(text, OPTIONS, `case ${i} of seed ${seed}`);
    if (i % 4 === 0) assertSame(text, r.pick(ALL_OPTIONS), `case ${i} of seed ${seed}`);
  }
  // The generator must actually reach the recovery paths, not only valid input.
  assert.ok(broken > cases / 2, `only ${broken} of ${cases} inputs had syntax errors`);
});

test("every prefix of generated configs (truncation at every kind of position)", () => {
  const r = makeRng(77);
  let prefixes = 0;
  for (let i = 0; i < 40; i++) {
    const text = `{${trivia(r)}"k":${value(r, 0)},${trivia(r)}"list": [${value(r, 1)}, ${value(r, 1)},]}`;
    for (let end = 0; end <= text.length; end++) {
      assertSame(text.slice(0, end), OPTIONS, `prefix ${end} of case ${i}`);
      prefixes++;
    }
  }
  assert.ok(prefixes > 1000, `only ${prefixes} prefixes`);
});

test("nesting: identical up to maxDepth, NestingTooDeep past it, never a stack overflow", () => {
  const nested = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
  assertSame(nested(MAX_NESTING)); // parse.ts's limit, within parseTree's stack
  assert.ok(parseJsoncTree(nested(MAX_NESTING), [], OPTIONS, MAX_NESTING));
  assert.throws(() => parseJsoncTree(nested(MAX_NESTING + 1), [], OPTIONS, MAX_NESTING), (e) => e instanceof NestingTooDeep && e.offset === MAX_NESTING);
  // Error recovery nests without brackets nesting: each `}` is skipped inside the open array, and after the `,` the
  // next `[` opens an array inside it. parseTree overflows the stack here; the bracket pre-check sees depth 1.
  const recovery = "[},".repeat(200_000);
  assert.throws(() => parseTree(recovery, [], OPTIONS), RangeError);
  assert.throws(() => parseJsoncTree(recovery, [], OPTIONS), (e) => e instanceof NestingTooDeep && e.offset === 3 * 1000);
  assert.throws(() => parseJsoncTree(recovery, [], OPTIONS, MAX_NESTING), (e) => e instanceof NestingTooDeep && e.offset === 3 * MAX_NESTING);
  const parsed = parseJsonc(recovery);
  assert.equal(parsed.root, undefined);
  assert.deepEqual(
    parsed.findings.map((f) => [f.message, f.detail, f.span.start]),
    [[`Nesting deeper than ${MAX_NESTING} levels: the file was not analysed further.`, "No configuration is this deep.", 3 * MAX_NESTING]],
  );
});

/**
 * What parseJsonc answered before the parser counted brackets itself: the bracket pre-check over the whole text
 * first, then (new with the depth guard) the first object or array parseTree's tree holds deeper than MAX_NESTING.
 */
function referenceNestingOffset(text: string): number {
  const brackets = firstTooDeepOffset(text);
  if (brackets >= 0) return brackets;
  const root = parseTree(text, [], OPTIONS); // these inputs stay far below the depth where parseTree overflows
  let found = -1;
  const walk = (node: Node, depth: number): void => {
    const container = node.type === "object" || node.type === "array";
    if (container && depth + 1 > MAX_NESTING) {
      if (found < 0) found = node.offset;
      return;
    }
    for (const child of node.children ?? []) {
      walk(child, depth + (container ? 1 : 0));
      if (found >= 0) return;
    }
  };
  if (root) walk(root, 0);
  return found;
}

test("deep and unbalanced nesting: parseJsonc reports the same place as the bracket pre-check (seeded)", () => {
  const r = makeRng(129);
  // Brackets dense enough to pass 128 levels, in every place the count must see or ignore them.
  const pieces = ["[", "[", "[", "{", "{", "]", "}", ",", '"k":', '"k"', "1", '"[{"', "/* [[{ */", "// [[[\n", '"\\"', '"unclosed [[\n', "x", ":", "]]]", "[[[[", "[},"];
  let tooDeep = 0;
  let recovered = 0;
  for (let i = 0; i < 3000; i++) {
    const parts: string[] = [];
    const n = 100 + r.int(700);
    const bias = r.next(); // some inputs mostly open, some mostly recover
    if (r.chance(0.3)) {
      // Recovery nesting: each `[},` opens one more array in the parser, while the brackets stay near depth 1.
      for (let j = 0; j < n / 3; j++) parts.push(r.chance(0.9) ? "[}," : r.pick(["1,", '"s",', "/* [ */", '"[",', '{"a":1},', "[1],", "]"]));
      // Brackets too deep after the place where the parser is: they are the answer.
      if (r.chance(0.3)) parts.push("[".repeat(MAX_NESTING + r.int(5)));
    } else {
      for (let j = 0; j < n; j++) parts.push(r.chance(bias * 0.5) ? r.pick(["[", "{", "[},"]) : r.pick(pieces));
    }
    let text = parts.join(r.chance(0.5) ? "" : " ");
    if (r.chance(0.2)) text = `{} ${text}`; // after the top-level value: only the count reads this
    if (r.chance(0.1)) text = `] ${text}`; // no value at all: likewise
    const expected = referenceNestingOffset(text);
    const parsed = parseJsonc(text);
    const where = `case ${i}: ${JSON.stringify(text)}`;
    if (expected >= 0) {
      tooDeep++;
      if (firstTooDeepOffset(text) < 0) recovered++;
      assert.equal(parsed.root, undefined, where);
      assert.deepEqual(parsed.findings.map((f) => [f.message.startsWith("Nesting deeper than"), f.span.start]), [[true, expected]], where);
    } else {
      assert.ok(!parsed.findings.some((f) => f.message.startsWith("Nesting deeper than")), where);
      const difference = treeDifference(parseTree(text, [], OPTIONS), parsed.root);
      if (difference) assert.fail(`trees differ: ${difference}\n${where}`);
    }
  }
  // Both kinds of too deep, and enough of the rest, must have been generated.
  assert.ok(tooDeep > 300 && recovered > 30 && tooDeep < 2700, `${tooDeep} too deep, ${recovered} by recovery only`);
});
