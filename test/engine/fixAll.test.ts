/**
 * Fix-all (`check --fix`, the editor's `source.fixAll`): what the safe fixes do together, round after round. Each
 * case is a combination of fixes, each safe on its own, that broke the file or
 * changed a decision.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { applyAllSafeFixes, applyEdits, applySafeFixes } from "../../server/src/engine/fixes";
import { rng } from "../helpers/random";
import { explainDecision } from "../../server/src/engine/explain";
import type { Operation } from "../../server/src/engine/runtime";

const check = (text: string) => checkConfigText(text, { analysis: true });
const fixAll = (text: string) => applyAllSafeFixes(text, check(text), check);
const decision = (text: string, op: Operation, path: string) => {
  const model = check(text).model!;
  const answer = explainDecision(model, "main", op, path);
  assert.ok(answer.ok);
  return answer.explanation.decision;
};

test("removing a repeat after a line comment keeps the closing bracket out of the comment", () => {
  const cases = [
    '{ "version": 1,\n  "tools": ["web_search", // main one\n    "web_search"]\n}',
    '{ "version": 1, "tools": ["a",\r\n  // c\r\n  "a"] }',
    '{ "version": 1, "tools": ["a",\n\t"b", // lead\n\t"a" ] }',
    '{ "version": 1, "tools": [\n  "a", /* x */ // y\n  "a"] }',
    '{"version":1,"permissions":[{"operations":["read"],"paths":["/x"],"mode":"deny"}, // keep\n{"operations":[],"paths":["/y"]}]}',
    '{"version":1,"permissions":[{"operations":["read"],"paths":["/x"],"mode":"deny"}, // keep\n{"operations":"rw","paths":["/y"]}]}',
    '{"version":1,"authorization":{"enabled":true,"roles":{"r":{"tools":{"allow":"*", // c\n "deny":null}}}}}',
  ];
  for (const text of cases) {
    const { text: fixed, codes } = fixAll(text);
    assert.ok(codes.length > 0, `nothing fixed in ${JSON.stringify(text)}`);
    const syntax = check(fixed).findings.filter((f) => f.code === "json-syntax");
    assert.deepEqual(syntax, [], JSON.stringify(fixed));
    // The comments are the user's: they stay.
    for (const comment of text.match(/\/\/ [a-z ]+|\/\* x \*\//g) ?? []) assert.ok(fixed.includes(comment.trim()), `${comment} kept in ${JSON.stringify(fixed)}`);
  }
});

test("two copies of one deny are each redundant, not both: fix-all removes one and the path stays denied", () => {
  const text = `{
  "version": 1,
  "permissions": [
    { "operations": ["read"], "paths": ["/secret/**"], "mode": "deny" },
    { "operations": ["write"], "paths": ["/**"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/secret/**"], "mode": "deny" }
  ]
}`;
  assert.equal(decision(text, "read", "/secret/x"), "deny");
  const { text: fixed, codes } = fixAll(text);
  assert.deepEqual(codes, ["rule-redundant"]);
  assert.equal(decision(fixed, "read", "/secret/x"), "deny");
  assert.equal((fixed.match(/\/secret\/\*\*/g) ?? []).length, 1);
});

test("two interrupt copies in deepagents-py: one stays", () => {
  const text = '{ "version": 1, "runtime": "deepagents-py", "permissions": [\n  { "operations": ["write"], "paths": ["/a/**"], "mode": "interrupt" },\n  { "operations": ["write"], "paths": ["/a/**"], "mode": "interrupt" }\n] }';
  assert.equal(decision(text, "write", "/a/x"), "interrupt");
  assert.equal(decision(fixAll(text).text, "write", "/a/x"), "interrupt");
});

