/**
 * Conformance: our deepagents-js path engine against the real npm `deepagents@1.14.1`.
 *
 * Test 1 drives the real `createFilesystemMiddleware` offline (a stub backend, `tool.invoke` on the real
 * `read_file` / `write_file` tools; spec §8) for ≥10,000 seeded random cases (rule list, operation, raw tool
 * path) and requires `permissionPathProblem` / `decideToolPath` to agree exactly: construction errors, the
 * outcome (allow / deny / error), every deny and error text, and the path the backend receives.
 *
 * Test 2 checks the pure matcher bit for bit: `deepagentsJs.compilePattern(p).matches(path)` against
 * `micromatch.isMatch(path, p, { dot: true })` (the call deepagents makes, spec §2), plus the invariant the rule
 * index relies on: every matching path starts with the compiled pattern's `literalPrefix`.
 *
 * Test 3 runs the same comparison on rule lists with one malformed but JSON-expressible rule inserted
 * (`operations` that is no array or string; `paths` given as a string), which the library accepts at
 * construction and then trips over at call time.
 *
 * Deterministic: a small PRNG, seed and sizes fixed unless overridden by the environment
 * (CONFORMANCE_SEED, CONFORMANCE_CASES, CONFORMANCE_MATCHER_PAIRS, CONFORMANCE_MALFORMED_CASES). Run:
 *   node --import tsx --test test/conformance/deepagents-js.paths.test.ts
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import micromatch from "micromatch";
import { deepagentsJs } from "../../server/src/engine/runtime/deepagentsJs";
import type { Operation } from "../../server/src/engine/runtime/runtime";
import { CompiledRuleList, type PermissionRuleInput } from "../../server/src/engine/permissions/ruleList";
import { decideToolPath } from "../../server/src/engine/permissions/decideToolPath";
import { envInt, makeRng, type Rng } from "../helpers/random";

const SEED = envInt("CONFORMANCE_SEED", 0x5eed_2026);
const CASES = envInt("CONFORMANCE_CASES", 15_000);
const MATCHER_PAIRS = envInt("CONFORMANCE_MATCHER_PAIRS", 20_000);
const MALFORMED_CASES = envInt("CONFORMANCE_MALFORMED_CASES", 2_000);
const SHOW_DISAGREEMENTS = 20;

// ---------------------------------------------------------------------------------------------------------
// Generator: patterns over a small alphabet, each with a "witness" sampler that produces paths likely (not
// certainly: the real library is the oracle) to match, so a good share of cases actually reaches a rule.
// ---------------------------------------------------------------------------------------------------------

/** A glob atom as written in a pattern, and strings that may stand for it in a path. */
const ATOMS: readonly (readonly [string, readonly string[]])[] = [
  // literals, dotfiles, odd-but-literal characters
  ["a", ["a"]],
  ["b", ["b"]],
  ["x", ["x"]],
  ["secrets", ["secrets"]],
  ["workspace", ["workspace", "workspace2"]],
  [".env", [".env"]],
  [".git", [".git"]],
  ["config", ["config"]],
  [".txt", [".txt"]],
  ["a..b", ["a..b"]],
  ["~user", ["~user"]],
  ["b c", ["b c"]],
  ["$b", ["$b"]],
  ["#b", ["#b"]],
  ["b+c", ["b+c"]],
  ["b@c", ["b@c"]],
  ["b^c", ["b^c"]],
  ["A", ["A", "a"]],
  // wildcards
  ["*", ["", "a", "ab", ".env", "x.txt", ".", "*"]],
  ["?", ["a", ".", "b", "!", "?"]],
  ["**", ["", "a", "ab", ".env", "**"]], // inside a segment (`/a/**.txt`, `/a/b**`): acts like `*`
  // braces
  ["{a,b}", ["a", "b", "{a,b}", "c"]],
  ["{a,{b,c}}", ["a", "b", "c", "d"]],
  ["{,x}", ["", "x"]],
  ["{1..3}", ["1", "2", "3", "4", "{1..3}"]],
  ["{a..c}", ["a", "b", "d"]],
  // picomatch 2.3.2 turns `{1..10..2}` into the class `[1-10-2]` (0, 1, 2), `{2..20}` into `[2-20]` (0, 2) and
  // `{01..03}` into the regex `01..03`, whose dots match any character, `/` included
  ["{1..10..2}", ["0", "1", "2", "3", "4", "9", "{1..10..2}"]],
  ["{2..20}", ["0", "2", "3", "20"]],
  ["{01..03}", ["01", "02", "2", "{01..03}", "01..03", "01ab03", "01/.03"]],
  ["{a,b", ["{a,b", "a"]],
  ["{,**/}", ["", "a/", "a/b/", ".git/"]],
  ["{,/**}", ["", "/a", "/a/b", "/.env"]],
  // classes
  ["[ab]", ["a", "b", "c"]],
  ["[!a]", ["a", "b", "!"]],
  ["[^a]", ["a", "b", "^"]],
  ["[[:alpha:]]", ["a", "1"]],
  ["[[:digit:]]", ["1", "a"]],
  ["[a-c]", ["b", "d"]],
  ["[.]", [".", "a"]],
  ["[abc", ["[abc", "a"]],
  // extglobs and parentheses
  ["@(a|b)", ["a", "b", "c", "@(a|b)"]],
  ["+(a|b)", ["a", "aa", "ab", "c", "+(a|b)"]],
  ["!(a)", ["a", "b", "", "!(a)"]],
  ["?(b)", ["", "b", "bb", "?(b)"]],
  ["*(a)", ["", "a", "aa"]],
  ["(a|b)", ["a", "b", "(a|b)"]],
  ["(b)", ["(b)", "b"]],
  // escapes
  ["\\*", ["*", "a", "\\*"]],
  ["\\?", ["?", "a"]],
  ["\\{b,c\\}", ["{b,c}", "b"]],
  ["\\", ["\\", "", "/"]], // a lone backslash, escaping whatever follows (even the `/` after it)
  // more operators and unbalanced brackets
  ["a|b", ["a|b", "a", "b"]],
  ["{a,**}", ["a", "x", "x/y"]],
  ["@(a|*(b))", ["a", "bb", ""]],
  ["!(*.txt)", ["a.txt", "a", ".env"]],
  ["[]]", ["]", "[]]"]],
  ["[a-]", ["-", "a", "b"]],
  ["]", ["]"]],
  ["é", ["é", "e"]],
  ["日本", ["日本"]],
];

