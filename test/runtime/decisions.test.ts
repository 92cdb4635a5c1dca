import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decideToolPath } from "../../server/src/engine/permissions/decideToolPath";
import { CompiledRuleList, type PermissionRuleInput } from "../../server/src/engine/permissions/ruleList";
import { deepagentsJs, deepagentsPy } from "../../server/src/engine/runtime";
import type { Operation, Runtime } from "../../server/src/engine/runtime/runtime";
import { codes, specText, stripMarkup, tableRows } from "../helpers/specTables";

const rw = ["read", "write"];
/** The named rule lists of §3.4 (the "rules" column), as the spec defines them. */
const RULE_SETS: Record<string, PermissionRuleInput[]> = {
  A: [{ operations: rw, paths: ["/secrets/**"], mode: "deny" }],
  B: [{ operations: ["read"], paths: ["/**"], mode: "deny" }],
  C: [
    { operations: rw, paths: ["/workspace/**"], mode: "allow" },
    { operations: rw, paths: ["/**"], mode: "deny" },
  ],
  D: [{ operations: ["read"], paths: ["/**/.env"], mode: "deny" }],
  E: [{ operations: ["read"], paths: ["/workspace/"], mode: "deny" }],
  F: [{ operations: ["read"], paths: ["/data/[!a].txt"], mode: "deny" }],
  G: [{ operations: ["read"], paths: ["/data/@(a|b).txt"], mode: "deny" }],
  H: [{ operations: ["read"], paths: ["/secrets//**"], mode: "deny" }],
  I: [
    { operations: ["read"], paths: ["/x/**"], mode: "block" },
    { operations: ["read"], paths: ["/**"], mode: "deny" },
  ],
  T41: [{ operations: "read", paths: ["/x/**"], mode: "deny" }],
};

function rulesOf(cell: string, id: string): PermissionRuleInput[] {
  const letter = /^([A-I])\b/.exec(stripMarkup(cell))?.[1];
  const rules = letter ? RULE_SETS[letter] : RULE_SETS[id];
  assert.ok(rules, `no rule set for ${id} (${cell})`);
  return rules;
}

