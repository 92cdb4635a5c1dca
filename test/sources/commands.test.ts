/**
 * `explain`, `tools`, `prompt`, `map` and `dry-run` on a source file's call (`FILE`, `FILE:LINE`): on every parity
 * fixture (test/sources/fixtures), the same stdout and exit code as on the fixture's equivalent agent-sandbox.jsonc.
 * What the file computes at run time is said once on stderr.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { runCli } from "../helpers/cli";
import { loadGrammars, sourceFixtures, type SourceFixture } from "../helpers/sources";
import { scratchDir } from "../helpers/scratch";

before(loadGrammars);

const run = runCli;

/** A folder with the fixture's source, its config, a sample workspace, and a scenario naming each. */
function setUp(fixture: SourceFixture) {
  const dir = scratchDir("source-commands");
  const source = join(dir, basename(fixture.file));
  copyFileSync(fixture.file, source);
  const config = join(dir, "agent-sandbox.jsonc");
  writeFileSync(config, fixture.config);
  const workspace = join(dir, "sample");
  mkdirSync(join(workspace, "secrets"), { recursive: true });
  writeFileSync(join(workspace, ".env"), "TOKEN=1\n");
  writeFileSync(join(workspace, "README.md"), "# Sample\n");
  writeFileSync(join(workspace, "secrets", "key"), "k\n");
  const steps = [
    { tool: "read_file", args: { file_path: "/workspace/.env" } },
    { tool: "write_file", args: { file_path: "/secrets/x", content: "x" } },
    { tool: "ls", args: { path: "/" } },
  ];
  const scenario = (name: string, target: string) => {
    const file = join(dir, `${name}.dryrun.jsonc`);
    writeFileSync(file, JSON.stringify({ config: target, steps }));
    return file;
  };
  return { dir, source, config, workspace, sourceScenario: scenario("source", basename(source)), configScenario: scenario("config", "agent-sandbox.jsonc") };
}

const fixtures = [...sourceFixtures("ts"), ...sourceFixtures("py")];

