/**
 * The layout ARCHITECTURE.md describes, held to the code: every diagnostic code is findable from its name alone
 * (a check file, a docs page, a test), and the layers import only downwards. ESLint's import-boundary rules
 * (eslint.config.mjs) say the same for an editor; this test is what `npm test` runs.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { builtinModules } from "node:module";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { ANALYSIS_CHECKS, BUILT_IN_CHECKS, CHECKS as CONFIG_CHECKS, knownCodes } from "../../server/src/engine/checks/index";
import { SCENARIO_CHECKS } from "../../server/src/engine/checks/scenarioChecks";

const ROOT = join(__dirname, "..", "..");
const SRC = join(ROOT, "server", "src");
const ENGINE = join(SRC, "engine");
const CHECKS = join(ENGINE, "checks");
const posix = (p: string) => p.split(sep).join("/");

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (/\.tsx?$/.test(e.name)) yield p;
  }
}

/** The source without comments, so that a path named in a doc comment is not taken for an import. */
function code(file: string): string {
  return readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** Every module a file imports: `import … from`, `export … from`, `import type`, `require(…)`, `import(…)`. */
function importsOf(file: string): string[] {
  return [...code(file).matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)].map((m) => m[1]!);
}

/** The file a relative specifier names (`undefined` for a package). */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, "index.ts")]) if (/\.(ts|json)$/.test(candidate) && existsSync(candidate)) return candidate;
  return base;
}

const NODE_BUILTINS = new Set(builtinModules);
const isBuiltin = (specifier: string) => specifier.startsWith("node:") || NODE_BUILTINS.has(specifier.split("/")[0]!);
/** `@scope/name` or `name`, without a path inside the package. */
const packageOf = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
const inside = (file: string, dir: string) => file === dir || file.startsWith(dir + sep);

/** `path-not-absolute` → `path/pathNotAbsolute.ts`: the code's first word in the singular, then the code in camelCase. */
function checkFileOf(code: string): string {
  const first = code.split("-")[0]!;
  const folder = first.endsWith("s") && !first.endsWith("ss") ? first.slice(0, -1) : first;
  return `${folder}/${code.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())}.ts`;
}

const CODES = knownCodes().filter((c) => c !== "internal-error");

