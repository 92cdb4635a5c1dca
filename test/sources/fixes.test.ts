import { before, test } from "node:test";
import assert from "node:assert/strict";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import type { Finding } from "../../server/src/engine/diagnostics";
import { applyEdits } from "../../server/src/engine/fixes";
import { checkSource, loadGrammars, sourceFixtures, type SourceFixture } from "../helpers/sources";

// Quick fixes in source syntax: each fix a check offers on a parity fixture, applied to the source, gives a file
// that still reads as the same agent calls (nothing became dynamic or unreadable), fixes what the config's fix (same
// title) fixes in the equivalent agent-sandbox.jsonc, and makes no finding that fix does not.

before(loadGrammars);

const key = (f: Finding) => `${f.code}: ${f.message}`;

interface Compared {
  fixture: string;
  title: string;
}

function fixesAgree(fixture: SourceFixture): Compared[] {
  const compared: Compared[] = [];
  const fromSource = checkSource(fixture.source, fixture.language);
  const fromConfig = checkConfigText(fixture.config, { analysis: true }).findings;
  for (const finding of fromSource.findings) {
    for (const fix of finding.fixes ?? []) {
      const fixedSource = applyEdits(fixture.source, fix.edits);
      const after = checkSource(fixedSource, fixture.language);
      const where = `${fixture.name}: ${finding.code}: ${fix.title}\n${fixedSource}`;
      assert.equal(after.agents.length, fromSource.agents.length, `${where}: the call still reads`);
      assert.deepEqual(
        after.findings.filter((f) => f.code === "source-dynamic").map(key),
        fromSource.findings.filter((f) => f.code === "source-dynamic").map(key),
        `${where}: nothing became dynamic`,
      );
      const twin = fromConfig.find((c) => key(c) === key(finding))?.fixes?.find((f) => f.title === fix.title);
      if (!twin) continue;
      const fixedConfig = applyEdits(fixture.config, twin.edits);
      const configAfter = checkConfigText(fixedConfig, { analysis: true }).findings;
      const ignored = new Set([...fixture.sourceOnly, "source-dynamic"]);
      // Compared as sets: a value bound once to a name and used twice (a rule in two lists) is fixed in both places
      // by one edit of the source, and in one by the config's fix of one copy.
      const sourceKeys = new Set(after.findings.filter((f) => !ignored.has(f.code)).map(key));
      const configKeys = new Set(configAfter.filter((f) => !ignored.has(f.code)).map(key));
      assert.deepEqual([...sourceKeys].filter((k) => !configKeys.has(k)), [], `${where}: the fix made a finding the config's fix does not`);
      if (!configKeys.has(key(finding))) assert.ok(!sourceKeys.has(key(finding)), `${where}: the finding is still there`);
      compared.push({ fixture: fixture.name, title: fix.title });
    }
  }
  return compared;
}

test("every fix offered on the TypeScript/JavaScript and Python fixtures, re-checked against the config's", () => {
  const compared = [...sourceFixtures("ts"), ...sourceFixtures("py")].flatMap(fixesAgree);
  // Fixes in source syntax exist at all (a renderer that wrote nothing would pass the loop above vacuously).
  assert.ok(compared.length >= 25, `only ${compared.length} fixes compared: ${JSON.stringify(compared)}`);
  assert.ok(compared.some((c) => sourceFixtures("py").some((f) => f.name === c.fixture && c.fixture)), "a Python fix was compared");
});
