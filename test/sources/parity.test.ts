import { before, test } from "node:test";
import assert from "node:assert/strict";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import type { Finding } from "../../server/src/engine/diagnostics";
import { styleProblems } from "../helpers/messageStyle";
import { checkSource, loadGrammars, sourceFixtures, type SourceFixture } from "../helpers/sources";

// Parity: a source file and the agent-sandbox.jsonc that says the same get the same findings (code and message),
// each at the place in the source where the value is written. Codes only source can give are named on the config's
// first line (`// source only: tools-not-list`).

before(loadGrammars);

const key = (f: Finding) => `${f.code}: ${f.message}`;

/** A string literal's value in either syntax (`"a"`, `'a'`, `` `a` ``), or undefined for anything else. */
function literal(text: string): string | undefined {
  const m = /^(?:[rRbBuU]?)(["'`])([\s\S]*)\1$/.exec(text.trim());
  return m ? m[2] : undefined;
}

function parity(fixture: SourceFixture): void {
  const fromConfig = checkConfigText(fixture.config, { analysis: true }).findings;
  assert.deepEqual(fromConfig.filter((f) => f.code === "schema" || f.code === "json-syntax").map(key), [], `${fixture.name}: the config must be clean`);
  const fromSource = checkSource(fixture.source, fixture.language).findings;
  assert.deepEqual(fromSource.flatMap(styleProblems), []);
  const compared = fromSource.filter((f) => !fixture.sourceOnly.includes(f.code));
  assert.deepEqual(compared.map(key).sort(), fromConfig.map(key).sort(), fixture.name);
  for (const code of fixture.sourceOnly) assert.ok(fromSource.some((f) => f.code === code), `${fixture.name}: ${code} should fire on the source`);
  assert.ok(fromSource.length > 0, `${fixture.name}: a fixture with no finding proves nothing`);
  // Mapped to the source spans: findings paired in file order within one code and message. Where the config's
  // finding is on a string, the source's is on a string literal with the same value, on that name written bare (an
  // option's name, a keyword argument), on a name that gives it (a `@tool` function), or on the runtime's
  // constructor call that a synthesised value comes from (`"type": "filesystem"` from `FilesystemMiddleware(...)`).
  const byKey = (list: Finding[]) => {
    const groups = new Map<string, Finding[]>();
    for (const f of list) groups.set(key(f), [...(groups.get(key(f)) ?? []), f]);
    return groups;
  };
  const sourceGroups = byKey(compared);
  for (const [k, configFindings] of byKey(fromConfig)) {
    const sourceFindings = sourceGroups.get(k)!;
    configFindings.forEach((c, i) => {
      const s = sourceFindings[i]!;
      assert.ok(s.span.start < s.span.end && s.span.end <= fixture.source.length, `${fixture.name}: ${k}: an empty or outside span`);
      const configText = literal(fixture.config.slice(c.span.start, c.span.end));
      if (configText !== undefined) {
        const sourceText = fixture.source.slice(s.span.start, s.span.end);
        const value = JSON.parse(`"${configText}"`) as string;
        const sourceLiteral = literal(sourceText);
        const where = `${fixture.name}: ${k}: the source span is ${JSON.stringify(sourceText)}`;
        if (sourceLiteral !== undefined) assert.equal(sourceLiteral, value, where);
        else assert.ok(sourceText === value || sourceText.includes(" + ") || /^[A-Za-z_$][\w$]*$/.test(sourceText) || /^[\w$.]+\(/.test(sourceText) || /^new [\w$.]+\(/.test(sourceText), where);
      }
    });
  }
}

const ts = sourceFixtures("ts");
const py = sourceFixtures("py");

test("at least ten call shapes in each language", () => {
  assert.ok(ts.length >= 10, `${ts.length} TypeScript/JavaScript fixtures`);
  assert.ok(py.length >= 10, `${py.length} Python fixtures`);
});

for (const fixture of ts) test(`parity, TypeScript/JavaScript: ${fixture.name}`, () => parity(fixture));
for (const fixture of py) test(`parity, Python: ${fixture.name}`, () => parity(fixture));
