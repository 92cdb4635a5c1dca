/**
 * Fix-all (`check --fix`, the editor's source.fixAll) runs to a fixed point: rule removals of one list go together,
 * proved on the realised combinations of the rules (exact), so hundreds of redundant rules take one round, not one
 * round each; what each applied fix did is listed, one line each; a bound reached with work left says so (exit 1).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateConfigText, generateInputs } from "../../bench/generate";
import { main } from "../../server/src/cli/main";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { allRuleLists } from "../../server/src/engine/config/model";
import { removeArrayElements } from "../../server/src/engine/config/edits";
import { parseJsonc } from "../../server/src/engine/config/parse";
import { applyAllSafeFixes, applyEdits } from "../../server/src/engine/fixes";
import { CompiledRuleList } from "../../server/src/engine/permissions/ruleList";
import { scratchDir } from "../helpers/scratch";

const check = (text: string) => checkConfigText(text, { analysis: true });
const safeLeft = (text: string) => check(text).findings.filter((f) => f.fixes?.some((x) => x.safe));

/** 150 denies of single files, then one deny of their whole folder: each is redundant, and all of them together. */
function manyRedundant(count: number): string {
  const rules = Array.from({ length: count }, (_, i) => `    { "operations": ["read"], "paths": ["/a/f${i}"], "mode": "deny" },`);
  return `{\n  "version": 1,\n  "permissions": [\n${rules.join("\n")}\n    { "operations": ["read"], "paths": ["/a/**"], "mode": "deny" }\n  ]\n}\n`;
}

test("150 redundant rules in one list: fix-all reaches the fixed point (it stopped at 100 rounds with 50 left)", () => {
  const text = manyRedundant(150);
  const all = applyAllSafeFixes(text, check(text), check);
  assert.deepEqual(safeLeft(all.text).map((f) => f.message), []);
  assert.equal(all.complete, true);
  assert.ok(all.rounds <= 2, `${all.rounds} rounds`);
  assert.equal(all.applied.length, 150);
  assert.equal(all.applied[0]!.did, 'removed rule 0 (deny "/a/f0"): decided the same way without it');
  assert.equal(all.text, `{\n  "version": 1,\n  "permissions": [\n    { "operations": ["read"], "paths": ["/a/**"], "mode": "deny" }\n  ]\n}\n`);
});

test("a bound reached with safe fixes left is said so: not complete", () => {
  // Round 1 repairs the refused path; only then are the rules around it proved redundant.
  const text = `{
  "version": 1,
  "permissions": [
    { "operations": "read", "paths": ["/b/x"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/b/**"], "mode": "deny" }
  ]
}
`;
  const one = applyAllSafeFixes(text, check(text), check, 1);
  assert.equal(one.complete, false);
  assert.deepEqual(one.codes, ["operations-not-list"]);
  const all = applyAllSafeFixes(text, check(text), check);
  assert.equal(all.complete, true);
  assert.deepEqual(all.codes, ["operations-not-list", "rule-redundant"]);
});

/** Every agent's decisions on `inputs`, list by list, as the engine's decision function computes them. */
function decisions(text: string, inputs: readonly { op: "read" | "write"; path: string }[]): string[] {
  const model = check(text).model!;
  return allRuleLists(model).map((list) => {
    const compiled = new CompiledRuleList(model.runtime, list.rules.map((r) => r.input));
    return inputs.map(({ op, path }) => compiled.decide(op, path).decision).join("");
  });
}

test("a generated 300-rule config: --fix leaves no safe fix, and every list decides 3,000 generated calls as before", () => {
  // Without compatibleWith: removals proved for one runtime only are not applied by --fix.
  const text = generateConfigText(300, 1300, "x").replace(/\n\s*"compatibleWith": \[[^\]]*\],/, "");
  const all = applyAllSafeFixes(text, check(text), check);
  assert.equal(all.complete, true);
  assert.ok(all.codes.filter((c) => c === "rule-redundant").length > 20, all.codes.join(", "));
  assert.deepEqual(safeLeft(all.text).map((f) => f.message), []);
  // Only removals of rules change the lists here (the one other fix repairs a refused path): compare on the lists
  // of the text with that one fix and nothing else.
  const inputs = generateInputs(3000, 77);
  const repairedOnly = applyAllSafeFixes(text, check(text), (t) => {
    const r = check(t);
    return { ...r, findings: r.findings.filter((f) => f.code !== "rule-redundant") };
  });
  assert.deepEqual(decisions(all.text, inputs), decisions(repairedOnly.text, inputs));
});

test("check --fix lists what each applied fix did, one line each", () => {
  const dir = scratchDir("fixlines");
  const file = join(dir, "agent-sandbox.jsonc");
  writeFileSync(file, manyRedundant(3));
  let err = "";
  const code = main(["check", file, "--fix"], { out: () => {}, err: (s) => void (err += s), color: false });
  assert.equal(code, 0, err);
  assert.match(err, /: 3 safe fixes applied \(rule-redundant ×3\)\n {2}rule-redundant: removed rule 0 \(deny "\/a\/f0"\): decided the same way without it\n {2}rule-redundant: removed rule 1 \(deny "\/a\/f1"\): decided the same way without it\n {2}rule-redundant: removed rule 2 \(deny "\/a\/f2"\): decided the same way without it\n$/);
  assert.doesNotMatch(readFileSync(file, "utf8"), /f[012]/);
});

test("removeArrayElements: several elements of one array at once, a run at the end taking the last survivor's comma", () => {
  const cases: [string, number[], string][] = [
    ['[\n  "a",\n  "b",\n  "c"\n]', [1, 2], '[\n  "a"\n]'],
    ['[\n  "a",\n  "b",\n  "c",\n]', [1, 2], '[\n  "a",\n]'],
    ['[ "a", "b", "c" ]', [1, 2], '[ "a" ]'],
    ['[ "a", "b", "c" ]', [0, 2], '[  "b" ]'],
    ['[\n  "a", // x\n  "b", // z\n  "c" // w\n]', [1, 2], '[\n  "a" // x\n   // z\n   // w\n]'],
    ['[ "a", "b" ]', [0, 1], "[]"],
  ];
  for (const [text, indices, expected] of cases) {
    const root = parseJsonc(text).root!;
    assert.equal(applyEdits(text, removeArrayElements(text, root, indices)), expected, `${JSON.stringify(text)} ${indices}`);
  }
});

test("a group is proved whole: removals each safe alone, and safe together only in part, keep every decision", () => {
  // Each of rules 0, 1, 2 and 3 is redundant alone; 0 and 1 together are not (the allow would then decide /p/x).
  const text = `{
  "version": 1,
  "permissions": [
    { "operations": ["read"], "paths": ["/p/**"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/p/**"], "mode": "deny" },
    { "operations": ["read"], "paths": ["/p/**", "/q/**"], "mode": "allow" },
    { "operations": ["read"], "paths": ["/p/**"], "mode": "deny" }
  ]
}
`;
  const inputs = ["/p/x", "/q/x", "/r", "/p", "/q"].map((path) => ({ op: "read" as const, path }));
  const all = applyAllSafeFixes(text, check(text), check);
  assert.equal(all.complete, true);
  assert.ok(all.applied.length >= 2, all.codes.join());
  assert.deepEqual(decisions(all.text, inputs), decisions(text, inputs));
  assert.deepEqual(safeLeft(all.text).map((f) => f.message), []);
});