interface Segment {
  text: string;
  sample(rng: Rng): string;
}

interface GenPattern {
  text: string;
  /** A raw path built to (probably, not certainly) match the pattern. */
  witness(rng: Rng): string;
}

function genSegment(rng: Rng): Segment {
  const kind = rng.weighted<"globstar" | "dot" | "dotdot" | "tilde" | "empty" | "atoms">([
    [12, "globstar"],
    [2, "dot"],
    [0.4, "dotdot"],
    [0.3, "tilde"],
    [1.5, "empty"],
    [82, "atoms"],
  ]);
  switch (kind) {
    case "globstar":
      return { text: "**", sample: (r) => r.pick(["", "a", "a/b", ".git/config", "x/.env", "b/a", "."]) };
    case "dot":
      return { text: ".", sample: (r) => r.pick([".", "a"]) };
    case "dotdot":
      return { text: "..", sample: () => ".." };
    case "tilde":
      return { text: "~", sample: () => "~" };
    case "empty":
      return { text: "", sample: () => "" };
    case "atoms": {
      const n = rng.weighted([[68, 1], [27, 2], [5, 3]] as const);
      const atoms = Array.from({ length: n }, () => rng.pick(ATOMS));
      return {
        text: atoms.map(([t]) => t).join(""),
        sample: (r) => atoms.map(([, samples]) => r.pick(samples)).join(""),
      };
    }
  }
}

