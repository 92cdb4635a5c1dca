/**
 * `agent-sandbox import FILE[:LINE]`: the agent-sandbox.jsonc a source file's call describes. On every parity
 * fixture (test/sources/fixtures), the imported config is the fixture's own config (the same normalised JSON) and
 * gets the same findings, code and message; a value the front end could not read is a comment saying so.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "jsonc-parser";
import { runCli } from "../helpers/cli";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { dynamicWords, importConfig } from "../../server/src/engine/export/importCall";
import { readAgents } from "../../server/src/engine/sources";
import { loadGrammars, sourceFixtures, type SourceFixture } from "../helpers/sources";
import { scratchDir } from "../helpers/scratch";

before(loadGrammars);

const run = runCli;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * What a call can say, as JSON with sorted keys: the config without agent-sandbox's own keys (`$schema`, `version`,
 * `runtime`, `compatibleWith`: the runtime is the file's language) and those no call has (`workspace`,
 * `authorization`).
 */
export function normalised(config: Json): string {
  const sorted = (v: Json): Json => (Array.isArray(v) ? v.map(sorted) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k]!)])) : v);
  const { $schema: _s, version: _v, runtime: _r, compatibleWith: _c, workspace: _w, authorization: _a, ...rest } = config as Record<string, Json>;
  return JSON.stringify(sorted(rest));
}

const key = (f: { code: string; message: string }) => `${f.code}: ${f.message}`;
const fixtures = [...sourceFixtures("ts"), ...sourceFixtures("py")];

function imported(fixture: SourceFixture) {
  const agents = readAgents(fixture.source, fixture.language);
  assert.equal(agents.length, 1, `${fixture.name}: one call`);
  const [agent] = agents;
  return { agent: agent!, text: importConfig(agent!.config.root, agent!.config.dynamic, { runtime: agent!.model.runtime.id }) };
}

for (const fixture of fixtures) {
  test(`import ${fixture.language === "python" ? "py" : "ts"}/${fixture.name}: the fixture's config, and its findings`, () => {
    const { agent, text } = imported(fixture);
    const errors: { error: number; offset: number }[] = [];
    const json = parse(text, errors as never, { allowTrailingComma: false }) as Json;
    assert.deepEqual(errors, [], `${fixture.name}: the imported config parses\n${text}`);
    for (const d of agent.config.dynamic) assert.ok(text.includes(`// ${dynamicWords(d)}`), `${fixture.name}: ${d.what} is a comment\n${text}`);
    if (agent.config.dynamic.length > 0) return;
    assert.equal(normalised(json), normalised(parse(fixture.config) as Json), `${fixture.name}\n${text}`);
    // The same findings as the fixture's config (a code only source can give is in neither).
    const fromImport = checkConfigText(text, { analysis: true }).findings.map(key).sort();
    const fromConfig = checkConfigText(fixture.config, { analysis: true }).findings.map(key).sort();
    assert.deepEqual(fromImport, fromConfig, `${fixture.name}\n${text}`);
  });
}

test("each value that could not be read is a comment in the innermost object or list that holds it", () => {
  const source = `import { createDeepAgent, createFilesystemMiddleware } from "deepagents";
import { base, loadRules, makeBackend, more, searchTool } from "./helpers";
import { tool } from "@langchain/core/tools";

export const agent = createDeepAgent({
  ...base(),
  permissions: loadRules(),
  tools: [searchTool(), tool(fn, { name: "web_search" })],
  subagents: [{ name: "x", description: "y", tools: [searchTool()] }],
  middleware: [createFilesystemMiddleware({ tools: ["read_file"], permissions: more })],
  backend: makeBackend(),
});
`;
  const [agent] = readAgents(source, "typescript");
  const text = importConfig(agent!.config.root, agent!.config.dynamic, { runtime: "deepagents-js", source: "agent.ts:5", callee: "createDeepAgent" });
  assert.equal(text, `// The agent read by agent-sandbox from agent.ts:5 (createDeepAgent), without running it.
// 6 values could not be read: each is a comment where it belongs, and the checks that need it stay silent.
{
  "version": 1,
  "runtime": "deepagents-js",
  // options: base() could not be read without running the code
  // permissions: loadRules() could not be read without running the code
  "tools": [
    // a tool in the agent's tools: searchTool() could not be read without running the code
    "web_search"
  ],
  "subagents": [
    {
      "name": "x",
      "description": "y",
      "tools": [
        // a tool in the tools of subagent x: searchTool() could not be read without running the code
      ]
    }
  ],
  "middleware": [
    {
      "type": "filesystem",
      "tools": ["read_file"]
      // the permissions of the filesystem middleware of the agent: more could not be read without running the code
    }
  ]
  // the backend: makeBackend() could not be read without running the code
}
`);
  const errors: unknown[] = [];
  parse(text, errors as never, { allowTrailingComma: false });
  assert.deepEqual(errors, []);
});

// ---------------------------------------------------------------------------------------------------------
// The command
// ---------------------------------------------------------------------------------------------------------

const TWO_CALLS = `import { createDeepAgent } from "deepagents";
import { loadRules } from "./rules";

export const reader = createDeepAgent({
  permissions: loadRules(),
  tools: [],
});

export const writer = createDeepAgent({
  permissions: [{ operations: ["write"], paths: ["/**"], mode: "deny" }],
});
`;

