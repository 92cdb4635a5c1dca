/**
 * Every fix the product offers is verified (issue: "a fix that cannot meet this is not offered"). Each fix of each
 * finding, safe or not, is applied alone to every config the check tests use, every fixture of the editor tests,
 * every file under examples/ and mutants of the mutation corpus (test/helpers/mutants.ts); the result is checked
 * again, with the exact analysis, and must
 *
 * - still parse (no JSON syntax error where there was none);
 * - be rid of the finding: fewer findings with its code and message than before (a finding with the same code may
 *   stay where the fix leaves something: its message then says what is left, so it is another message);
 * - bring no finding of a higher severity than the fixed one, and no new error: per code, no more findings at any
 *   severity above the fixed finding's, nor at error level, than before.
 *
 * Files that do not parse are left out: fixes are worked out on the parser's recovery there, and `--fix` does not
 * touch them. `FIXES=<n>` sets how many mutants (default 40); `FIX_FIXTURES=all` runs every fixture (by default
 * every third of the check tests' own, to stay well under a minute; the editor's and the examples always).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "jsonc-parser";
import { relativeAccess } from "../../server/src/host/files";
import { checkConfigText, type CheckOptions } from "../../server/src/engine/checkConfig";
import { SEVERITIES, type Edit, type Finding, type Severity } from "../../server/src/engine/diagnostics";
import { applyEdits } from "../../server/src/engine/fixes";
import { checkTestFixtures } from "../helpers/fixtureTexts";
import { keysOf, mutator } from "../helpers/mutants";
import { envInt } from "../helpers/random";
import { scratchDir } from "../helpers/scratch";
import { FIXTURES, marked } from "../lsp/fixtures";

const MUTANTS = envInt("FIXES", 40);
const ROOT = join(__dirname, "..", "..");

interface Case {
  name: string;
  text: string;
  options: CheckOptions;
}

function cases(): Case[] {
  const all: Case[] = [];
  const everyFixture = process.env.FIX_FIXTURES === "all";
  checkTestFixtures().forEach(({ file, text }, i) => {
    if (everyFixture || i % 3 === 0) all.push({ name: `${file} fixture ${i}`, text, options: {} });
  });
  const dir = scratchDir("every-fix");
  for (const [name, fixture] of Object.entries(FIXTURES)) {
    const at = join(dir, name);
    mkdirSync(at, { recursive: true });
    for (const [path, content] of Object.entries((fixture as { files?: Record<string, string> }).files ?? {})) {
      mkdirSync(dirname(join(at, path)), { recursive: true });
      writeFileSync(join(at, path), content);
    }
    const file = join(at, (fixture as { file?: string }).file ?? "agent-sandbox.jsonc");
    if (!file.endsWith("agent-sandbox.jsonc")) continue;
    all.push({ name: `editor fixture ${name}`, text: marked(fixture.text).text, options: relativeAccess(file) });
  }
  for (const file of configsUnder(join(ROOT, "examples"))) all.push({ name: file, text: readFileSync(file, "utf8"), options: relativeAccess(file) });
  const everySection = join(ROOT, "test", "cli", "fixtures", "every-section");
  const mutantDir = join(dir, "mutants");
  cpSync(everySection, mutantDir, { recursive: true });
  const seed = parse(readFileSync(join(everySection, "agent-sandbox.jsonc"), "utf8"));
  const { mutant } = mutator(20261206, keysOf(seed));
  for (let n = 0; n < MUTANTS; n++) all.push({ name: `mutant ${n}`, text: mutant(seed), options: relativeAccess(join(mutantDir, "agent-sandbox.jsonc")) });
  return all;
}

function configsUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return configsUnder(path);
    return name.endsWith("agent-sandbox.jsonc") ? [path] : [];
  });
}

const rank = (s: Severity) => SEVERITIES.indexOf(s);

/** Where `span` is after `edits`: shifted by the edits before it, or, when one edit rewrote all of it, that edit's new text. */
function placeAfter(span: { start: number; end: number }, edits: readonly Edit[]): { start: number; end: number; within?: true } {
  let start = span.start;
  let end = span.end;
  for (const e of edits) {
    if (e.span.start <= span.start && span.end <= e.span.end && e.span.end > e.span.start) {
      const shift = edits.filter((o) => o !== e && o.span.end <= e.span.start).reduce((d, o) => d + o.newText.length - (o.span.end - o.span.start), 0);
      return { start: e.span.start + shift, end: e.span.start + shift + e.newText.length, within: true };
    }
    const delta = e.newText.length - (e.span.end - e.span.start);
    if (e.span.end <= span.start) start += delta;
    if (e.span.end <= span.end) end += delta;
  }
  return { start, end };
}
const counts = (findings: readonly Finding[]) => {
  const map = new Map<string, number>();
  for (const f of findings) map.set(`${f.code} ${f.severity}`, (map.get(`${f.code} ${f.severity}`) ?? 0) + 1);
  return map;
};