/** A pattern for a rule's `paths`: mostly absolute globs, sometimes one `validatePath` refuses. */
function genPattern(rng: Rng, allowInvalid: boolean): GenPattern {
  if (allowInvalid) {
    const special = rng.weighted<string | undefined>([
      [98.5, undefined],
      [0.35, "relative"],
      [0.2, "empty"],
      [0.3, "negated"],
      [0.2, "home"],
      [0.05, "huge"],
      [0.5, "literal"],
    ]);
    if (special === "empty") return { text: "", witness: () => "" };
    if (special === "home") return { text: rng.pick(["~/x", "~", "~/**"]), witness: () => "~/x" };
    if (special === "huge") {
      // picomatch refuses patterns over 65,536 characters; validatePath accepts them, so the failure is
      // at call time, and only when the rule is reached (the engine's `unusable`).
      const text = `/${"a".repeat(65_540)}`;
      return { text, witness: () => text };
    }
    if (special === "literal") {
      const text = rng.pick(["/", "/a/~/b", "/a\\..\\b", "/ws\\sub\\**", "/C:/x", "/a/.../b", "/~user/x"]);
      return { text, witness: () => text };
    }
    if (special !== undefined) {
      const inner = genPattern(rng, false);
      const text = special === "relative" ? inner.text.replace(/^\/+/, "") : `!${inner.text}`;
      return { text, witness: (r) => inner.witness(r) };
    }
  }
  const count = rng.weighted([[3, 0], [30, 1], [35, 2], [22, 3], [10, 4]] as const);
  const segments = Array.from({ length: count }, () => genSegment(rng));
  if (rng.chance(0.08)) segments.unshift({ text: "**", sample: (r) => r.pick(["", "a", "a/b", ".git"]) });
  if (segments.length === 0) segments.push({ text: "", sample: () => "" });
  const trailingSlash = segments.length > 0 && rng.chance(0.05);
  const text = `/${segments.map((s) => s.text).join("/")}${trailingSlash ? "/" : ""}`;
  return {
    text,
    witness: (r) => `/${segments.map((s) => s.sample(r)).join("/")}${trailingSlash && r.chance(0.5) ? "/" : ""}`,
  };
}

const PATH_NAMES: readonly (readonly [number, string])[] = [
  [6, "a"], [5, "b"], [3, "c"], [4, "x"], [2, "aa"], [2, "ab"], [3, ".env"], [3, ".git"], [2, "config"],
  [2, "a.txt"], [2, "b.txt"], [1, ".a.txt"], [2, "1"], [2, "2"], [1, "3"], [1, "4"], [1, "02"], [1, "a..b"],
  [1, "~user"], [1, "{a,b}"], [1, "(b)"], [1, "!"], [1, "*"], [1, "?"], [1, "[abc"], [1, "b c"], [0.5, "é"],
  [0.3, "日本"], [0.3, 'q"t'], [0.3, "t\tb"], [0.3, "back\\slash"], [0.3, "-"], [0.3, "0"],
  [3, "secrets"], [3, "workspace"], [1, "A"], [1.5, "."], [0.8, ".."], [0.6, "~"], [0.6, ""],
];

const SPECIAL_PATHS: readonly string[] = [
  "", "~/x", "~", "/a/~/b", "C:/x", "C:\\x", "relative/a", "a", ".", "./a", "/", "//", "//x", "///secrets/x",
  "/./x", "/./secrets/a", "/a/../b", "/a/b/..", "/..", "/a..b", "/foo..bar", "/x/.../y", "/~user/x",
  "/secrets/./a", "/workspace/", "/a\\..\\b", "/a/./", "/.", "/a/.", 'q"t/a', "\tx", "é/x", "/~", "/a/~",
];

function genRandomPath(rng: Rng): string {
  const depth = rng.weighted([[8, 0], [30, 1], [32, 2], [20, 3], [10, 4]] as const);
  const names = Array.from({ length: depth }, () => rng.weighted(PATH_NAMES));
  return `/${names.join("/")}`;
}

/** Structural mutations of a path: each kind of canonicalisation (§1.3) and each validation failure. */
function mutatePath(rng: Rng, path: string): string {
  let p = path;
  const slashAt = (s: string): number[] => [...s].flatMap((c, i) => (c === "/" ? [i] : []));
  const insertAtSlash = (insert: string) => {
    const slashes = slashAt(p);
    if (slashes.length === 0) return;
    const i = rng.pick(slashes);
    p = `${p.slice(0, i)}${insert}${p.slice(i + 1)}`;
  };
  if (rng.chance(0.06)) p = `${p}/`;
  if (rng.chance(0.04)) p = `/${p}`;
  if (rng.chance(0.04)) insertAtSlash("/./");
  if (rng.chance(0.025)) insertAtSlash("/../");
  if (rng.chance(0.03)) insertAtSlash("//");
  if (rng.chance(0.015)) insertAtSlash("/~/");
  if (rng.chance(0.02)) p = p.replace(/^\/+/, "");
  return p;
}