function expectOutcome(runtime: Runtime, rules: PermissionRuleInput[], op: Operation, arg: string, cell: string): void {
  const outcome = decideToolPath(runtime, new CompiledRuleList(runtime, rules), op, arg);
  const verdict = stripMarkup(cell).split(/[\s;(]/)[0]!;
  if (verdict === "ERROR") {
    assert.equal(outcome.outcome, "error", `${runtime.id} ${arg}: ${JSON.stringify(outcome)}`);
    const expected = codes(cell)[0];
    if (expected && !expected.includes("…")) assert.equal(outcome.message, `Error: ${expected}`);
    if (expected?.includes("…")) assert.ok(outcome.message?.includes(expected.replace("…", "").trim()));
  } else {
    assert.equal(outcome.outcome, verdict.toLowerCase(), `${runtime.id} ${arg}: ${JSON.stringify(outcome)}`);
  }
}

describe("§3.4 tool-level vectors (T1–T41, read_file)", () => {
  const rows = tableRows(specText("deepagents-semantics.md"), /^T([1-9]|[1-3]\d|4[01])$/);
  test("41 rows", () => assert.equal(rows.length, 41));
  for (const [id, rulesCell, argCell, jsCell, pyCell] of rows) {
    const arg = codes(argCell!)[0] === '""' ? "" : codes(argCell!)[0]!;
    const rules = rulesOf(rulesCell!, id!);
    test(`${id} ${arg}: deepagents-js ${stripMarkup(jsCell!)}`, () => expectOutcome(deepagentsJs, rules, "read", arg, jsCell!));
    test(`${id} ${arg}: deepagents-py ${stripMarkup(pyCell!)}`, () => expectOutcome(deepagentsPy, rules, "read", arg, pyCell!));
  }
  test("T42: ls/glob with no path check `/` first (JS): denied under workspace isolation", () => {
    const outcome = decideToolPath(deepagentsJs, new CompiledRuleList(deepagentsJs, RULE_SETS.C!), "read", "/");
    assert.equal(outcome.message, "Error: permission denied for read on /");
  });
  test("T43: glob's pre-check is on its path argument, not its pattern", () => {
    assert.equal(decideToolPath(deepagentsJs, new CompiledRuleList(deepagentsJs, RULE_SETS.C!), "read", "/workspace").outcome, "allow");
  });
  test("T3: the denial names the canonical path", () => {
    assert.equal(decideToolPath(deepagentsJs, new CompiledRuleList(deepagentsJs, RULE_SETS.A!), "read", "/secrets/").message, "Error: permission denied for read on /secrets");
  });
});

describe("§3.1 decision algorithm", () => {
  const decide = (runtime: Runtime, rules: PermissionRuleInput[], op: Operation, path: string) => new CompiledRuleList(runtime, rules).decide(op, path);
  for (const runtime of [deepagentsJs, deepagentsPy]) {
    test(`${runtime.id}: first match wins, in declaration order`, () => {
      const d = decide(runtime, RULE_SETS.C!, "write", "/workspace/a");
      assert.deepEqual([d.decision, d.ruleIndex], ["allow", 0]);
      assert.deepEqual([decide(runtime, RULE_SETS.C!, "write", "/etc/x").decision, decide(runtime, RULE_SETS.C!, "write", "/etc/x").ruleIndex], ["deny", 1]);
    });
    test(`${runtime.id}: the default allows when nothing matches`, () => {
      assert.deepEqual(decide(runtime, RULE_SETS.A!, "read", "/public/a"), { decision: "allow", ruleIndex: -1, patternIndex: -1, mode: undefined });
    });
    test(`${runtime.id}: rules for other operations are skipped`, () => {
      assert.equal(decide(runtime, RULE_SETS.B!, "write", "/a").ruleIndex, -1);
    });
    test(`${runtime.id}: V15/V18 empty paths or operations never match`, () => {
      assert.equal(decide(runtime, [{ operations: rw, paths: [], mode: "deny" }], "read", "/a").ruleIndex, -1);
      assert.equal(decide(runtime, [{ operations: [], paths: ["/**"], mode: "deny" }], "read", "/a").ruleIndex, -1);
      assert.equal(decide(runtime, [{ operations: ["delete"], paths: ["/**"], mode: "deny" }], "write", "/a").ruleIndex, -1);
    });
    test(`${runtime.id}: V19 a string operations is a substring test`, () => {
      assert.equal(decide(runtime, [{ operations: "readwrite", paths: ["/**"], mode: "deny" }], "write", "/a").decision, "deny");
      assert.equal(decide(runtime, [{ operations: "read", paths: ["/**"], mode: "deny" }], "write", "/a").ruleIndex, -1);
    });
    test(`${runtime.id}: V20 an unknown mode allows and stops later rules`, () => {
      const d = decide(runtime, RULE_SETS.I!, "read", "/x/a");
      assert.deepEqual([d.decision, d.ruleIndex, d.mode], ["allow", 0, "block"]);
    });
    test(`${runtime.id}: an omitted mode allows`, () => {
      assert.equal(decide(runtime, [{ operations: rw, paths: ["/a"], mode: undefined }], "read", "/a").decision, "allow");
    });
  }
  test("V21: interrupt is human-in-the-loop in Python, a silent allow in JS", () => {
    const rules = [{ operations: rw, paths: ["/a/**"], mode: "interrupt" }, { operations: rw, paths: ["/**"], mode: "deny" }];
    assert.equal(decide(deepagentsPy, rules, "read", "/a/x").decision, "interrupt");
    assert.deepEqual([decide(deepagentsJs, rules, "read", "/a/x").decision, decide(deepagentsJs, rules, "read", "/a/x").ruleIndex], ["allow", 0]);
  });
  test("a pattern picomatch cannot compile fails the call when reached (JS length limit)", () => {
    const long = `/${"a".repeat(100_000)}`;
    const outcome = decideToolPath(deepagentsJs, new CompiledRuleList(deepagentsJs, [{ operations: rw, paths: [long], mode: "deny" }]), "read", "/x");
    assert.equal(outcome.outcome, "error");
    assert.match(outcome.message!, /exceeds maximum allowed length: 65536/);
  });
});
