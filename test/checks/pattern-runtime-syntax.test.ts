import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings } from "../helpers/checkFixture";
import { deepagentsJs, deepagentsPy } from "../../server/src/engine/runtime";

const CODE = "pattern-runtime-syntax";

const rules = (paths: string, extra = "") => config(`${extra}"permissions": [
    { "operations": ["read"], "paths": [${paths}], "mode": "deny" }
  ]`);

test("in deepagents-js: a JS-only operator, with a path only JS matches", () => {
  const found = expectFindings(rules(`⟦"/data/@(a|b).txt"⟧, ⟦"/a/(b|c)"⟧, ⟦"/a/b?(c)"⟧, ⟦"/a|/b"⟧, ⟦"/data/!(a).txt"⟧`), CODE);
  assert.ok(found.every((f) => f.severity === "information" && (f.fixes ?? []).length === 0));
  assert.equal(
    found[0]!.message,
    '"@(a|b)" is an extglob, an operator only deepagents-js reads.',
  );
  assert.equal(
    found[0]!.detail,
    '"@(a|b)" is an extglob, a JS-only operator in deepagents-js 1.14.1: deepagents-py and the delete tool\'s literal-path check treat it as text. Here it matches "/data/a.txt", which deepagents-py 0.7.8 does not.',
  );
  assert.equal(found[1]!.message, '"(b|c)" is a group, an operator only deepagents-js reads.');
  assert.match(found[1]!.detail!, /^"\(b\|c\)" is a group, a JS-only operator/);
  assert.equal(found[3]!.message, '"|" is an alternation, an operator only deepagents-js reads.');
  assert.deepEqual(found.map((f) => f.witness), ["/data/a.txt", "/a/b", "/a/bc", "/a", "/data/z.txt"]);
  // The witnesses, by the matchers (G62, G75, G113).
  const pairs: [string, string][] = [["/data/@(a|b).txt", "/data/a.txt"], ["/a/(b|c)", "/a/b"], ["/a/b?(c)", "/a/bc"], ["/a/b?(c)", "/a/b"], ["/a|/b", "/a"], ["/data/!(a).txt", "/data/z.txt"]];
  for (const [pattern, witness] of pairs) {
    assert.ok(deepagentsJs.compilePattern(pattern).matches(witness), pattern);
    assert.ok(!deepagentsPy.compilePattern(pattern).matches(witness), pattern);
  }
});

test("in deepagents-py: these characters are literal here", () => {
  const [finding] = expectFindings(rules(`⟦"/data/@(a|b).txt"⟧`, `"runtime": "deepagents-py",\n  `), CODE);
  assert.equal(
    finding!.message,
    'In deepagents-py 0.7.8, "@(a|b)" is literal text, not an extglob.',
  );
  assert.equal(
    finding!.detail,
    'In deepagents-py 0.7.8, "(", ")" and "|" are literal characters here: "@(a|b)" is not an extglob, and only matches a path that spells it out (for example "/data/@(a|b).txt"). deepagents-js 1.14.1 would read it as an operator (matching "/data/a.txt").',
  );
  assert.ok(deepagentsPy.compilePattern("/data/@(a|b).txt").matches("/data/@(a|b).txt"));
});

test("does not fire on braces, escaped parentheses, parentheses in a class, or a lone `(`", () => {
  expectNoFindings(rules(`"/data/{a,b}.txt", "/x/\\\\(a\\\\)", "/x/[(|]a", "/x/(a", "/x/a)b", "/x/**"`), CODE);
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["read"], "paths": [
    // agent-sandbox-ignore pattern-runtime-syntax
    "/data/@(a|b).txt"
  ] }]`), CODE);
});
