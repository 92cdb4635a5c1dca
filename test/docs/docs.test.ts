/**
 * What a user reads (README.md and docs/) and what ships (server/src, client/src) stands on its own: no section
 * signs of a specification the user does not have, no links to it, every link to a page that exists, and every
 * JSONC example saying what it claims.
 *
 * JSONC blocks (```jsonc) of README.md and docs/**, by the marker comment on the line right above the fence:
 * - no marker: a whole config file. The engine, run as `check` runs it (every check, the exact analysis
 *   included), must find nothing at all, not even information: an example a user copies must be clean.
 * - `<!-- bad-example: code-a, code-b -->`: a whole config that shows a mistake. The engine must report exactly
 *   these codes (each at least once, no other), so a page's example keeps showing what the page is about.
 * - `<!-- fragment -->`: a piece of a config (a rule, a subagent, an `authorization` block, a comment above an
 *   element). It is not a config by itself, so it is only required to parse: as a JSON value, as the members of
 *   an object (`"key": value, …`) or as the elements of a list (`{…},`), comments and trailing commas allowed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse, type ParseError } from "jsonc-parser";
import { checkDryRunText } from "../../server/src/engine/checkDryRun";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { blocks, ROOT, userMarkdown } from "./markdownBlocks";

function filesUnder(dir: string, ends: string[]): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, ends));
    else if (ends.some((e) => name.endsWith(e))) out.push(path);
  }
  return out;
}

/**
 * Diagnostic messages that still cite a section, waiting for the branch that rewrites every message (plain first
 * sentence, the longer story in `detail`). Keyed by file, the number of such lines. Once that branch is merged,
 * this list must be emptied: the test fails on an entry whose file no longer has that many, so it cannot go stale.
 */
const MESSAGES_NOT_YET_REWRITTEN: Record<string, number> = {};

test("nothing a user reads or runs cites a section (§) or links to ../shared", () => {
  const files = [
    ...userMarkdown(),
    ...filesUnder(join(ROOT, "server", "src"), [".ts"]),
    ...filesUnder(join(ROOT, "client", "src"), [".ts"]),
  ];
  assert.ok(files.length > 100);
  const found: string[] = [];
  const sectionLines = new Map<string, number>();
  for (const file of files) {
    const name = relative(ROOT, file);
    readFileSync(file, "utf8").split("\n").forEach((line, i) => {
      if (line.includes("../shared") || /shared\/spec/.test(line)) found.push(`${name}:${i + 1}: ${line.trim()}`);
      if (!line.includes("§")) return;
      const trimmed = line.trim();
      const comment = trimmed.startsWith("*") || trimmed.startsWith("/*") || trimmed.startsWith("//");
      if (!comment && name in MESSAGES_NOT_YET_REWRITTEN) sectionLines.set(name, (sectionLines.get(name) ?? 0) + 1);
      else found.push(`${name}:${i + 1}: ${trimmed}`);
    });
  }
  assert.deepEqual(found, []);
  for (const [name, count] of Object.entries(MESSAGES_NOT_YET_REWRITTEN)) {
    assert.equal(sectionLines.get(name) ?? 0, count, `${name}: update MESSAGES_NOT_YET_REWRITTEN (remove the entry once its messages cite no section)`);
  }
});

