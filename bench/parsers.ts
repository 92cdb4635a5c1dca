/**
 * The parser comparison of README.md ("Dependencies"): tree-sitter (the product's choice) against the TypeScript
 * compiler API, @babel/parser and oxc-parser, on a 2,000-line TypeScript file with one agent call, parsed whole
 * (process CPU time, median of rounds after a warm-up), and on the same file cut in the middle of the call (error
 * recovery: does the call's options object survive?). Python: only tree-sitter reads it.
 *
 * @babel/parser and oxc-parser are not dependencies: give a folder where they are installed.
 * Alone: node --import tsx bench/parsers.ts [--others DIR]
 */
import { join } from "node:path";
import { medianCpuMs } from "./measure";
import ts from "typescript";
import { clearCaches } from "../server/src/engine/caches";
import { grammarFiles } from "../server/src/host/grammarFiles";
import { loadLanguage, withTree } from "../server/src/engine/sources/treeSitter";

const others = process.argv.includes("--others") ? process.argv[process.argv.indexOf("--others") + 1]! : undefined;

/** A 2,000-line module: helpers, types and one createDeepAgent call in the middle. */
export function twoThousandLines(language: "typescript" | "python"): string {
  const lines: string[] = [];
  if (language === "typescript") {
    lines.push(`import { createDeepAgent, createFilesystemMiddleware } from "deepagents";`);
    for (let i = 0; lines.length < 1000; i++) lines.push(`export function helper${i}(value: number): number {`, `  return value * ${i} + ${i % 7};`, `}`);
    lines.push(
      `export const agent = createDeepAgent({`,
      `  permissions: [{ operations: ["read", "write"], paths: ["secrets/**"], mode: "deny" }],`,
      `  middleware: [createFilesystemMiddleware({ tools: ["ls", "glob"] })],`,
      `});`,
    );
    for (let i = 0; lines.length < 2000; i++) lines.push(`export interface Record${i} {`, `  id: string;`, `  count: number;`, `}`);
  } else {
    lines.push(`from deepagents import create_deep_agent, FilesystemPermission`, `from deepagents.middleware import FilesystemMiddleware`);
    for (let i = 0; lines.length < 1000; i++) lines.push(`def helper_${i}(value):`, `    return value * ${i} + ${i % 7}`, ``);
    lines.push(
      `agent = create_deep_agent(`,
      `    permissions=[FilesystemPermission(operations=["read", "write"], paths=["secrets/**"], mode="deny")],`,
      `    middleware=[FilesystemMiddleware(tools={"ls", "glob"})],`,
      `)`,
    );
    for (let i = 0; lines.length < 2000; i++) lines.push(`class Record${i}:`, `    id = ${i}`, ``);
  }
  return lines.slice(0, 2000).join("\n") + "\n";
}

const cpuMs = (run: () => void, rounds = 15): number => medianCpuMs(run, rounds, 5);

async function main(): Promise<void> {
  await loadLanguage("typescript", grammarFiles);
  await loadLanguage("python", grammarFiles);
  const source = twoThousandLines("typescript");
  const python = twoThousandLines("python");
  // Cut after `tools: ["ls"`: a half-typed call.
  const cut = source.slice(0, source.indexOf(`"glob"`));
  const rows: [string, string, string][] = [];
  const row = (name: string, ms: number, recovery: string) => rows.push([name, ms.toFixed(2), recovery]);

  // Parsed whole each time: the tree kept for an incremental parse of the same text is dropped first.
  row("tree-sitter (TypeScript grammar)", cpuMs(() => (clearCaches(), withTree("typescript", source, () => undefined))), recoveredTreeSitter(cut));
  row("tree-sitter (Python grammar)", cpuMs(() => (clearCaches(), withTree("python", python, () => undefined))), "(same parser; Python 2,000 lines)");
  row("TypeScript compiler API", cpuMs(() => ts.createSourceFile("a.ts", source, ts.ScriptTarget.Latest, true)), recoveredTypeScript(cut));
  if (others) {
    const babel = require(join(others, "node_modules/@babel/parser")) as { parse(text: string, options: object): unknown };
    const options = { sourceType: "module", plugins: ["typescript"], errorRecovery: true };
    row("@babel/parser", cpuMs(() => babel.parse(source, options)), recoveredBabel(() => babel.parse(cut, options)));
    const oxc = require(join(others, "node_modules/oxc-parser")) as { parseSync(name: string, text: string): { program: unknown; errors: unknown[] } };
    row("oxc-parser", cpuMs(() => oxc.parseSync("a.ts", source)), recoveredOxc(oxc.parseSync("a.ts", cut)));
  }
  console.log(`2,000-line file, ${source.length} characters; ms of CPU, median of 15 rounds\n`);
  console.log("| parser | ms | a call cut after `\"ls\", ` |");
  console.log("| --- | --- | --- |");
  for (const [name, ms, recovery] of rows) console.log(`| ${name} | ${ms} | ${recovery} |`);
}

function recoveredTreeSitter(text: string): string {
  return withTree("typescript", text, (tree) => {
    const pairs = tree.rootNode.descendantsOfType("pair").filter((p) => p?.childForFieldName("key")?.text === "permissions");
    return pairs.length ? "the `permissions` pair is in the tree (under an ERROR node)" : "lost";
  })!;
}

function recoveredTypeScript(text: string): string {
  const file = ts.createSourceFile("a.ts", text, ts.ScriptTarget.Latest, true);
  let found = false;
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && node.name.getText(file) === "permissions") found = true;
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found ? "the `permissions` property is in the tree" : "lost";
}

function recoveredBabel(parse: () => unknown): string {
  try {
    return JSON.stringify(parse()).includes(`"name":"permissions"`) ? "the `permissions` property is in the tree" : "lost";
  } catch (error) {
    return `throws: ${(error as Error).message.split("\n")[0]}`;
  }
}

function recoveredOxc(result: { program: unknown; errors: unknown[] }): string {
  return JSON.stringify(result.program).includes(`"name":"permissions"`) ? "the `permissions` property is in the tree" : `lost (${result.errors.length} errors, empty program)`;
}

// Run alone, not when bundled into the whole benchmark (bench/build.mjs puts every module in one file).
if (process.argv[1]?.endsWith("parsers.ts")) void main();
