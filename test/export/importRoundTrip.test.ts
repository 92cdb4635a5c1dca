/**
 * The round trip through source code: `export` of a config, then `import` of the exported module, gives back the
 * config, for every example config and the seeded generated configs the export round trip runs in the real
 * runtime (roundTrip.test.ts, same generator and seed).
 *
 * "The same" is defined as:
 * - the same normalised config JSON: the config without the keys a call cannot say (`$schema`, `version`,
 *   `runtime`, `compatibleWith`: the runtime is the file's language; `workspace` and `authorization`, which the
 *   SDKs lack and the export writes as comments) and with a `systemPromptFile` replaced by the prompt it names (the
 *   export inlines it), objects compared with sorted keys; and the model has nothing dynamic;
 * - the same findings, code and message, on the imported config and on that normalised config (the examples'
 *   `compatibleWith` and `authorization` would add findings no call can have), with the runtime of the language;
 * - for Python (whose subagents have no `mode`: left out of the normalised config), also the findings of the exported .py itself (the source front end's, as `check` gives them on
 *   the file) equal to those on the normalised config, deepagents-py's.
 *
 * Size via EXPORT_ROUND_TRIP_CASES (default 300), seed via EXPORT_ROUND_TRIP_SEED.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parse } from "jsonc-parser";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { exportConfig } from "../../server/src/engine/export/exportConfig";
import { importConfig } from "../../server/src/engine/export/importCall";
import { checkSourceText, readAgents } from "../../server/src/engine/sources";
import { generateConfig, type Json } from "../helpers/deepagentsRuntime";
import { envInt, makeRng } from "../helpers/random";
import { loadGrammars } from "../helpers/sources";

const CASES = envInt("EXPORT_ROUND_TRIP_CASES", 300);
const SEED = envInt("EXPORT_ROUND_TRIP_SEED", 0x0e_c5_0a7);
const SHOW = 5;
const REPO = resolve(__dirname, "../..");

before(loadGrammars);

type Obj = Record<string, Json>;
const sorted = (v: Json): Json => (Array.isArray(v) ? v.map(sorted) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k]!)])) : v);

/**
 * The config as a call can say it (see above), for `runtime`. deepagents-py's subagents have no `mode` (the
 * runtime ignores the key, and so does the front end): for Python, a subagent's `mode` is left out too.
 */
function normalised(config: Obj, runtime: string, readFile: (p: string) => string | undefined): Obj {
  const { $schema: _s, version: _v, runtime: _r, compatibleWith: _c, workspace: _w, authorization: _a, systemPromptFile, ...rest } = config;
  const out: Obj = { version: 1, runtime, ...rest };
  if (typeof systemPromptFile === "string") out.systemPrompt = readFile(systemPromptFile) ?? "";
  if (runtime === "deepagents-py" && Array.isArray(out.subagents)) {
    out.subagents = out.subagents.map((s) => {
      if (!s || typeof s !== "object" || Array.isArray(s)) return s;
      const { mode: _m, ...without } = s;
      return without;
    });
  }
  return out;
}

const key = (f: { code: string; message: string }) => `${f.code}: ${f.message}`;
const findingsOf = (text: string) => checkConfigText(text, { analysis: true }).findings.map(key).sort();

/** The disagreements of one config's round trip in one language (none when it comes back the same). */
function roundTrip(name: string, config: Obj, to: "ts" | "py", readFile: (p: string) => string | undefined = () => undefined): string[] {
  const model = checkConfigText(JSON.stringify(config)).model;
  if (!model) return [`${name}: no model`];
  const code = exportConfig(model, { to, readFile });
  const language = to === "ts" ? "typescript" : "python";
  const runtime = to === "ts" ? "deepagents-js" : "deepagents-py";
  const agents = readAgents(code, language);
  if (agents.length !== 1) return [`${name} (${to}): ${agents.length} calls read from the export\n${code}`];
  const agent = agents[0]!;
  const problems: string[] = [];
  if (agent.config.dynamic.length > 0) problems.push(`${name} (${to}): dynamic: ${agent.config.dynamic.map((d) => `${d.what} (${d.expression})`).join("; ")}\n${code}`);
  const imported = importConfig(agent.config.root, agent.config.dynamic, { runtime });
  const expected = normalised(config, runtime, readFile);
  const expectedText = JSON.stringify(expected, null, 2);
  if (JSON.stringify(sorted(parse(imported) as Json)) !== JSON.stringify(sorted(expected))) problems.push(`${name} (${to}): imported\n${imported}\nexpected\n${expectedText}\nfrom\n${code}`);
  const ours = findingsOf(expectedText);
  const theirs = findingsOf(imported);
  if (JSON.stringify(ours) !== JSON.stringify(theirs)) problems.push(`${name} (${to}): findings on the import ${JSON.stringify(theirs)}, on the config ${JSON.stringify(ours)}`);
  if (to === "py") {
    const onSource = checkSourceText(code, "python", { analysis: true }).findings.map(key).sort();
    if (JSON.stringify(onSource) !== JSON.stringify(ours)) problems.push(`${name} (py): findings on the exported .py ${JSON.stringify(onSource)}, on the config ${JSON.stringify(ours)}\n${code}`);
  }
  return problems;
}

function examples(): { name: string; config: Obj; readFile: (p: string) => string | undefined }[] {
  const found: { name: string; config: Obj; readFile: (p: string) => string | undefined }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/(^|\.)agent-sandbox\.jsonc?$/.test(entry)) {
        const readFile = (p: string) => {
          try {
            return readFileSync(resolve(dirname(path), p), "utf8");
          } catch {
            return undefined;
          }
        };
        found.push({ name: path.slice(REPO.length + 1), config: parse(readFileSync(path, "utf8")) as Obj, readFile });
      }
    }
  };
  walk(join(REPO, "examples"));
  return found;
}

for (const to of ["ts", "py"] as const) {
  test(`export --to ${to} then import: every example config comes back the same`, () => {
    const all = examples();
    assert.ok(all.length > 0);
    assert.deepEqual(all.flatMap((e) => roundTrip(e.name, e.config, to, e.readFile)), []);
  });

  test(`export --to ${to} then import: ${CASES} generated configs come back the same`, () => {
    const rng = makeRng(SEED);
    const problems: string[] = [];
    for (let i = 0; i < CASES; i++) problems.push(...roundTrip(`case ${i}`, generateConfig(rng) as Obj, to));
    assert.equal(problems.length, 0, `${problems.length} disagreements, first ${SHOW}:\n${problems.slice(0, SHOW).join("\n\n")}`);
  });
}
