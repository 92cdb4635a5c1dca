/**
 * What Create Sample Config writes (client/src/sampleFiles.ts): checked by the engine as `check` and the editor
 * check it. The starter is clean but for its one intentional mistake, and the quick fix the finding offers makes
 * the config and the scenario clean.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { SAMPLE_CONFIG, SAMPLE_FILES, SAMPLE_SCENARIO, TEACHING_FINDINGS } from "../../client/src/sampleFiles";
import { applyEdits } from "../../server/src/engine/fixes";
import { analyze } from "../../server/src/lsp/engineFacade";

const folder = mkdtempSync(join(tmpdir(), "agent-sandbox-sample-"));
after(() => rmSync(folder, { recursive: true, force: true }));
for (const file of SAMPLE_FILES) {
  mkdirSync(dirname(join(folder, file.path)), { recursive: true });
  writeFileSync(join(folder, file.path), file.text);
}
/** Every check, the exact rule analysis included (what `check` runs). */
const findingsOf = (name: string) => analyze(join(folder, name), readFileSync(join(folder, name), "utf8"), { severities: {}, analysis: true });

test("the sample has a config, a scenario and a workspace with files the rules keep out of reach", () => {
  const paths = SAMPLE_FILES.map((f) => f.path);
  assert.ok(paths.includes(SAMPLE_CONFIG) && paths.includes(SAMPLE_SCENARIO));
  assert.ok(paths.includes("sample-workspace/.env") && paths.some((p) => p.startsWith("sample-workspace/secrets/")));
  assert.equal(new Set(paths).size, paths.length);
});

test("the starter reports only its intentional mistake, and the scenario only the step that shows it", () => {
  const config = findingsOf(SAMPLE_CONFIG);
  assert.deepEqual(config.findings.map((f) => f.code), [TEACHING_FINDINGS[SAMPLE_CONFIG]]);
  assert.equal(config.findings[0]!.severity, "warning", "a warning: check exits 0");
  const scenario = findingsOf(SAMPLE_SCENARIO);
  assert.deepEqual(scenario.findings.map((f) => f.code), [TEACHING_FINDINGS[SAMPLE_SCENARIO]]);
  assert.match(scenario.findings[0]!.message, /Expected permission-denied, but the dry run gives ok\./);
});

test("the finding's quick fix makes both files clean", () => {
  const config = findingsOf(SAMPLE_CONFIG);
  const fix = config.findings[0]!.fixes!.find((f) => f.title === 'Change to "/workspace/docs/**"');
  assert.ok(fix, config.findings[0]!.fixes!.map((f) => f.title).join(", "));
  writeFileSync(join(folder, SAMPLE_CONFIG), applyEdits(config.text, fix.edits));
  assert.deepEqual(findingsOf(SAMPLE_CONFIG).findings.map((f) => `${f.code}: ${f.message}`), []);
  assert.deepEqual(findingsOf(SAMPLE_SCENARIO).findings.map((f) => `${f.code}: ${f.message}`), []);
});
