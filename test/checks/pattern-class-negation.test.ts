import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";
import { deepagentsJs, deepagentsPy } from "../../server/src/engine/runtime";

const CODE = "pattern-class-negation";

const rules = (paths: string, extra = "") => config(`${extra}"permissions": [
    { "operations": ["read"], "paths": [${paths}], "mode": "deny" }
  ]`);

test("fires in deepagents-js, with a path the two runtimes decide differently", () => {
  const [finding] = expectFindings(rules(`⟦"/data/[!a].txt"⟧, "/data/[^a].txt"`), CODE);
  assert.equal(finding!.severity, "warning");
  assert.equal(
    finding!.message,
    '"[!a]" is not a negation in deepagents-js 1.14.1: the runtimes decide different files.',
  );
  assert.equal(
    finding!.detail,
    'In deepagents-js 1.14.1, picomatch reads "[!a]" as a plain class that also accepts "!" (and the pattern also matches the literal text "[!a]"), while deepagents-py 0.7.8 reads it as "any character except those listed after !". This rule decides different files in the two runtimes. For example, deepagents-js 1.14.1 matches "/data/a.txt" and deepagents-py 0.7.8 does not, while deepagents-py 0.7.8 matches "/data/b.txt" and deepagents-js 1.14.1 does not. Write "[^a]", which negates in both.',
  );
  assert.equal(finding!.witness, "/data/a.txt");
  // The claims, by the runtimes' own matchers (G54–G55).
  const js = deepagentsJs.compilePattern("/data/[!a].txt");
  const py = deepagentsPy.compilePattern("/data/[!a].txt");
  assert.ok(js.matches("/data/a.txt") && js.matches("/data/!.txt") && js.matches("/data/[!a].txt") && !js.matches("/data/b.txt"));
  assert.ok(!py.matches("/data/a.txt") && py.matches("/data/b.txt"));
});

test("fires when deepagents-js is only in compatibleWith, and in every rule list", () => {
  const found = expectFindings(
    config(`"runtime": "deepagents-py",
  "compatibleWith": ["deepagents-js"],
  "permissions": [{ "operations": ["read"], "paths": [⟦"/x/[!.]*"⟧] }],
  "subagents": [{ "name": "a", "description": "d", "permissions": [{ "operations": ["write"], "paths": [⟦"/y/[!ab]/**"⟧], "mode": "deny" }] }]`),
    CODE,
  );
  assert.equal(found[0]!.message, '"[!.]" is not a negation in deepagents-js 1.14.1 (in compatibleWith): the runtimes decide different files.');
  assert.match(found[0]!.detail!, /^In deepagents-js 1\.14\.1 \(in compatibleWith\), picomatch reads "\[!\.\]" as a plain class/);
  assert.equal(found[1]!.message, '"[!ab]" is not a negation in deepagents-js 1.14.1 (in compatibleWith): the runtimes decide different files.');
});

test("does not fire for deepagents-py alone, for `[^…]`, an escaped bracket, or `!` later in a class", () => {
  expectNoFindings(rules(`"/data/[!a].txt"`, `"runtime": "deepagents-py",\n  `), CODE);
  expectNoFindings(rules(`"/data/[^a].txt", "/data/\\\\[!a].txt", "/data/[a!].txt", "/data/!a.txt", "/data/[!"`), CODE);
});

test("fix (not applied by --fix: it reverses deepagents-js decisions): `[!` → `[^`; both runtimes then negate, and the finding goes", () => {
  const text = rules(`"/data/[!a]/[!bc].txt"`);
  const [finding] = findings(text, CODE);
  assert.deepEqual(finding!.fixes!.map((f) => [f.title, f.safe]), [['Change to "/data/[^a]/[^bc].txt"', false]]);
  const fixed = applyFix(text, finding!);
  assert.ok(fixed.includes('"/data/[^a]/[^bc].txt"'));
  expectNoFindings(fixed, CODE);
  assert.deepEqual(findings(fixed).filter((f) => f.severity === "error"), []);
  const names = ["a", "b", "c", "!", "x"];
  for (const d of names) {
    for (const f of names) {
      const path = `/data/${d}/${f}.txt`;
      assert.equal(deepagentsJs.compilePattern("/data/[^a]/[^bc].txt").matches(path), d !== "a" && f !== "b" && f !== "c", path);
      assert.equal(deepagentsPy.compilePattern("/data/[^a]/[^bc].txt").matches(path), d !== "a" && f !== "b" && f !== "c", path);
    }
  }
});

test("silenced by an ignore comment", () => {
  expectNoFindings(config(`"permissions": [{ "operations": ["read"], "paths": [
    "/data/[!a].txt" // agent-sandbox-ignore pattern-class-negation
  ] }]`), CODE);
});

test("not on a class holding a `/`: wcmatch reads such brackets as literal text, so neither the message nor `[^/]` holds", () => {
  expectNoFindings(rules(`"/data/[!/]"`, `"compatibleWith": ["deepagents-py"],\n  `), CODE);
  assert.equal(deepagentsPy.compilePattern("/data/[!/]").matches("/data/a"), false);
  assert.equal(deepagentsPy.compilePattern("/data/[^/]").matches("/data/a"), false);
  // The other classes of the same pattern are still reported.
  assert.equal(findings(rules(`"/data/[!/]/[!x]y"`), CODE).length, 1);
});