/** GitHub's anchor of a heading. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

test("every relative link of README.md and docs/ leads to a file (and heading) that exists", () => {
  let links = 0;
  for (const file of userMarkdown()) {
    const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target)) continue;
      links++;
      const [path, anchor] = target.split("#") as [string, string | undefined];
      const resolved = path === "" ? file : join(dirname(file), decodeURIComponent(path));
      assert.ok(existsSync(resolved), `${relative(ROOT, file)}: the link ${target} leads nowhere`);
      if (anchor && resolved.endsWith(".md")) {
        const headings = readFileSync(resolved, "utf8").split("\n").filter((l) => /^#+ /.test(l)).map((l) => slug(l.replace(/^#+ /, "")));
        assert.ok(headings.includes(anchor), `${relative(ROOT, file)}: ${target} names no heading of ${relative(ROOT, resolved)}`);
      }
    }
  }
  assert.ok(links > 50, `only ${links} links found`);
});

function parsesAsFragment(text: string): boolean {
  for (const [open, close] of [["", ""], ["{", "}"], ["[", "]"]]) {
    const errors: ParseError[] = [];
    parse(`${open}\n${text}\n${close}`, errors, { allowTrailingComma: true });
    if (errors.length === 0) return true;
  }
  return false;
}

test("every JSONC block of README.md and docs/ is clean, a listed bad example, or a fragment that parses", () => {
  const jsonc = userMarkdown().flatMap((f) => blocks(f)).filter((b) => b.language === "jsonc");
  assert.ok(jsonc.length > 90, `only ${jsonc.length} JSONC blocks found`);
  let whole = 0;
  for (const b of jsonc) {
    const where = `${b.file}:${b.line}`;
    if (b.marker === "fragment") {
      assert.ok(parsesAsFragment(b.text), `${where}: a fragment that does not parse`);
      continue;
    }
    if (b.marker === "scenario") {
      // A dry-run scenario: its shape is checked here; what it finds depends on the config and workspace it names,
      // which the page only describes (the scenario checks' own tests run them against real files).
      const shape = checkDryRunText(b.text).findings.filter((f) => f.code === "schema" || f.code === "json-syntax");
      assert.deepEqual(shape.map((f) => f.message), [], `${where}: a scenario of the wrong shape`);
      continue;
    }
    whole++;
    const findings = checkConfigText(b.text, { analysis: true }).findings;
    const codes = [...new Set(findings.map((f) => f.code))].sort();
    const bad = b.marker === undefined ? undefined : /^bad-example:\s*(.+)$/.exec(b.marker);
    assert.ok(b.marker === undefined || bad, `${where}: unknown marker <!-- ${b.marker} -->`);
    const expected = bad ? [...new Set(bad[1]!.split(/[\s,]+/).filter((c) => c !== ""))].sort() : [];
    assert.deepEqual(codes, expected, `${where}: ${findings.map((f) => `${f.code}: ${f.message}`).join("\n") || "no findings"}`);
  }
  assert.ok(whole >= 30, `only ${whole} whole configs checked`);
});

test("the README's example shows what its text says: clean, and what one change makes the product report", () => {
  const example = blocks(join(ROOT, "README.md")).find((b) => b.language === "jsonc" && b.marker === undefined);
  assert.ok(example, "the README's configuration example was not found");
  const codes = (text: string) => [...new Set(checkConfigText(text, { analysis: true }).findings.map((f) => f.code))].sort();
  assert.deepEqual(codes(example.text), []);
  // "Drop the auditor's first rule and subagent-escalation tells you it can now read the secrets".
  const auditorRules = /("permissions": \[\n)(\s*\{ "operations": \["read", "write"\], "paths": \["\/workspace\/secrets\/\*\*"\], "mode": "deny" \},\n)(\s*\{ "operations": \["write"\], "paths": \["\/\*\*"\], "mode": "deny" \}\n)/;
  assert.match(example.text, auditorRules);
  assert.deepEqual(codes(example.text.replace(auditorRules, "$1$3")), ["subagent-escalation"]);
  // "move runtime to deepagents-py and dotfiles-unprotected tells you hidden files under /workspace/secrets (witness /workspace/secrets/.a) are no longer denied".
  const python = checkConfigText(example.text.replace('"runtime": "deepagents-js"', '"runtime": "deepagents-py"'), { analysis: true }).findings;
  assert.deepEqual([...new Set(python.map((f) => f.code))], ["dotfiles-unprotected"]);
  assert.ok(python.some((f) => f.witness === "/workspace/secrets/.a"), JSON.stringify(python.map((f) => f.witness)));
});

test("the CLI links every code to its page in the installed docs (SARIF helpUri, the --severity hint)", () => {
  const cli = join(ROOT, "dist", "cli.js");
  const sarif = spawnSync(process.execPath, [cli, "check", join(ROOT, "examples", "research-agent", "agent-sandbox.jsonc"), "--format", "sarif"], { encoding: "utf8" });
  const rules: { id: string; helpUri: string }[] = JSON.parse(sarif.stdout).runs[0].tool.driver.rules;
  assert.ok(rules.length > 3);
  for (const rule of rules) {
    assert.equal(rule.helpUri, pathToFileURL(join(ROOT, "docs", "checks", `${rule.id}.md`)).href);
    assert.ok(existsSync(fileURLToPath(rule.helpUri)), rule.helpUri);
  }
  const hint = spawnSync(process.execPath, [cli, "check", ".", "--severity", "frobnicate=off"], { encoding: "utf8" }).stderr;
  assert.ok(hint.includes(`every code has a page in ${pathToFileURL(join(ROOT, "docs", "checks")).href})`), hint);
});