test("every code of the catalogue has a check file named by it, a docs page and a test that shows it firing", () => {
  assert.ok(CODES.length > 50, "the catalogue was read");
  const checkTests = [...sources(join(ROOT, "test", "checks"))].map((f) => ({ file: f, text: readFileSync(f, "utf8") }));
  const missing: string[] = [];
  for (const c of CODES) {
    const file = join(CHECKS, checkFileOf(c));
    if (!existsSync(file)) missing.push(`${c}: no check file ${posix(relative(ROOT, file))}`);
    else if (!new RegExp(`^\\s+code:\\s*"${c}"\\s*(?:,|$)`, "m").test(readFileSync(file, "utf8"))) missing.push(`${c}: ${posix(relative(ROOT, file))} declares another code`);
    if (!existsSync(join(ROOT, "docs", "checks", `${c}.md`))) missing.push(`${c}: no page docs/checks/${c}.md`);
    // A test that names the code and asks for its findings (a fixture with ⟦range⟧ markers, or the findings' codes).
    const shows = checkTests.some(({ text }) => text.includes(`"${c}"`) && /expectFindings\(|⟦|\.code\b/.test(text));
    if (!shows) missing.push(`${c}: no test under test/checks/ names it and asks for its findings`);
  }
  assert.deepEqual(missing, []);
});

test("every check file's severity is the one its docs page states first", () => {
  const checks = [...BUILT_IN_CHECKS, ...CONFIG_CHECKS, ...ANALYSIS_CHECKS, ...SCENARIO_CHECKS];
  assert.deepEqual(checks.map((c) => c.code).sort(), [...CODES].sort(), "every code's check is registered");
  const differ = checks.flatMap((c) => {
    const page = readFileSync(join(ROOT, "docs", "checks", `${c.code}.md`), "utf8");
    const stated = /\*\*Severity:\*\*\s*([a-z]+)/.exec(page)?.[1];
    return stated === c.severity ? [] : [`${c.code}: the check says ${c.severity}, its page ${stated ?? "nothing"}`];
  });
  assert.deepEqual(differ, []);
});

test("every file under checks/ is a check of a known code, a registry or contract at the top, or a shared helper", () => {
  const TOP = new Set(["index.ts", "check.ts", "scenarioChecks.ts", "scenarioCheck.ts"]);
  const stray: string[] = [];
  for (const file of sources(CHECKS)) {
    const at = posix(relative(CHECKS, file));
    if (TOP.has(at) || at.startsWith("common/")) continue;
    const declared = /^\s+code:\s*"([a-z0-9-]+)"\s*(?:,|$)/m.exec(readFileSync(file, "utf8"))?.[1];
    if (!declared) stray.push(`${at}: declares no code (a helper belongs in checks/common/)`);
    else if (!CODES.includes(declared)) stray.push(`${at}: ${declared} is not in the catalogue (checks/index.ts knownCodes)`);
    else if (checkFileOf(declared) !== at) stray.push(`${at}: the check of ${declared} belongs at checks/${checkFileOf(declared)}`);
  }
  assert.deepEqual(stray, []);
});

test("the engine imports nothing from the hosts, nothing of node: and no package but its own (jsonc-parser, picomatch, refa; yaml and tree-sitter for the front ends)", () => {
  // yaml: the DeerFlow front end reads config.yaml and SKILL.md frontmatter with source ranges (engine/deerflow/).
  // @vscode/tree-sitter-wasm: the source front ends' parser (engine/sources/), given its .wasm bytes by the host.
  const ENGINE_PACKAGES = new Set(["jsonc-parser", "picomatch", "refa", "yaml", "@vscode/tree-sitter-wasm"]);
  const offenders: string[] = [];
  for (const file of sources(ENGINE)) {
    for (const specifier of importsOf(file)) {
      const target = resolveImport(file, specifier);
      const where = `${posix(relative(ROOT, file))}: ${specifier}`;
      if (target === undefined) {
        if (isBuiltin(specifier)) offenders.push(`${where} (node)`);
        else if (!ENGINE_PACKAGES.has(packageOf(specifier))) offenders.push(`${where} (a package the engine does not use)`);
      } else if (!inside(target, ENGINE) && !inside(target, join(ROOT, "schemas"))) {
        offenders.push(`${where} (outside the engine)`);
      }
    }
  }
  assert.deepEqual(offenders, []);
});

test("no check branches on a runtime's name or uses a matcher library: runtime differences go through the Runtime", () => {
  const offenders: string[] = [];
  for (const file of sources(CHECKS)) {
    const text = code(file);
    const where = posix(relative(ROOT, file));
    if (/\.id\s*[!=]==?|[!=]==?\s*[\w.]+\.id\b|\bid\s*:\s*["']deepagents/.test(text)) offenders.push(`${where}: compares a runtime's id`);
    if (/(?<![`\w])["']deepagents-(js|py)["']/.test(text)) offenders.push(`${where}: names a runtime id as a string`);
    for (const specifier of importsOf(file)) if (/^(picomatch|micromatch|refa|jsonc-parser)$/.test(specifier)) offenders.push(`${where}: imports ${specifier}`);
  }
  assert.deepEqual(offenders, []);
});

/** The engine's folders below the checks: they answer questions about a config; only a check words a finding. */
const BELOW_CHECKS = ["config", "runtime", "permissions", "automata", "agents", "authorization", "dryrun", "workspace"];

test("the folders below the checks (the automata among them) import nothing from the checks", () => {
  const offenders = BELOW_CHECKS.flatMap((dir) =>
    [...sources(join(ENGINE, dir))].flatMap((file) =>
      importsOf(file).filter((s) => inside(resolveImport(file, s) ?? "", CHECKS)).map((s) => `${posix(relative(ROOT, file))}: ${s}`),
    ),
  );
  assert.deepEqual(offenders, []);
});

test("the dry-run runner reaches no module that can start a process or write a file, through any chain of imports", () => {
  const CANNOT = /^(node:)?(fs|fs\/promises|child_process|net|http|https|http2|dgram|worker_threads|cluster|vm)$|^deepagents$/;
  const offenders: string[] = [];
  const seen = new Set<string>();
  const queue = [...sources(join(ENGINE, "dryrun")), ...sources(join(ENGINE, "workspace"))];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith(".ts")) continue;
    for (const specifier of importsOf(file)) {
      const target = resolveImport(file, specifier);
      if (target) queue.push(target);
      else if (CANNOT.test(specifier) || isBuiltin(specifier)) offenders.push(`${posix(relative(ROOT, file))}: ${specifier}`);
    }
  }
  assert.ok(seen.size > 20, "the runner's imports were followed");
  assert.deepEqual(offenders, []);
});

test("the hosts share code through host/ only: the CLI and the language server import nothing of each other", () => {
  const CLI = join(SRC, "cli");
  const LSP = join(SRC, "lsp");
  const HOST = join(SRC, "host");
  const offenders: string[] = [];
  for (const [dir, others] of [[CLI, [LSP]], [LSP, [CLI]], [HOST, [CLI, LSP]]] as const) {
    for (const file of sources(dir)) {
      for (const specifier of importsOf(file)) {
        const target = resolveImport(file, specifier);
        if (target && others.some((o) => inside(target, o))) offenders.push(`${posix(relative(ROOT, file))}: ${specifier}`);
      }
    }
  }
  assert.deepEqual(offenders, []);
});
