import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";
import { deepagentsPy } from "../../server/src/engine/runtime";
import { CompiledRuleList, type PermissionRuleInput } from "../../server/src/engine/permissions/ruleList";
import { decideToolPath } from "../../server/src/engine/permissions/decideToolPath";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { DOTFILE_FIX_DEPTH, dotfilesUnprotected, fixFor } from "../../server/src/engine/checks/dotfile/dotfilesUnprotected";
import { dotfileGaps } from "../../server/src/engine/automata/dotfileGaps";
import { clearCaches } from "../../server/src/engine/caches";
import { dotMatches } from "../../server/src/engine/automata/dotMatching";
import { generateConfigText } from "../../bench/generate";
import type { Finding } from "../../server/src/engine/diagnostics";

const CODE = "dotfiles-unprotected";
const PY = `"runtime": "deepagents-py",\n  `;

const deny = (paths: string, extra = PY) => config(`${extra}"permissions": [
    { "operations": ["read", "write"], "paths": [${paths}], "mode": "deny" }
  ]`);

/** Names that start with `.` in a path (`.` and `..` segments apart). */
const hiddenNames = (path: string) => path.split("/").filter((s) => s.startsWith(".") && s !== "..").length;

/** What deepagents-py does with a read of `path` under the rules of a one-rule-list config. */
function pyOutcome(rules: readonly PermissionRuleInput[], path: string, op: "read" | "write" = "read") {
  return decideToolPath(deepagentsPy, new CompiledRuleList(deepagentsPy, rules), op, path).outcome;
}

const denyRule = (paths: string[]): PermissionRuleInput[] => [{ operations: ["read", "write"], paths, mode: "deny" }];

/** The first sentence rule of the message style: plain text, under 20 words. */
function assertPlainMessage(f: Finding): void {
  assert.ok(!f.message.includes("`"), f.message);
  const first = f.message.split(/(?<=[.:])\s/)[0]!;
  assert.ok(first.split(/\s+/).length < 20, f.message);
  for (const fix of f.fixes ?? []) assert.ok(!fix.title.includes("`"), fix.title);
}

// The repros of issue 27: each was "no problems" while `explain` (and wcmatch 8.4) said ALLOW for a hidden name
// nested in a hidden folder under the deny.
const REPROS: { paths: string[]; open: string }[] = [
  { paths: ["/secrets/**", "/secrets/**/.*", "/secrets/**/.*/**"], open: "/secrets/.aws/.credentials" },
  { paths: ["/secrets/.aws/**"], open: "/secrets/.aws/.credentials" },
  { paths: ["/proj/.git/**"], open: "/proj/.git/.hooks" },
  { paths: ["/home/**/.ssh/**"], open: "/home/u/.ssh/.config" },
  { paths: ["/**/.env"], open: "/.config/.env" },
  { paths: ["/**"], open: "/.env" },
];

for (const { paths, open } of REPROS) {
  test(`a deny of ${paths.join(", ")} in deepagents-py is reported: ${open} stays allowed`, () => {
    assert.equal(pyOutcome(denyRule(paths), open), "allow", "the runtime lets it through");
    assert.ok(paths.some((p) => dotMatches(p, open)), "the deny covers it with dot matching");
    const [finding, ...more] = expectFindings(deny(paths.map((p, i) => (i === 0 ? `⟦${JSON.stringify(p)}⟧` : JSON.stringify(p))).join(", ")), CODE);
    assert.equal(more.length, 0);
    assert.equal(finding!.severity, "warning");
    assertPlainMessage(finding!);
    // The witness: really allowed in deepagents-py, covered with dot matching, and no longer than the repro's path.
    const witness = finding!.witness!;
    assert.equal(pyOutcome(denyRule(paths), witness), "allow", witness);
    assert.equal(pyOutcome(denyRule(paths), witness, "write"), "allow", witness);
    assert.ok(dotMatches(paths[0]!, witness), witness);
    assert.ok(witness.length <= open.length, `${witness} is a shortest witness`);
    assert.ok(finding!.message.includes(witness), finding!.message);
    assert.ok(finding!.detail && finding!.detail.includes("DOTGLOB"), finding!.detail);
  });
}

test("fires on a deny /** when deepagents-py is only in compatibleWith", () => {
  const [finding] = expectFindings(deny(`⟦"/**"⟧`, `"compatibleWith": ["deepagents-py"],\n  `), CODE);
  assert.equal(finding!.witness, "/.a");
  assert.match(finding!.message, /^In deepagents-py 0\.7\.8 \(in compatibleWith\), this deny does not cover \/\.a: /);
});

test("one finding per deny, on the pattern that covers the witness with dot matching", () => {
  const found = expectFindings(config(`${PY}"permissions": [
    { "operations": ["read"], "paths": ["/w/.env", ⟦"/x/*"⟧, "/**/*.txt"], "mode": "deny" },
    { "operations": ["write"], "paths": [⟦"/y/?env"⟧], "mode": "deny" },
    { "operations": ["read"], "paths": [⟦"/z/[.]env"⟧], "mode": "deny" }
  ]`), CODE);
  assert.deepEqual(found.map((f) => f.witness), ["/x/.a", "/y/.env", "/z/.env"]);
  for (const f of found) assertPlainMessage(f);
});