interface Rule extends PermissionRuleInput {
  operations: unknown;
  /**
   * Generated as strings, except a rare `null` / number (§1.2 V14: `path must be a non-empty string`); the
   * malformed-shapes test also uses a string (iterated by character at construction).
   */
  paths: unknown;
  mode: unknown;
}

interface Case {
  id: number;
  rules: Rule[];
  op: Operation;
  path: string;
}

const OPERATION_CHOICES: readonly (readonly [number, unknown])[] = [
  [24, ["read"]],
  [18, ["write"]],
  [28, ["read", "write"]],
  [5, ["write", "read"]],
  [6, "read"], // a string: `includes` is a substring test (§1.2 V19)
  [3, "write"],
  [2, "readwrite"],
  [3, []],
  [3, ["delete"]],
  [3, ["read", "delete"]],
];

const MODE_CHOICES: readonly (readonly [number, string | undefined])[] = [
  [50, "deny"],
  [20, "allow"],
  [18, undefined], // key omitted: `rule.mode ?? "allow"`
  [5, "block"], // unknown: allows and stops later rules (§1.2 V20)
  [4, "interrupt"], // Python-only: in JS an unknown mode (V21)
  [3, "Deny"],
];

/** 1–4 rules (plus about 1% empty lists, where the library validates nothing and passes the raw path on). */
function genRules(rng: Rng, patterns: GenPattern[]): Rule[] {
  const count = rng.weighted([[1, 0], [30, 1], [30, 2], [22, 3], [17, 4]] as const);
  const rules: Rule[] = [];
  for (let i = 0; i < count; i++) {
    const nPaths = rng.weighted([[2, 0], [55, 1], [30, 2], [13, 3]] as const);
    const paths: unknown[] = [];
    for (let j = 0; j < nPaths; j++) {
      if (rng.chance(0.002)) {
        paths.push(rng.pick([null, 123, 0]));
        continue;
      }
      const pattern = genPattern(rng, true);
      patterns.push(pattern);
      paths.push(pattern.text);
    }
    const operations = rng.weighted(OPERATION_CHOICES);
    const mode = rng.weighted(MODE_CHOICES);
    // An omitted mode is a missing key, not `mode: undefined`, as a user would write it.
    const rule = (mode === undefined ? { operations, paths } : { operations, paths, mode }) as Rule;
    rules.push(rule);
  }
  return rules;
}

/** One tool call against a rule list: the operation and a raw path, drawn partly from the rules' own patterns. */
function genCall(rng: Rng, patterns: readonly GenPattern[]): { op: Operation; path: string } {
  const op: Operation = rng.chance(0.5) ? "read" : "write";
  const source = rng.weighted<"witness" | "verbatim" | "random" | "special">([
    [patterns.length > 0 ? 52 : 0, "witness"],
    [patterns.length > 0 ? 6 : 0, "verbatim"],
    [32, "random"],
    [10, "special"],
  ]);
  let path: string;
  switch (source) {
    case "witness":
      path = rng.pick(patterns).witness(rng);
      break;
    case "verbatim":
      path = rng.pick(patterns).text;
      break;
    case "random":
      path = genRandomPath(rng);
      break;
    case "special":
      path = rng.pick(SPECIAL_PATHS);
      break;
  }
  // Keep a huge path out of the tool calls (a huge pattern is enough to reach picomatch's limit).
  if (path.length > 1000) path = genRandomPath(rng);
  return { op, path: mutatePath(rng, path) };
}

/**
 * The case stream of test 1: each generated rule list serves CALLS_PER_RULE_LIST consecutive cases (the real
 * middleware is built once per rule list: construction costs three times a tool call).
 */
const CALLS_PER_RULE_LIST = 3;

function caseStream(rng: Rng): (id: number) => Case {
  let rules: Rule[] = [];
  let patterns: GenPattern[] = [];
  let used = CALLS_PER_RULE_LIST;
  return (id) => {
    if (used === CALLS_PER_RULE_LIST) {
      patterns = [];
      rules = genRules(rng, patterns);
      used = 0;
    }
    used++;
    return { id, rules, ...genCall(rng, patterns) };
  };
}

// ---------------------------------------------------------------------------------------------------------
// The real library, driven offline (spec §8)
// ---------------------------------------------------------------------------------------------------------

type Outcome = "allow" | "deny" | "error";

