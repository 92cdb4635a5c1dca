import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkConfigText } from "../../server/src/engine/checkConfig";

// Speed is measured by `npm run bench` (typically well under a second here); a test only catches hangs and
// blow-ups, with a bound that survives a loaded CI machine.
const HANG_GUARD_MS = 15_000;

/** Each bad input gets a clear diagnostic quickly; nothing throws, nothing hangs. */
function timed(text: string) {
  const start = performance.now();
  const result = checkConfigText(text);
  return { ...result, ms: performance.now() - start };
}

describe("bad input", () => {
  test("a 10 MB file is reported, not analysed", () => {
    const text = `{"version": 1, "name": "${"x".repeat(10 * 1024 * 1024)}"}`;
    const r = timed(text);
    assert.ok(r.ms < HANG_GUARD_MS, `${r.ms} ms`);
    assert.equal(r.findings.length, 1);
    assert.equal(r.findings[0]!.code, "json-syntax");
    assert.match(r.findings[0]!.message, /10\.0 MB; files over 4 MB are not analysed/);
  });

  test("a 1 MB config (about 10,000 rules) is fully checked in under a second", () => {
    const rule = (i: number) => `{ "operations": ["read"], "paths": ["/workspace/d${i}/**", "/workspace/f${i}.txt"], "mode": "${i % 2 ? "deny" : "allow"}" }`;
    const rules: string[] = [];
    for (let i = 0, size = 0; size < 1024 * 1024; i++) {
      rules.push(rule(i));
      size += rules.at(-1)!.length;
    }
    const r = timed(`{"version": 1, "permissions": [\n${rules.join(",\n")}\n]}`);
    assert.ok(r.ms < HANG_GUARD_MS, `${r.ms} ms for ${rules.length} rules`);
    assert.equal(r.findings.filter((f) => f.severity === "error").length, 0);
  });

  test("10,000-deep nesting", () => {
    const r = timed(`{"version": 1, "x": ${"[".repeat(10_000)}${"]".repeat(10_000)}}`);
    assert.ok(r.ms < HANG_GUARD_MS, `${r.ms} ms`);
    assert.equal(r.findings[0]!.code, "json-syntax");
    assert.match(r.findings[0]!.message, /Nesting deeper than 128 levels/);
    assert.equal(r.model, undefined);
  });

  test("binary bytes", () => {
    const r = timed(`{"version": 1}\u0000\u0001\u00ff garbage`);
    assert.equal(r.findings[0]!.code, "json-syntax");
    assert.match(r.findings[0]!.message, /binary data/);
  });

  test("random bytes never throw", () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let i = 0; i < 300; i++) {
      const chars = Array.from({ length: 1 + Math.floor(rand() * 200) }, () => String.fromCharCode(1 + Math.floor(rand() * 126)));
      const text = rand() < 0.5 ? chars.join("") : `{"version":1,"permissions":[{"operations":["read"],"paths":["${chars.join("").replace(/["\\]/g, "")}"]}]}`;
      assert.doesNotThrow(() => checkConfigText(text));
    }
  });

  test("100,000-character patterns with the exact analysis on: what it skips is said in a few lines, not the patterns again", () => {
    const long = (p: string) => `{"operations": ["read"], "paths": [${JSON.stringify(p)}], "mode": "deny"}`;
    const text = `{"version": 1, "runtime": "deepagents-py", "compatibleWith": ["deepagents-js"], "permissions": [${[
      long(`/data/${"ab".repeat(50_000)}/**`),
      `{"operations": ["read"], "paths": ["/data/**"], "mode": "allow"}`,
      long(`/data/${"a*".repeat(50_000)}`),
    ].join(", ")}], "subagents": [{"name": "s", "description": "d", "permissions": [${long(`/data/${"c".repeat(100_000)}*`)}]}]}`;
    const start = performance.now();
    const r = checkConfigText(text, { analysis: true });
    assert.ok(performance.now() - start < HANG_GUARD_MS);
    assert.ok(r.skipped.length > 0, "the long patterns are not analysed, and that is said");
    for (const note of r.skipped) {
      assert.ok(note.what.length + note.why.length < 1000, `${note.what.length + note.why.length} characters: ${note.why.slice(0, 200)}`);
      if (/pattern "/.test(note.why)) assert.match(note.why, /"… \(100,0\d\d characters\)/);
    }
    for (const f of r.findings) assert.ok(f.message.length < 1000, `${f.code}: ${f.message.length} characters`);
  });

  for (const runtime of ["deepagents-js", "deepagents-py"]) {
    test(`${runtime}: a brace pattern that expands to millions of alternatives`, () => {
      const pattern = `/data/{${"a,b,c,d,e,f,g,h,i,j".repeat(1)}}`.repeat(1) + "{1..1000000}" + "{a,b}".repeat(20);
      const r = timed(`{"version": 1, "runtime": "${runtime}", "permissions": [{"operations": ["read"], "paths": ["${pattern}"], "mode": "deny"}]}`);
      assert.ok(r.ms < HANG_GUARD_MS, `${r.ms} ms`);
      assert.ok(r.model);
    });

    test(`${runtime}: a 100,000-character pattern gets a clear diagnostic`, () => {
      const pattern = `/${"ab*".repeat(33_334)}`;
      const r = timed(`{"version": 1, "runtime": "${runtime}", "permissions": [{"operations": ["read"], "paths": ["${pattern}"], "mode": "deny"}]}`);
      assert.ok(r.ms < HANG_GUARD_MS, `${r.ms} ms`);
      if (runtime === "deepagents-js") {
        const finding = r.findings.find((f) => /65536/.test(f.message));
        assert.ok(finding, `expected a finding about picomatch's length limit, got ${JSON.stringify(r.findings.map((f) => f.code))}`);
      }
    });
  }

  test("the root is not an object", () => {
    for (const text of ["[]", "42", '"x"', "null"]) {
      const r = timed(text);
      assert.equal(r.findings[0]!.code, "schema", text);
    }
  });

  test("an empty file", () => {
    const r = timed("   ");
    assert.match(r.findings[0]!.message, /empty/);
  });
});