/** What is wrong with the result of applying `fix` of `finding`, or undefined. */
export function fixProblem(before: readonly Finding[], finding: Finding, edits: readonly Edit[], after: readonly Finding[]): string | undefined {
  const syntax = (fs: readonly Finding[]) => fs.filter((f) => f.code === "json-syntax").length;
  if (syntax(after) > syntax(before)) return `the file no longer parses: ${after.find((f) => f.code === "json-syntax")!.message}`;
  // The finding's element in the fixed text (a finding on another element may say the same, e.g. of a copy).
  const at = placeAfter(finding.span, edits);
  const there = (f: Finding) => (at.within ? f.span.start >= at.start && f.span.end <= at.end : f.span.start === at.start && f.span.end === at.end);
  if (after.some((f) => f.code === finding.code && f.message === finding.message && there(f))) {
    return "the finding stays, with the same message";
  }
  const errors = (fs: readonly Finding[]) => fs.filter((f) => f.severity === "error").length;
  // A fix of an error may leave another in its place (a misspelt key renamed: its value is checked now), no more.
  if (finding.severity === "error" && errors(after) > errors(before)) return `more errors: ${errors(after)} where there were ${errors(before)}`;
  const was = counts(before);
  for (const [key, n] of counts(after)) {
    const [code, severity] = key.split(" ") as [string, Severity];
    // dotfiles-unprotected judges each deny rule on its own: when a redundant rule goes, another rule can become the
    // one it speaks of, while no decision changes. Its findings are held to this only for its own fixes.
    if (code === "dotfiles-unprotected" && finding.code !== code) continue;
    if (rank(severity) < rank(finding.severity) && n > (was.get(key) ?? 0)) {
      const added = after.filter((f) => f.code === code && f.severity === severity && !before.some((b) => b.code === code && b.message === f.message));
      return `a new ${severity} ${code}: ${added[0]?.message ?? `${n} where there were ${was.get(key) ?? 0}`}`;
    }
  }
  return undefined;
}

test("every offered fix, applied alone, removes its finding, adds nothing more severe, and keeps the file parsing", () => {
  const failures: string[] = [];
  let applied = 0;
  for (const c of cases()) {
    const check = (text: string) => checkConfigText(text, { ...c.options, analysis: true }).findings;
    const before = check(c.text);
    if (before.some((f) => f.code === "json-syntax")) continue;
    for (const finding of before) {
      for (const fix of finding.fixes ?? []) {
        applied++;
        const after = check(applyEdits(c.text, fix.edits));
        const problem = fixProblem(before, finding, fix.edits, after);
        if (problem) failures.push(`${c.name}: ${finding.code} "${fix.title}"${fix.safe ? " (safe)" : ""}: ${problem}\n    finding: ${finding.message}`);
      }
    }
  }
  assert.ok(applied > 200, `only ${applied} fixes were tried`);
  assert.deepEqual(failures, []);
});