for (const fixture of fixtures) {
  test(`${fixture.language === "python" ? "py" : "ts"}/${fixture.name}: explain, tools, prompt, map and dry-run say on the source what they say on the config`, async () => {
    const { dir, source, config, workspace, sourceScenario, configScenario } = setUp(fixture);
    // A fixture whose config names the other runtime's behaviour in a comment only: the file's runtime is the config's.
    const commands: string[][] = [
      ["explain", "--op", "read", "--path", "/workspace/.env", "--format", "json"],
      ["explain", "--op", "write", "--path", "/secrets/x"],
      ["tools", "--format", "json"],
      ["tools"],
      ["prompt", "--format", "json"],
      ["map", "--workspace", workspace, "--format", "json"],
    ];
    for (const command of commands) {
      const [name, ...options] = command;
      const onSource = await run([name!, source, ...options]);
      const onConfig = await run([name!, config, ...options]);
      const what = `${fixture.name}: ${command.join(" ")}`;
      assert.equal(onSource.out, onConfig.out, what);
      assert.equal(onSource.code, onConfig.code, `${what}\n${onSource.err}\n${onConfig.err}`);
      assert.ok(onSource.out.length > 0, what);
      // The line of the call picks it too.
      if (name === "tools" && options.length === 0) {
        const line = fixture.source.slice(0, fixture.source.search(/create_?[dD]eep_?[aA]gent\(|makeAgent\(|cda\(|da\.create/)).split("\n").length;
        assert.equal((await run([name, `${source}:${line}`])).out, onConfig.out, `${what} at line ${line}`);
      }
    }
    const bySource = JSON.parse((await run(["dry-run", sourceScenario, "--format", "json"])).out) as { scenarios: { steps: unknown[]; passed: boolean; runtime: string; error?: string }[] };
    const byConfig = JSON.parse((await run(["dry-run", configScenario, "--format", "json"])).out) as typeof bySource;
    assert.equal(bySource.scenarios[0]!.error, undefined, fixture.name);
    assert.deepEqual(bySource.scenarios[0]!.steps, byConfig.scenarios[0]!.steps, fixture.name);
    assert.equal(bySource.scenarios[0]!.runtime, byConfig.scenarios[0]!.runtime, fixture.name);
    // A recorded run, against the source's call and against the config.
    const recording = join(dir, "run.json");
    writeFileSync(recording, JSON.stringify([{ type: "ai", content: "", tool_calls: [{ id: "c1", name: "read_file", args: { file_path: "/workspace/.env" } }, { id: "c2", name: "write_file", args: { file_path: "/secrets/x", content: "x" } }] }]));
    const recorded = async (target: string) => (JSON.parse((await run(["dry-run", "--from-messages", recording, "--config", target, "--format", "json"])).out) as typeof bySource).scenarios[0]!.steps;
    assert.deepEqual(await recorded(source), await recorded(config), fixture.name);
  });
}

test("a call with dynamic values: the command says once, on stderr, what was not analysed", async () => {
  const dir = scratchDir("source-commands-dynamic");
  const file = join(dir, "agent.py");
  writeFileSync(file, `from deepagents import create_deep_agent
from .rules import load_rules, make_backend

agent = create_deep_agent(permissions=load_rules(), backend=make_backend(), system_prompt="Hi")
`);
  for (const command of [["tools"], ["prompt"], ["explain", "--op", "read", "--path", "/x"]]) {
    const r = await run([command[0]!, file, ...command.slice(1)]);
    assert.equal(r.code, 0, r.err);
    const notes = r.err.split("\n").filter((l) => l.includes("not analysed"));
    assert.equal(notes.length, 1, r.err);
    assert.match(notes[0]!, /agent\.py:4: not analysed, as only running the code would tell: permissions \(load_rules\(\)\); the backend \(make_backend\(\)\); the answer leaves them out$/);
  }
  // check's JSON lists them once, where each is written.
  const checked = JSON.parse((await run(["check", file, "--format", "json"])).out) as { files: { dynamic: { range: { start: { line: number; character: number } }; reason: string }[] }[] };
  assert.deepEqual(checked.files[0]!.dynamic.map((d) => [d.range.start, d.reason]), [
    [{ line: 3, character: 38 }, "permissions: load_rules() could not be read without running the code"],
    [{ line: 3, character: 60 }, "the backend: make_backend() could not be read without running the code"],
  ]);
  // A scenario naming the file runs, and notes the same.
  writeFileSync(join(dir, "a.dryrun.jsonc"), JSON.stringify({ config: "agent.py:4", steps: [{ tool: "ls", args: { path: "/" } }] }));
  const dry = JSON.parse((await run(["dry-run", join(dir, "a.dryrun.jsonc"), "--format", "json"])).out) as { scenarios: { notes: string[]; runtime: string }[] };
  assert.equal(dry.scenarios[0]!.runtime, "deepagents-py 0.7.8");
  assert.ok(dry.scenarios[0]!.notes.some((n) => /^not read from the source, as only running it would tell: permissions \(load_rules\(\)\); the backend/.test(n)), JSON.stringify(dry));
});

test("a scenario naming a file with several calls, or a line with none, cannot run and says which lines to choose", async () => {
  const dir = scratchDir("source-commands-lines");
  writeFileSync(join(dir, "agents.ts"), `import { createDeepAgent } from "deepagents";\nexport const a = createDeepAgent({});\nexport const b = createDeepAgent({});\n`);
  for (const [config, error] of [["agents.ts", /it has 2 calls of createDeepAgent, on lines 2 and 3: name one as agents\.ts:LINE/i], ["agents.ts:1", /line 1 is on no call of createDeepAgent/i]] as const) {
    writeFileSync(join(dir, "s.dryrun.jsonc"), JSON.stringify({ config, steps: [{ tool: "ls", args: { path: "/" } }] }));
    const r = await run(["dry-run", join(dir, "s.dryrun.jsonc"), "--format", "json"]);
    assert.equal(r.code, 1);
    assert.match((JSON.parse(r.out) as { scenarios: { error: string }[] }).scenarios[0]!.error, error);
    const check = JSON.parse((await run(["check", join(dir, "s.dryrun.jsonc"), "--format", "json"])).out) as { files: { diagnostics: { code: string; detail: string }[] }[] };
    const [finding] = check.files[0]!.diagnostics;
    assert.equal(finding!.code, "scenario-config-invalid");
    assert.match(finding!.detail, error);
  }
  writeFileSync(join(dir, "s.dryrun.jsonc"), JSON.stringify({ config: "agents.ts:3", steps: [{ tool: "ls", args: { path: "/" } }] }));
  assert.equal((await run(["dry-run", join(dir, "s.dryrun.jsonc")])).code, 0);
});