test("silent for deepagents-js alone, allow rules, literal dotfiles, and dotfiles another rule denies in deepagents-py", () => {
  expectNoFindings(deny(`"/workspace/**"`, ""), CODE);
  expectNoFindings(config(`${PY}"permissions": [{ "operations": ["read"], "paths": ["/workspace/**"], "mode": "allow" }]`), CODE);
  expectNoFindings(deny(`"/w/.env", "/a/.*", "/b/.*.txt"`), CODE);
  expectNoFindings(deny(`"/x/*", "/x/.*"`), CODE);
  // Every hidden name under /secrets, at any depth, denied by a rule of its own (with dot matching it covers no more).
  expectNoFindings(config(`${PY}"permissions": [
    { "operations": ["read"], "paths": ["/secrets/*"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/secrets/.*"], "mode": "deny" }
  ]`), CODE);
});

test("silent where the list read with dot matching does not deny the path either: an earlier allow takes it first", () => {
  expectNoFindings(config(`${PY}"permissions": [
    { "operations": ["read"], "paths": ["/ws/.*"], "mode": "allow" },
    { "operations": ["read"], "paths": ["/ws/*"], "mode": "deny" }
  ]`), CODE);
  // An earlier allow that takes the dotfiles with dot matching only: allowed either way, nothing lost.
  expectNoFindings(config(`${PY}"permissions": [
    { "operations": ["read"], "paths": ["/ws/**"], "mode": "allow" },
    { "operations": ["read"], "paths": ["/ws/**/*"], "mode": "deny" }
  ]`), CODE);
  // The allow covers read only: for write the deny decides /ws/.a with dot matching and deepagents-py allows it.
  const [f] = expectFindings(config(`${PY}"permissions": [
    { "operations": ["read"], "paths": ["/ws/.*"], "mode": "allow" },
    { "operations": ["read", "write"], "paths": [⟦"/ws/*"⟧], "mode": "deny" }
  ]`), CODE);
  assert.equal(f!.witness, "/ws/.a");
  assert.ok(f!.detail!.includes("covers write /ws/.a"), f!.detail);
});

test("the fix for <dir>/** reaches 3 hidden names; re-checked, the finding stays as information with a deeper witness", () => {
  const text = deny(`"/secrets/**"`);
  const [finding] = findings(text, CODE);
  const [fix] = finding!.fixes!;
  assert.equal(fix!.title, `Also deny dotfiles up to ${DOTFILE_FIX_DEPTH} nested hidden names: add 3 patterns`);
  assert.equal(fix!.safe, false);
  const fixed = applyFix(text, finding!);
  const added = ["/secrets/**/.*{,/**}", "/secrets/**/.*/**/.*{,/**}", "/secrets/**/.*/**/.*/**/.*{,/**}"];
  assert.ok(fixed.includes(`"paths": ["/secrets/**", ${added.map((p) => JSON.stringify(p)).join(", ")}]`), fixed);
  const [after, ...more] = findings(fixed, CODE);
  assert.equal(more.length, 0);
  assert.equal(after!.severity, "information");
  assert.deepEqual(after!.fixes, []);
  assertPlainMessage(after!);
  assert.match(after!.message, /nested more than 3 deep/);
  // The first path still open is deeper than any the fix reaches, and really allowed.
  assert.equal(hiddenNames(after!.witness!), DOTFILE_FIX_DEPTH + 1);
  assert.ok(hiddenNames(after!.witness!) > hiddenNames(finding!.witness!));
  const rules = denyRule(["/secrets/**", ...added]);
  assert.equal(pyOutcome(rules, after!.witness!), "allow");
  for (const path of ["/secrets/.env", "/secrets/.aws/.credentials", "/secrets/a/.b/c/.d/.e", "/secrets/.a/.b/.c/d"]) assert.equal(pyOutcome(rules, path), "deny", path);
  assert.deepEqual(findings(fixed).filter((f) => f.severity === "error"), []);
});

test("the fix for <dir>/* closes the gap; for <dir>/**/<name> it reaches 3 hidden folders above the name", () => {
  const one = deny(`"/x/*"`);
  const fixedOne = applyFix(one, findings(one, CODE)[0]!);
  assert.ok(fixedOne.includes(`"paths": ["/x/*", "/x/.*"]`));
  expectNoFindings(fixedOne, CODE);

  const env = deny(`"/**/.env"`);
  const [before] = findings(env, CODE);
  const fixedEnv = applyFix(env, before!);
  assert.ok(fixedEnv.includes(`"/**/.*/**/.env", "/**/.*/**/.*/**/.env", "/**/.*/**/.*/**/.*/**/.env"`), fixedEnv);
  const [after] = findings(fixedEnv, CODE);
  assert.equal(after!.severity, "information");
  // Three hidden folders and the .env in them are reached; the first path still open has four hidden folders.
  assert.equal(after!.witness, "/.a/.a/.a/.a/.env");
  assert.equal(pyOutcome(denyRule(["/**/.env", "/**/.*/**/.env", "/**/.*/**/.*/**/.env", "/**/.*/**/.*/**/.*/**/.env"]), after!.witness!), "allow");
});