type RealResult =
  | { kind: "construct-error"; message: string }
  | { kind: "call"; outcome: Outcome; message?: string; thrown?: boolean; received?: string; text: string };

interface InvokableTool {
  name: string;
  invoke(input: Record<string, unknown>): Promise<unknown>;
}

type CreateFilesystemMiddleware = (options: Record<string, unknown>) => { tools: InvokableTool[] };

/** What the stub backend last received; reset before each call. */
let received: string | undefined;

const stubBackend = {
  ls: async () => ({ files: [] }),
  read: async (p: string) => {
    received = p;
    return { content: `content of ${p}`, mimeType: "text/plain" };
  },
  write: async (p: string) => {
    received = p;
    return {};
  },
  edit: async () => ({ occurrences: 1 }),
  delete: async (p: string) => ({ path: p }),
  glob: async () => ({ files: [] }),
  grep: async () => ({ matches: [] }),
};

function resultText(result: unknown): string {
  if (typeof result === "string") return result;
  if (Array.isArray(result)) {
    return result.map((part) => (typeof part?.text === "string" ? part.text : JSON.stringify(part))).join("\n");
  }
  const content = (result as { content?: unknown } | null)?.content;
  if (typeof content === "string") return content;
  return JSON.stringify(content ?? result);
}

/** The middleware built for a rule list (or its construction error), reused by the cases that share the list. */
const built = new WeakMap<Rule[], InvokableTool[] | { constructError: string }>();

async function runReal(create: CreateFilesystemMiddleware, c: Case): Promise<RealResult> {
  let tools = built.get(c.rules);
  if (tools === undefined) {
    try {
      tools = create({ backend: stubBackend, permissions: c.rules }).tools;
    } catch (e) {
      tools = { constructError: (e as Error).message };
    }
    built.set(c.rules, tools);
  }
  if (!Array.isArray(tools)) return { kind: "construct-error", message: tools.constructError };
  const tool = tools.find((t) => t.name === (c.op === "read" ? "read_file" : "write_file"))!;
  received = undefined;
  let result: unknown;
  try {
    result = await tool.invoke(c.op === "read" ? { file_path: c.path } : { file_path: c.path, content: "x" });
  } catch (e) {
    // An exception escaping the tool (picomatch refusing a pattern, say): the agent sees `Error: <message>`.
    const message = `Error: ${(e as Error).message}`;
    return { kind: "call", outcome: "error", message, thrown: true, text: message };
  }
  const text = resultText(result);
  const status = (result as { status?: unknown } | null)?.status;
  if (status === "error") {
    const outcome: Outcome = text.startsWith("Error: permission denied for ") ? "deny" : "error";
    return { kind: "call", outcome, message: text, text };
  }
  return { kind: "call", outcome: "allow", received, text };
}

// ---------------------------------------------------------------------------------------------------------
// Our engine, and the comparison
// ---------------------------------------------------------------------------------------------------------

type EngineResult =
  | { kind: "construct-error"; message: string; at: string }
  | { kind: "call"; outcome: string; message?: string; canonicalPath?: string; ruleIndex: number; mode: unknown };

function runEngine(c: Case): EngineResult {
  for (const [ri, rule] of c.rules.entries()) {
    // `validatePermissionPaths` runs `for (const path of permission.paths)`: a string is iterated by character.
    const paths: unknown[] = typeof rule.paths === "string" ? [...rule.paths] : (rule.paths as unknown[]);
    for (const [pi, p] of paths.entries()) {
      const problem = deepagentsJs.permissionPathProblem(p);
      if (problem) return { kind: "construct-error", message: problem.message, at: `rules[${ri}].paths[${pi}]` };
    }
  }
  const decided = decideToolPath(deepagentsJs, new CompiledRuleList(deepagentsJs, c.rules), c.op, c.path);
  return {
    kind: "call",
    outcome: decided.outcome,
    message: decided.message,
    canonicalPath: decided.canonicalPath,
    ruleIndex: decided.decision?.ruleIndex ?? -1,
    mode: decided.decision?.mode,
  };
}