test("import FILE:LINE prints the call's config; with several calls and no line, a usage error lists them", async () => {
  const dir = scratchDir("import-cli");
  const file = join(dir, "agents.ts");
  writeFileSync(file, TWO_CALLS);
  const ambiguous = await run(["import", file]);
  assert.equal(ambiguous.code, 2);
  assert.equal(ambiguous.out, "");
  assert.match(ambiguous.err, /agents\.ts: it has 2 calls of createDeepAgent, on lines 4 and 9: name one as agents\.ts:LINE \(.*agents\.ts:4, .*agents\.ts:9\)\n/);
  const off = await run(["import", `${file}:8`]);
  assert.equal(off.code, 2);
  assert.match(off.err, /line 8 is on no call of createDeepAgent; its calls are on lines 4 and 9/);
  // Any line of the call picks it, not only its first.
  const reader = await run(["import", `${file}:5`]);
  assert.equal(reader.code, 0, reader.err);
  assert.match(reader.out, /^\/\/ The agent read by agent-sandbox from .*agents\.ts:4 \(createDeepAgent\), without running it\.\n/);
  assert.match(reader.out, /\n {2}\/\/ permissions: loadRules\(\) could not be read without running the code\n/);
  assert.deepEqual(parse(reader.out), { version: 1, runtime: "deepagents-js", tools: [] });
  assert.equal(reader.err, `agent-sandbox: note: ${reader.out.match(/from (\S+agents\.ts:4)/)![1]}: one value could not be read and is a comment in the config: permissions: loadRules() could not be read without running the code\n`);
  const writer = await run(["import", `${file}:9`, "--format", "json"]);
  const json = JSON.parse(writer.out) as { source: string; line: number; runtime: string; config: string; dynamic: unknown[] };
  assert.deepEqual([json.line, json.runtime, json.dynamic], [9, "deepagents-js", []]);
  assert.deepEqual(parse(json.config), { version: 1, runtime: "deepagents-js", permissions: [{ operations: ["write"], paths: ["/**"], mode: "deny" }] });
});

test("--out writes the file, and overwrites one only with --force", async () => {
  const dir = scratchDir("import-out");
  const file = join(dir, "agent.py");
  writeFileSync(file, 'from deepagents import create_deep_agent\nagent = create_deep_agent(system_prompt="Hi", permissions=[])\n');
  const out = join(dir, "agent-sandbox.jsonc");
  const first = await run(["import", file, "--out", out]);
  assert.equal(first.code, 0, first.err);
  assert.equal(first.out, "");
  assert.match(first.err, /wrote .*agent-sandbox\.jsonc from .*agent\.py:2\n$/);
  assert.deepEqual(parse(readFileSync(out, "utf8")), { version: 1, runtime: "deepagents-py", systemPrompt: "Hi", permissions: [] });
  writeFileSync(out, "mine");
  const refused = await run(["import", file, "--out", out]);
  assert.equal(refused.code, 2);
  assert.match(refused.err, /agent-sandbox\.jsonc exists; give --force to overwrite it/);
  assert.equal(readFileSync(out, "utf8"), "mine");
  assert.equal((await run(["import", file, "--write", out, "--force"])).code, 0);
  assert.notEqual(readFileSync(out, "utf8"), "mine");
});

test("usage errors and unreadable files exit 2 and say why", async () => {
  const dir = scratchDir("import-usage");
  const config = join(dir, "agent-sandbox.jsonc");
  writeFileSync(config, '{ "version": 1 }');
  const plain = join(dir, "plain.py");
  writeFileSync(plain, "import os\n");
  const cases: [string[], RegExp][] = [
    [["import"], /import takes exactly one CONFIG file/],
    [["import", config], /import reads a source file \(.*\) that calls createDeepAgent or create_deep_agent; .*agent-sandbox\.jsonc is not one/],
    [["import", plain], /plain\.py: it has no call of create_deep_agent imported from deepagents/],
    [["import", join(dir, "missing.ts")], /cannot read .*missing\.ts: no such file/],
    [["import", `${config}:3`], /a :LINE picks one call in a source file/],
    [["import", plain, "--force"], /--force goes with --out PATH/],
    [["import", plain, "--out", "a", "--write", "b"], /--out and --write name the same file; give one/],
    [["import", plain, "--to", "ts"], /import takes no --to/],
  ];
  for (const [args, message] of cases) {
    const r = await run(args);
    assert.equal(r.code, 2, args.join(" "));
    assert.equal(r.out, "", args.join(" "));
    assert.match(r.err, message, args.join(" "));
  }
  assert.ok(!existsSync(join(dir, "a")));
});

test("the usage lists import and what CONFIG may be", async () => {
  const help = (await run(["--help"])).out;
  assert.match(help, /agent-sandbox import FILE\[:LINE\] \[--out PATH \[--force\]\] \[--format text\|json\]/);
  assert.match(help, /CONFIG: a config file, or a source file that calls createDeepAgent \/ create_deep_agent \(FILE, or FILE:LINE/);
});

test("keys come in the order the source writes them, also for a value bound to a name above the call", () => {
  const source = `import { createDeepAgent } from "deepagents";
const rules = [{ operations: ["read"], paths: ["/secrets/**"], mode: "deny" }];
export const agent = createDeepAgent({
  systemPrompt: "Research.",
  subagents: [{ name: "w", description: "Writes", permissions: rules }],
  permissions: rules,
});
`;
  const [agent] = readAgents(source, "typescript");
  const text = importConfig(agent!.config.root, agent!.config.dynamic, { runtime: "deepagents-js" });
  const order = (keys: string[]) => keys.map((k) => text.indexOf(`"${k}"`));
  const top = order(["systemPrompt", "subagents"]).concat(text.lastIndexOf('"permissions"'));
  assert.deepEqual([...top].sort((a, b) => a - b), top, text);
  const inSubagent = order(["name", "description"]).concat(text.indexOf('"permissions"'));
  assert.deepEqual([...inSubagent].sort((a, b) => a - b), inSubagent, text);
});
