import { test } from "node:test";
import assert from "node:assert/strict";
import { config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";

const CODE = "pattern-too-complex";

const rule = (runtime: string, pattern: string, compatibleWith = "") =>
  config(`"runtime": "${runtime}",${compatibleWith}\n  "permissions": [{ "operations": ["read"], "paths": [${JSON.stringify(pattern)}], "mode": "deny" }]`);

test("fires in deepagents-js on a pattern longer than picomatch takes, with picomatch's own error, on its first 200 characters", () => {
  const pattern = `/${"a".repeat(70_000)}`;
  const text = rule("deepagents-js", pattern);
  const found = findings(text, CODE);
  assert.equal(found.length, 1);
  assert.equal(found[0]!.severity, "error");
  assert.equal(found[0]!.message, "deepagents-js 1.14.1 cannot use this pattern: every tool call reaching its rule fails.");
  assert.match(found[0]!.detail!, /\(70,001 characters\).*exceeds maximum allowed length: 65536/);
  const start = text.indexOf(JSON.stringify(pattern));
  assert.deepEqual(found[0]!.span, { start, end: start + 200 });
});

test("fires in deepagents-py on a brace pattern past wcmatch's expansion limit, and names a compatibleWith runtime so", () => {
  const bomb = "/{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}";
  const found = expectFindings(config(`"runtime": "deepagents-js", "compatibleWith": ["deepagents-py"],\n  "permissions": [{ "operations": ["read"], "paths": [⟦${JSON.stringify(bomb)}⟧], "mode": "deny" }]`), CODE);
  assert.equal(found[0]!.message, "deepagents-py 0.7.8 (in compatibleWith) cannot use this pattern: every tool call reaching its rule fails.");
  assert.match(found[0]!.detail!, /Pattern limit exceeded the limit of 1000/);
});

test("does not fire on patterns the matchers take: long but under the limit in JS, braces under the limit in Python", () => {
  expectNoFindings(rule("deepagents-js", `/${"a".repeat(60_000)}`), CODE);
  expectNoFindings(rule("deepagents-js", "/{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}"), CODE);
  expectNoFindings(rule("deepagents-py", "/w/{src,docs}/**/*.{ts,md}"), CODE);
  expectNoFindings(rule("deepagents-py", `/${"a".repeat(70_000)}`), CODE);
});