/** Why our engine and the library disagree on one case, or `undefined` when they agree. */
function compare(c: Case, real: RealResult, engine: EngineResult): string | undefined {
  if (real.kind === "construct-error") {
    if (engine.kind !== "construct-error") return `library refuses the rules at construction, engine accepts them`;
    const expected = `Error: ${real.message}`;
    if (engine.message !== expected) return `construction message differs (engine ${engine.at})`;
    return undefined;
  }
  if (engine.kind === "construct-error") return `engine refuses ${engine.at} at construction, library accepts the rules`;
  if (engine.outcome !== real.outcome) return `outcome differs`;
  if (real.outcome === "allow") {
    if (real.received === undefined) return `library allowed but the backend was not reached`;
    if (real.received !== c.path) return `backend received ${JSON.stringify(real.received)}, not the raw argument`;
    if (engine.message !== undefined) return `engine gives a message on allow`;
    if (c.rules.length === 0 && engine.canonicalPath !== c.path) return `with no rules the engine should pass the raw path on`;
    const expectedText = c.op === "read" ? `content of ${c.path}` : `Successfully wrote to '${c.path}'`;
    if (!real.text.includes(expectedText)) return `library result text unexpected for an allow`;
    return undefined;
  }
  if (engine.message !== real.message) return `message differs`;
  return undefined;
}

function formatCase(c: Case, real: RealResult, engine: EngineResult, why: string): string {
  return [
    `#${c.id}: ${why}`,
    `  rules:   ${JSON.stringify(c.rules)}`,
    `  call:    ${c.op === "read" ? "read_file" : "write_file"}(${JSON.stringify(c.path)})`,
    `  library: ${JSON.stringify(real)}`,
    `  engine:  ${JSON.stringify(engine)}`,
  ].join("\n");
}

interface Counts {
  constructError: number;
  allow: number;
  deny: number;
  error: number;
  thrown: number;
  allowByRule: number;
  allowByUnknownMode: number;
  decidedByLaterRule: number;
  noRules: number;
}

