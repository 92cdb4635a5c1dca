/**
 * Export of configs that are wrong in ways no one wrote a test for (the mutation corpus of
 * test/cli/mutatedConfigs.test.ts over its every-section fixture): the exporter never throws, and whatever the
 * config holds (another type where a list was, a NUL character, 3,000-character strings, keys misspelt or moved to
 * another section), the TypeScript still parses (esbuild) and the Python still parses (python3's ast).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { transformSync } from "esbuild";
import { parse } from "jsonc-parser";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { exportConfig } from "../../server/src/engine/export/exportConfig";
import { keysOf, mutator } from "../helpers/mutants";
import { envInt } from "../helpers/random";
import { scratchDir } from "../helpers/scratch";

const MUTANTS = envInt("EXPORT_MUTANTS", 300);
const SEED_CONFIG = join(__dirname, "..", "cli", "fixtures", "every-section", "agent-sandbox.jsonc");

test(`${MUTANTS} mutants of a config with every section export to code that parses, in both languages`, (t) => {
  const seedConfig = parse(readFileSync(SEED_CONFIG, "utf8"));
  const { mutant } = mutator(0x0e_c5, keysOf(seedConfig));
  const dir = scratchDir("export-mutants");
  let exported = 0;
  for (let n = 0; n < MUTANTS; n++) {
    const text = mutant(seedConfig);
    const { model } = checkConfigText(text);
    if (!model) continue;
    exported++;
    const tsCode = exportConfig(model, { to: "ts", readFile: () => "x\u0000\"'\n" });
    assert.doesNotThrow(() => transformSync(tsCode, { loader: "ts" }), `mutant ${n}: the TypeScript does not parse\n${text}\n${tsCode}`);
    writeFileSync(join(dir, `mutant_${n}.py`), exportConfig(model, { to: "py", readFile: () => undefined }));
  }
  assert.ok(exported > MUTANTS / 2, `only ${exported} mutants gave a model`);
  const script = "import ast, pathlib, sys\nfor p in sorted(pathlib.Path(sys.argv[1]).glob('*.py')):\n    try:\n        ast.parse(p.read_text(), str(p))\n    except SyntaxError as e:\n        print(f'{p.name}: {e}')";
  const run = spawnSync("python3", ["-c", script, dir], { encoding: "utf8" });
  if (run.error && (run.error as NodeJS.ErrnoException).code === "ENOENT") {
    t.skip("python3 is not installed here: nothing can parse the exported Python");
    return;
  }
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, "", "mutants whose Python does not parse");
});