test("no fix where the pattern's shape has no plain spelling of its hidden names", () => {
  for (const pattern of ["/**/*.txt", "/home/**/.ssh/**", "/a/*/b"]) assert.equal(fixFor(pattern), undefined, pattern);
  const [finding] = findings(deny(`"/**/*.txt"`), CODE);
  assert.deepEqual(finding!.fixes, []);
  assert.match(finding!.detail!, /spell the hidden names out/);
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`${PY}"permissions": [{ "operations": ["read"], "mode": "deny", "paths": [
    // agent-sandbox-ignore dotfiles-unprotected
    "/workspace/**"
  ] }]`), CODE);
});

test("out of budget it reports nothing for the list and says so; a pattern it cannot read stops that operation", () => {
  const rules = denyRule(["/secrets/**"]);
  clearCaches();
  const tight = dotfileGaps(deepagentsPy, rules, DOTFILE_FIX_DEPTH, { milliseconds: 10_000, states: 5 });
  assert.deepEqual(tight.gaps, []);
  assert.equal(tight.skipped.length, 1);
  assert.match(tight.skipped[0]!.reason, /^the walk over its rules for dotfiles needed more than 5 automaton states$/);
  assert.equal(dotfileGaps(deepagentsPy, rules, DOTFILE_FIX_DEPTH).gaps.length, 2, "read and write, with the default budget");

  // wcmatch's brace-expansion limit: the runtime fails every read that reaches the rule. Not guessed: skipped.
  const text = config(`${PY}"permissions": [
    { "operations": ["read"], "paths": ["/a/{1..2000}"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" }
  ]`);
  const result = checkConfigText(text, { analysis: true });
  assert.deepEqual(result.findings.filter((f) => f.code === CODE), []);
  const note = result.skipped.find((s) => s.checks.includes(CODE));
  assert.ok(note, JSON.stringify(result.skipped));
  assert.equal(note!.what, "rule 0 of the top-level permissions");
  assert.match(note!.why, /^no read under this list was checked for dotfiles: this rule's pattern "\/a\/\{1\.\.2000\}" cannot be used by deepagents-py/);
});

test("the findings do not depend on what earlier runs left in the kept results", () => {
  const text = generateConfigText(60, 7, "https://example.invalid/schema.json");
  const summary = () => checkConfigText(text, { analysis: true }).findings.filter((f) => f.code === CODE).map((f) => JSON.stringify([f.span, f.severity, f.witness, f.message, f.fixes]));
  clearCaches();
  const fresh = summary();
  assert.ok(fresh.length > 3, `only ${fresh.length} findings: the comparison would say little`);
  assert.deepEqual(summary(), fresh);
});

test("part of the exact analysis: run with it, left out by --no-analysis and when turned off", () => {
  const text = generateConfigText(50, 5, "https://agent-sandbox.dev/schemas/agent-sandbox.schema.json");
  const original = dotfilesUnprotected.run;
  let runs = 0;
  dotfilesUnprotected.run = (context) => {
    runs++;
    original.call(dotfilesUnprotected, context);
  };
  try {
    assert.ok(checkConfigText(text, { analysis: true }).findings.some((f) => f.code === CODE));
    assert.equal(runs, 1);
    assert.equal(checkConfigText(text).findings.filter((f) => f.code === CODE).length, 0, "not without the analysis");
    assert.equal(runs, 1);
    const off = checkConfigText(text, { analysis: true, severities: { [CODE]: "off" } });
    assert.equal(runs, 1, "not run when off");
    assert.equal(off.findings.filter((f) => f.code === CODE).length, 0);
  } finally {
    dotfilesUnprotected.run = original;
  }
});

test("its automata work counts against the check's steps for the file, kept results included: past them a list is skipped and said", () => {
  const text = config(`${PY}"permissions": [
    { "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" }
  ]`);
  const run = (automataSteps?: number) => {
    const result = checkConfigText(text, { analysis: true, ...(automataSteps === undefined ? {} : { automataSteps }) });
    return { found: result.findings.filter((f) => f.code === CODE).length, notes: result.skipped.filter((s) => s.checks.includes(CODE)) };
  };
  clearCaches();
  const full = run();
  assert.equal(full.found, 1);
  assert.deepEqual(full.notes, []);
  // The same answer once the list's result is kept (its steps are charged again), and from a cold start.
  for (const cold of [false, true]) {
    if (cold) clearCaches();
    const tight = run(50);
    assert.equal(tight.found, 0);
    assert.equal(tight.notes.length, 1, JSON.stringify(tight.notes));
    assert.equal(tight.notes[0]!.what, "the top-level permissions");
    assert.match(tight.notes[0]!.why, /^the walk over its rules for dotfiles was not reached: the exact analysis of this file had done the 50 steps of work it may do$/);
  }
  assert.deepEqual(run(), full, "with the default steps, found again");
});
