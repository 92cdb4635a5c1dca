/**
 * The README shows the CLI's output as transcripts (`$ agent-sandbox …` followed by what it prints). Each is run
 * here with the built CLI from the repository's root, and must print what the README says, words and line
 * breaks aside (the README wraps long lines at 120 columns), so that the README cannot drift from the CLI.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { blocks } from "./markdownBlocks";

const ROOT = join(__dirname, "..", "..");
const CLI = join(ROOT, "dist", "cli.js");

/** Every fenced block that starts with `$ agent-sandbox`: its arguments and the output shown under it. */
function transcripts(markdown: string): { args: string[]; shown: string }[] {
  const found: { args: string[]; shown: string }[] = [];
  for (const block of markdown.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
    const [first, ...rest] = block[1]!.split("\n");
    const command = /^\$ agent-sandbox (.*)$/.exec(first!);
    if (!command) continue;
    found.push({ args: command[1]!.split(/\s+/), shown: rest.join("\n") });
  }
  return found;
}

const words = (text: string) => text.split(/\s+/).filter((w) => w !== "");

test("every CLI transcript in the README prints what the README shows", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const shown = transcripts(readme);
  assert.ok(shown.length > 0, "the README has no transcript: this test would check nothing");
  for (const { args, shown: expected } of shown) {
    const run = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    assert.deepEqual(words(run.stdout), words(expected), `agent-sandbox ${args.join(" ")}`);
  }
});

/*
 * Shell blocks. Every ```sh block of the README carries a marker on the line above its fence:
 * - `<!-- runnable -->`: run here, as written, in a clean copy of the checkout (the files git tracks or would
 *   track, as they are in the working tree, with `node_modules` linked in as `npm ci` would have installed it, and
 *   no dist/), with `bash -euo pipefail`; each must exit 0 within its time limit. These are `npm run demo`, the
 *   build and a CLI call, and the .vsix packaging (whose output must then hold the docs each diagnostic links to).
 * - `<!-- ci -->`: `npm ci` and `npm test`, which cannot run here (`npm ci` would replace the installed
 *   node_modules, and `npm test` is this suite). `.ci/run` runs them on a clean clone: each command of such a
 *   block must be one of its lines.
 * A shell block with neither marker fails the test, so no command of the README goes unexercised.
 */

const SHELL = new Set(["sh", "bash", "shell"]);
const readmeShellBlocks = () => blocks(join(ROOT, "README.md")).filter((b) => SHELL.has(b.language));
/** The commands of a block: its lines without comments, split at `&&`. */
const commands = (text: string) =>
  text
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .flatMap((line) => line.split("&&").map((c) => c.trim()));

test("every shell block of the README is marked runnable (run by this test) or ci (run by .ci/run)", () => {
  const shell = readmeShellBlocks();
  assert.ok(shell.length >= 3, "the README's shell blocks were not found");
  for (const b of shell) assert.ok(b.marker === "runnable" || b.marker === "ci", `README.md:${b.line}: a shell block without <!-- runnable --> or <!-- ci -->`);
});

test("the README's ci blocks are commands .ci/run runs on a clean clone", () => {
  const ciLines = readFileSync(join(ROOT, ".ci", "run"), "utf8").split("\n").map((l) => l.trim());
  const ci = readmeShellBlocks().filter((b) => b.marker === "ci");
  assert.ok(ci.length > 0);
  for (const b of ci) {
    for (const command of commands(b.text)) {
      assert.ok(ciLines.some((l) => l === command || l.startsWith(`${command} `)), `README.md:${b.line}: .ci/run does not run "${command}"`);
    }
  }
});

/** The names of the entries of a zip archive (a .vsix), from its central directory. */
function zipEntries(file: string): string[] {
  const zip = readFileSync(file);
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  assert.ok(end >= 0, `${file} is not a zip archive`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50);
    const nameLength = zip.readUInt16LE(at + 28);
    names.push(zip.toString("utf8", at + 46, at + 46 + nameLength));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return names;
}

test("every runnable shell block of the README exits 0 in a clean copy of the checkout", { timeout: 600_000 }, () => {
  const runnable = readmeShellBlocks().filter((b) => b.marker === "runnable");
  assert.ok(runnable.length >= 3, "the README's runnable blocks were not found");
  const copy = mkdtempSync(join(tmpdir(), "agent-sandbox-readme-"));
  try {
    const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
    assert.equal(listed.status, 0, listed.stderr);
    for (const file of listed.stdout.split("\0").filter((f) => f !== "" && existsSync(join(ROOT, f)))) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(ROOT, file), join(copy, file));
    }
    symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
    for (const b of runnable) {
      const run = spawnSync("bash", ["-euo", "pipefail", "-c", b.text], { cwd: copy, encoding: "utf8", timeout: 180_000, env: { ...process.env, NO_COLOR: "1" } });
      assert.equal(run.status, 0, `README.md:${b.line} exited ${run.status ?? run.signal}:\n${b.text}\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
    }
    // The packaging block made the extension: it must ship the docs its diagnostics link to.
    const vsix = readdirSync(copy).filter((f) => f.endsWith(".vsix"));
    assert.equal(vsix.length, 1, "the README's packaging block made no .vsix");
    const entries = zipEntries(join(copy, vsix[0]!));
    for (const page of ["extension/docs/reference/README.md", "extension/docs/checks/rule-shadowed.md", "extension/dist/lsp.js", "extension/readme.md"]) {
      assert.ok(entries.includes(page), `${vsix[0]} lacks ${page}`);
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