/** Run `count` generated cases through the library and the engine; print the summary; return the tallies. */
async function runConformance(label: string, count: number, makeStream: (rng: Rng) => (id: number) => Case, seed: number) {
  const started = performance.now();
  const { createFilesystemMiddleware } = (await import("deepagents")) as unknown as {
    createFilesystemMiddleware: CreateFilesystemMiddleware;
  };
  const nextCase = makeStream(makeRng(seed));
  const counts: Counts = {
    constructError: 0,
    allow: 0,
    deny: 0,
    error: 0,
    thrown: 0,
    allowByRule: 0,
    allowByUnknownMode: 0,
    decidedByLaterRule: 0,
    noRules: 0,
  };
  const disagreements: string[] = [];
  for (let id = 0; id < count; id++) {
    const c = nextCase(id);
    const real = await runReal(createFilesystemMiddleware, c);
    let engine: EngineResult;
    try {
      engine = runEngine(c);
    } catch (e) {
      engine = { kind: "call", outcome: `engine threw: ${(e as Error).message}`, ruleIndex: -1, mode: undefined };
    }
    if (c.rules.length === 0) counts.noRules++;
    if (real.kind === "construct-error") counts.constructError++;
    else {
      counts[real.outcome]++;
      if (real.thrown) counts.thrown++;
      if (engine.kind === "call" && engine.ruleIndex >= 1) counts.decidedByLaterRule++;
      if (real.outcome === "allow" && engine.kind === "call" && engine.ruleIndex >= 0) {
        counts.allowByRule++;
        if (engine.mode !== undefined && engine.mode !== "allow") counts.allowByUnknownMode++;
      }
    }
    const why = compare(c, real, engine);
    if (why !== undefined) disagreements.push(formatCase(c, real, engine, why));
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${label}: seed=${seed} cases=${count} construct-error=${counts.constructError} ` +
      `allow=${counts.allow} (by a rule ${counts.allowByRule}, by an unknown mode ${counts.allowByUnknownMode}) ` +
      `deny=${counts.deny} error=${counts.error} (thrown ${counts.thrown}) decided-by-rule-2+=${counts.decidedByLaterRule} ` +
      `no-rules=${counts.noRules} disagreements=${disagreements.length} time=${seconds}s`,
  );
  if (disagreements.length > 0) {
    console.log(`first ${Math.min(SHOW_DISAGREEMENTS, disagreements.length)} disagreements:`);
    for (const d of disagreements.slice(0, SHOW_DISAGREEMENTS)) console.log(d);
  }
  return { counts, disagreements };
}

test("deepagents-js 1.14.1 conformance: construction errors and read_file/write_file decisions", async () => {
  const { counts, disagreements } = await runConformance("deepagents-js paths conformance", CASES, caseStream, SEED);
  assert.equal(disagreements.length, 0, `${disagreements.length} disagreement(s) with deepagents@1.14.1; see the log`);
  // The generator must keep exercising every outcome, or the suite proves little.
  for (const key of ["constructError", "allow", "deny", "error", "allowByRule", "allowByUnknownMode", "decidedByLaterRule"] as const) {
    if (CASES >= 10_000) assert.ok(counts[key] >= 50, `too few ${key} cases (${counts[key]}): the generator drifted`);
  }
});

/**
 * Rule shapes that are not `FilesystemPermission`s but are plain JSON, which `operationsCover(operations: unknown)`
 * and `CompiledRuleList` take as written, and which the library accepts at construction (it validates `paths`
 * only): `operations` that is no array or string (null, missing, number, boolean, object), and `paths` given as a
 * string of slashes (`validatePermissionPaths` iterates its characters, each a valid `/`). At call time
 * `decidePathAccess` calls `rule.operations.includes(op)` / `rule.paths.some(…)` and throws a TypeError out of
 * the tool once the loop reaches such a rule (no earlier rule matched).
 */
const MALFORMED: readonly (readonly [number, (rng: Rng) => Record<string, unknown>])[] = [
  [3, (r) => ({ operations: null, paths: ["/**"], mode: r.pick(["deny", "allow"]) })],
  [3, (r) => ({ paths: [r.pick(["/**", "/a/**", "/x"])], mode: "deny" })], // `operations` missing
  [2, (r) => ({ operations: r.pick([5, 0, true, false]), paths: ["/**"], mode: "deny" })],
  [2, (r) => ({ operations: r.pick([{}, { read: true }]), paths: ["/a/**"], mode: "deny" })],
  [1, () => ({ operations: [["read"]], paths: ["/**"], mode: "deny" })], // an array: never covers (agrees today)
  [1, () => ({ operations: ["read", null], paths: ["/**"], mode: "deny" })], // agrees today
  [3, (r) => ({ operations: r.pick([["read"], ["write"], ["read", "write"], "read"]), paths: r.pick(["/", "//", "///"]), mode: "deny" })],
];

function malformedStream(rng: Rng): (id: number) => Case {
  return (id) => {
    const patterns: GenPattern[] = [];
    const rules = genRules(rng, patterns);
    rules.splice(rng.int(rules.length + 1), 0, rng.weighted(MALFORMED)(rng) as unknown as Rule);
    return { id, rules, ...genCall(rng, patterns) };
  };
}

test("deepagents-js 1.14.1 conformance: malformed rule shapes (non-array operations, string paths)", async () => {
  const { disagreements } = await runConformance("deepagents-js malformed-rules conformance", MALFORMED_CASES, malformedStream, SEED ^ 0x5bd1e995);
  assert.equal(disagreements.length, 0, `${disagreements.length} disagreement(s) with deepagents@1.14.1; see the log`);
});

// ---------------------------------------------------------------------------------------------------------
// Test 2: the pure matcher, bit for bit
// ---------------------------------------------------------------------------------------------------------

/** Fixed pairs from the spec's matcher table (§2.1) and a few corners, checked against micromatch too. */
const ANCHOR_PAIRS: readonly (readonly [string, string])[] = [
  ["/**", "/"], ["/**", "/.env"], ["/workspace/**", "/workspace"], ["/workspace/**", "/workspace/./a"],
  ["/workspace/", "/workspace"], ["/**/*.txt", "/a.txt"], ["/**/secrets", "/secrets"], ["/**/secrets/**", "/a/secrets"],
  ["/*env", "/.env"], ["/?env", "/.env"], ["/data/{a,b}", "/data/{a,b}"], ["/data/{1..10..2}.txt", "/data/3.txt"],
  ["/data/{01..03}.txt", "/data/02.txt"], ["/data/[!a].txt", "/data/a.txt"], ["/data/[!a].txt", "/data/b.txt"],
  ["/data/+(a|b).txt", "/data/+(a|b).txt"], ["/data/!(a).txt", "/data/b.txt"], ["/data/*(a).txt", "/data/.txt"],
  ["!/secrets/**", "/public/a"], ["!/secrets/**", "!/secrets/a"], ["/data/\\*.txt", "/data/*.txt"],
  ["/secrets//**", "/secrets/a"], ["/a/(b|c)", "/a/(b|c)"], ["/**/", "/a"], ["/a/**.txt", "/a/x/b.txt"],
  ["/a/b**", "/a/bc"], ["/data/{a,b", "/data/{a,b"], ["/data/[abc", "/data/[abc"], ["/a/.*", "/a/."],
  ["/a/[.]env", "/a/.env"], ["/a/b?(c)", "/a/b"], ["/a/\\{b,c\\}", "/a/{b,c}"], ["/workspace{,/**}", "/workspace/.env"],
  ["/{,**/}.env", "/.env"], ["/**/node_modules/**", "/node_modules/y"], ["/", "/"], ["/a/*", "/a/."],
];

/** The canonical form `validatePath` gives a tool path (or `undefined` when the library rejects it). */
function canonical(raw: string): string | undefined {
  const result = deepagentsJs.canonicalToolPath(raw, true);
  return result.ok ? result.path : undefined;
}

test("deepagents-js matcher: compilePattern(p).matches ≡ micromatch.isMatch(path, p, {dot:true}); literalPrefix holds", () => {
  const started = performance.now();
  const rng = makeRng(SEED ^ 0x9e3779b9);
  const pairs: [string, string][] = ANCHOR_PAIRS.map(([p, path]) => [p, path]);
  while (pairs.length < MATCHER_PAIRS) {
    const pattern = genPattern(rng, true);
    if (pattern.text === "") continue; // refused by validatePath, never handed to the matcher
    for (let k = 0; k < 10 && pairs.length < MATCHER_PAIRS; k++) {
      const raw = rng.chance(0.6) ? pattern.witness(rng) : rng.chance(0.15) ? pattern.text : genRandomPath(rng);
      const path = canonical(raw.length > 1000 ? genRandomPath(rng) : raw) ?? canonical(genRandomPath(rng));
      if (path !== undefined) pairs.push([pattern.text, path]);
    }
  }
  const failures: string[] = [];
  let matched = 0;
  let unusable = 0;
  const compiledCache = new Map<string, ReturnType<typeof deepagentsJs.compilePattern>>();
  for (const [pattern, path] of pairs) {
    let compiled = compiledCache.get(pattern);
    if (!compiled) compiledCache.set(pattern, (compiled = deepagentsJs.compilePattern(pattern)));
    let expected: boolean | { error: string };
    try {
      expected = micromatch.isMatch(path, pattern, { dot: true });
    } catch (e) {
      expected = { error: (e as Error).message };
    }
    const show = `pattern ${JSON.stringify(pattern.length > 80 ? `${pattern.slice(0, 80)}…(${pattern.length})` : pattern)} path ${JSON.stringify(path)}`;
    if (typeof expected === "object") {
      unusable++;
      if (compiled.unusable !== expected.error) {
        failures.push(`${show}: micromatch throws ${JSON.stringify(expected.error)}, engine unusable=${JSON.stringify(compiled.unusable)}`);
      }
      continue;
    }
    if (compiled.unusable !== undefined) {
      failures.push(`${show}: engine says unusable (${compiled.unusable}) but micromatch answers ${expected}`);
      continue;
    }
    const actual = compiled.matches(path);
    if (actual !== expected) failures.push(`${show}: micromatch ${expected}, engine ${actual}`);
    if (expected) {
      matched++;
      if (!path.startsWith(compiled.literalPrefix)) {
        failures.push(`${show}: matches, but does not start with literalPrefix ${JSON.stringify(compiled.literalPrefix)}`);
      }
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `deepagents-js matcher conformance: seed=${SEED} pairs=${pairs.length} patterns=${compiledCache.size} ` +
      `matching=${matched} unusable=${unusable} failures=${failures.length} time=${seconds}s`,
  );
  if (failures.length > 0) {
    console.log(`first ${Math.min(SHOW_DISAGREEMENTS, failures.length)} failures:`);
    for (const f of failures.slice(0, SHOW_DISAGREEMENTS)) console.log(`  ${f}`);
  }
  assert.equal(failures.length, 0, `${failures.length} matcher disagreement(s); see the log`);
  if (MATCHER_PAIRS >= 10_000) assert.ok(matched >= 2_000, `too few matching pairs (${matched}): the generator drifted`);
});