test("two empty rules: removing both would leave deepagents-js without rules and turn path validation off; one stays", () => {
  const text = `{
  "version": 1,
  "permissions": [
    { "operations": ["read"], "paths": [], "mode": "deny" },
    // second
    { "operations": [], "paths": ["/x"], "mode": "deny" },
  ]
}`;
  assert.equal(decision(text, "read", "/a/../b"), "error");
  const { text: fixed, codes } = fixAll(text);
  assert.deepEqual(codes, ["rule-empty"]);
  assert.equal(decision(fixed, "read", "/a/../b"), "error");
});

test("a redundancy proved while a pattern was refused is not applied with the fix that repairs the pattern", () => {
  const text = `{
  "version": 1,
  "permissions": [
    { "operations": ["read"], "paths": ["/s/x"], "mode": "deny" },
    { "operations": ["read"], "paths": ["s/**"], "mode": "allow" },
    { "operations": ["read"], "paths": ["/**"], "mode": "deny" }
  ]
}`;
  const { text: fixed, codes } = fixAll(text);
  assert.ok(codes.includes("path-not-absolute"), codes.join(", "));
  assert.ok(fixed.includes('"/s/**"'));
  // What the path-not-absolute fix alone gives: /s/x stays denied by the first rule.
  assert.equal(decision(fixed, "read", "/s/x"), "deny");
});

test("applyEdits: edits in one pass, insertions at one offset in the order they always landed", () => {
  assert.equal(applyEdits("abcdef", [{ span: { start: 4, end: 5 }, newText: "E" }, { span: { start: 1, end: 2 }, newText: "B" }]), "aBcdEf");
  // Two insertions at one offset: the last given lands first; an insertion lands before a replacement there.
  assert.equal(applyEdits("abc", [{ span: { start: 1, end: 1 }, newText: "1" }, { span: { start: 1, end: 1 }, newText: "2" }]), "a21bc");
  assert.equal(applyEdits("abc", [{ span: { start: 1, end: 2 }, newText: "R" }, { span: { start: 1, end: 1 }, newText: "I" }]), "aIRc");
  const many = Array.from({ length: 100_000 }, (_, i) => ({ span: { start: i, end: i + 1 }, newText: "x" }));
  assert.equal(applyEdits("a".repeat(100_000), many), "x".repeat(100_000));
});

test("one round chooses exactly what asking every chosen edit would (random fixes, up to three edits each), and fast on 100,000", () => {
  const random = rng(20261205);
  const touching = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start <= b.end && b.start <= a.end;
  for (let round = 0; round < 300; round++) {
    const length = 200;
    const text = "x".repeat(length);
    const findings = Array.from({ length: 1 + Math.floor(random() * 30) }, (_, i) => {
      const edits = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
        const start = Math.floor(random() * length);
        const end = Math.min(length, start + Math.floor(random() * 12));
        return { span: { start, end }, newText: String(i % 10) };
      });
      // A fix's own edits do not overlap one another (as every check builds them).
      const own = edits.filter((e, k) => edits.slice(0, k).every((o) => !touching(o.span, e.span)));
      return { code: `c${i}`, severity: "error" as const, message: "", span: { start: 0, end: 0 }, fixes: [{ title: "", edits: own, safe: random() < 0.8 }] };
    });
    // The reference: every chosen edit asked in turn.
    const chosen: { start: number; end: number }[] = [];
    const expected: string[] = [];
    for (const f of findings) {
      const fix = f.fixes[0]!;
      if (!fix.safe || fix.edits.some((e) => chosen.some((c) => touching(c, e.span)))) continue;
      chosen.push(...fix.edits.map((e) => e.span));
      expected.push(f.code);
    }
    assert.deepEqual(applySafeFixes(text, findings).codes, expected, `round ${round}`);
  }
  const many = Array.from({ length: 100_000 }, (_, i) => ({ code: "tool-duplicate", severity: "warning" as const, message: "", span: { start: 0, end: 0 }, fixes: [{ title: "", edits: [{ span: { start: 3 * i, end: 3 * i + 2 }, newText: "" }], safe: true }] }));
  assert.equal(applySafeFixes("ab,".repeat(100_000), many).text, ",".repeat(100_000));
});
