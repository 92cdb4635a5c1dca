/**
 * The exported code's shape: pinned on a config that uses every option (TypeScript and Python), type-checked
 * against the real deepagents@1.14.1 declarations, parsed by Python's own parser for the examples and the
 * generated configs, deterministic, and faithful to what the runtime takes as given.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import type { ConfigModel } from "../../server/src/engine/config/model";
import { exportConfig, type ExportOptions } from "../../server/src/engine/export/exportConfig";
import { generateConfig } from "../helpers/deepagentsRuntime";
import { makeRng } from "../helpers/random";
import { scratchDir } from "../helpers/scratch";

const REPO = resolve(__dirname, "../..");
const FIXTURES = join(__dirname, "fixtures");
const EVERY_OPTION = readFileSync(join(FIXTURES, "every-option.agent-sandbox.jsonc"), "utf8");

function modelOf(text: string): ConfigModel {
  const { model } = checkConfigText(text);
  assert.ok(model, "the config must give a model");
  return model;
}

function exported(text: string, to: ExportOptions["to"], options: Omit<ExportOptions, "to"> = {}): string {
  return exportConfig(modelOf(text), { to, ...options });
}

function exampleTexts(): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/(^|\.)agent-sandbox\.jsonc?$/.test(entry)) out.push({ path, text: readFileSync(path, "utf8") });
    }
  };
  walk(join(REPO, "examples"));
  return out;
}

test("a config with every option exports to the pinned TypeScript and Python", () => {
  for (const to of ["ts", "py"] as const) {
    const expected = readFileSync(join(FIXTURES, `every-option.export.${to}.txt`), "utf8");
    assert.equal(exported(EVERY_OPTION, to, { source: "every-option.agent-sandbox.jsonc" }), expected, `--to ${to}`);
  }
});

test("a deepagents-py config exports to the pinned Python: FilesystemPermission rules, interrupt mode, the middleware's _permissions, snake_case keys", () => {
  const text = readFileSync(join(FIXTURES, "python-agent.agent-sandbox.jsonc"), "utf8");
  const expected = readFileSync(join(FIXTURES, "python-agent.export.py.txt"), "utf8");
  assert.equal(exported(text, "py", { source: "python-agent.agent-sandbox.jsonc" }), expected);
});

test("the exported TypeScript type-checks against the real deepagents@1.14.1 declarations", () => {
  const dir = scratchDir("export-types");
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"), "dir");
  const files = [join(dir, "every-option.ts")];
  writeFileSync(files[0]!, exported(EVERY_OPTION, "ts"));
  for (const [i, example] of exampleTexts().entries()) {
    const file = join(dir, `example-${i}.ts`);
    writeFileSync(file, exported(example.text, "ts", { readFile: () => "A prompt." }));
    files.push(file);
  }
  const program = ts.createProgram(files, { strict: true, noEmit: true, module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, target: ts.ScriptTarget.ES2022, skipLibCheck: true, types: [] });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
  assert.deepEqual(problems, []);
});

test("the exported Python parses (python3's ast) for the examples, the pinned config and 300 generated configs", (t) => {
  const texts = [EVERY_OPTION, readFileSync(join(FIXTURES, "python-agent.agent-sandbox.jsonc"), "utf8"), ...exampleTexts().map((e) => e.text)];
  const rng = makeRng(0x5eed_0e);
  for (let i = 0; i < 300; i++) texts.push(JSON.stringify(generateConfig(rng)));
  const dir = scratchDir("export-py");
  texts.forEach((text, i) => writeFileSync(join(dir, `agent_${i}.py`), exported(text, "py", { readFile: () => 'A "quoted"\nprompt.' })));
  const script = "import ast, pathlib, sys\nbad = []\nfor p in sorted(pathlib.Path(sys.argv[1]).glob('*.py')):\n    try:\n        ast.parse(p.read_text(), str(p))\n    except SyntaxError as e:\n        bad.append(f'{p.name}: {e}')\nprint('\\n'.join(bad))\nprint(len(list(pathlib.Path(sys.argv[1]).glob('*.py'))), file=sys.stderr)";
  const run = spawnSync("python3", ["-c", script, dir], { encoding: "utf8" });
  if (run.error && (run.error as NodeJS.ErrnoException).code === "ENOENT") {
    t.skip("python3 is not installed here: nothing can parse the exported Python");
    return;
  }
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), "", "files Python cannot parse");
  assert.equal(Number(run.stderr.trim()), texts.length);
});

test("export is deterministic and depends on the config's values, not its layout or comments", () => {
  const compact = JSON.stringify(JSON.parse(EVERY_OPTION));
  for (const to of ["ts", "py"] as const) {
    assert.equal(exported(EVERY_OPTION, to), exported(EVERY_OPTION, to));
    assert.equal(exported(`// a comment\n${compact}`, to), exported(EVERY_OPTION, to));
  }
});

test("values the runtime takes as given are exported as written", () => {
  const config = JSON.stringify({
    version: 1,
    permissions: [
      { operations: "read", paths: ["/secrets/**"], mode: "deny" },
      { operations: ["write"], paths: ["/data/**"], mdoe: "deny" },
    ],
    middleware: [{ type: "filesystem", tools: "read_file" }],
    subagents: [{ name: "worker", description: "w", permissions: null, mode: "handoff" }],
  });
  const tsCode = exported(config, "ts");
  assert.match(tsCode, /\{ operations: "read", paths: \["\/secrets\/\*\*"\], mode: "deny" \}/);
  assert.match(tsCode, /mdoe: "deny"/);
  assert.match(tsCode, /createFilesystemMiddleware\(\{ tools: "read_file" \}\)/);
  assert.match(tsCode, /permissions: null, mode: "handoff"/);
  const pyCode = exported(config, "py");
  assert.match(pyCode, /FilesystemPermission\(operations="read", paths=\["\/secrets\/\*\*"\], mode="deny"\)/);
  assert.match(pyCode, /FilesystemPermission\(operations=\["write"\], paths=\["\/data\/\*\*"\], mdoe="deny"\)/);
  assert.match(pyCode, /FilesystemMiddleware\(tools="read_file"\)/);
  assert.match(pyCode, /"permissions": None/);
});

test("authorization and workspace, which the runtimes lack, become comments; the runtime's keys are not options", () => {
  const example = readFileSync(join(REPO, "examples/research-agent/agent-sandbox.jsonc"), "utf8");
  for (const to of ["ts", "py"] as const) {
    const out = exported(example, to, { readFile: () => "Prompt." });
    const marker = to === "ts" ? "//" : "#";
    assert.ok(out.includes(`${marker} DeerFlow's \`authorization\` block has no createDeepAgent equivalent`), to);
    assert.ok(out.includes(`${marker}     "guest": { "tools": { "allow": ["read_file", "ls", "glob", "grep", "web_search"] } },`), to);
    assert.ok(out.includes(`${marker} \`workspace\``), to);
    for (const key of ["authorization", "workspace", "compatibleWith", "runtime", "version", "fail_closed"]) {
      assert.ok(!new RegExp(`^\\s*"?${key}"?[:=]`, "m").test(out), `${to}: ${key} must not be an option`);
    }
  }
});

test("systemPromptFile: the file's text when it can be read, else an empty prompt and a comment saying so", () => {
  const config = JSON.stringify({ version: 1, systemPromptFile: "./AGENTS.md" });
  assert.match(exported(config, "ts", { readFile: (p) => (p === "./AGENTS.md" ? "Be careful.\n" : undefined) }), /\/\/ From systemPromptFile "\.\/AGENTS\.md"\.\n {4}systemPrompt: "Be careful\.\\n",/);
  assert.match(exported(config, "py", { readFile: () => undefined }), /# systemPromptFile "\.\/AGENTS\.md" could not be read: put the prompt here\.\n {8}system_prompt="",/);
});

test("a backend given as a factory is a function in TypeScript and a lambda in Python (which deepagents-py 0.7 refuses, as the config's check says)", () => {
  const config = JSON.stringify({ version: 1, backend: { type: "sandbox", provider: "modal", factory: true } });
  assert.match(exported(config, "ts"), /\/\/ PLACEHOLDER: a sandbox backend \(modal\), which your application supplies\.\n {4}backend: \(\) => parts\.sandbox\("modal"\),/);
  assert.match(exported(config, "py"), /backend=lambda rt: sandbox\("modal"\),/);
});

test("a config whose runtime is the other language's says so in the header", () => {
  const config = JSON.stringify({ version: 1, runtime: "deepagents-py" });
  assert.match(exported(config, "ts"), /The config's runtime is deepagents-py/);
  assert.doesNotMatch(exported(config, "py"), /The config's runtime/);
});

test("a key given twice keeps its last value and says so, since Python refuses a repeated keyword argument", () => {
  const config = '{ "version": 1, "systemPrompt": "first", "systemPromptFile": "./AGENTS.md", "permissions": [{ "operations": ["read"], "paths": ["/a"], "paths": ["/b"] }] }';
  const tsCode = exported(config, "ts", { readFile: () => "from the file" });
  assert.match(tsCode, /\/\/ systemPrompt is given more than once: the last one counts\.\n {4}systemPrompt: "from the file",/);
  assert.doesNotMatch(tsCode, /"first"/);
  assert.match(tsCode, /permissions: \[\{ operations: \["read"\], paths: \["\/b"\] \}\]/);
  const pyCode = exported(config, "py", { readFile: () => "from the file" });
  assert.equal(pyCode.match(/system_prompt=/g)?.length, 1);
  assert.equal(pyCode.match(/ paths=/g)?.length, 1);
  assert.match(pyCode, /# paths is given more than once: the last one counts\.\n {16}paths=\["\/b"\],/);
});
