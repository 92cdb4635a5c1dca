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
  // The same findings; where one source value stands in two places of the model (a rule list bound once and given
  // twice), the config has it twice and the source once, at the value's one span.
  assert.deepEqual([...new Set(compared.map(key))].sort(), [...new Set(fromConfig.map(key))].sort(), fixture.name);
  const count = (list: Finding[], k: string) => list.filter((f) => key(f) === k).length;
  for (const k of new Set(fromConfig.map(key))) {
    assert.ok(count(compared, k) <= count(fromConfig, k), `${fixture.name}: ${k} said more often in the source`);
    const spans = compared.filter((f) => key(f) === k).map((f) => `${f.span.start}:${f.span.end}`);
    assert.equal(new Set(spans).size, spans.length, `${fixture.name}: ${k} said twice at one span`);
  }
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
    for (const s of sourceFindings) assert.ok(s.span.start < s.span.end && s.span.end <= fixture.source.length, `${fixture.name}: ${k}: an empty or outside span`);
    configFindings.forEach((c, i) => {
      // Paired in file order; a config finding past the source's count shares its value's span with an earlier one.
      const s = sourceFindings[Math.min(i, sourceFindings.length - 1)]!;
      const configText = literal(fixture.config.slice(c.span.start, c.span.end));
      if (configText !== undefined) {
        const value = JSON.parse(`"${configText}"`) as string;
        const fits = (f: Finding) => {
          const sourceText = fixture.source.slice(f.span.start, f.span.end);
          const sourceLiteral = literal(sourceText);
          if (sourceLiteral !== undefined) return sourceLiteral === value;
          return sourceText === value || sourceText.includes(" + ") || /^[A-Za-z_$][\w$]*$/.test(sourceText) || /^[\w$.]+\(/.test(sourceText) || /^new [\w$.]+\(/.test(sourceText);
        };
        assert.ok(fits(s) || sourceFindings.some(fits), `${fixture.name}: ${k}: the source span is ${JSON.stringify(fixture.source.slice(s.span.start, s.span.end))}`);
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
