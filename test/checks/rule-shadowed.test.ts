import { test } from "node:test";
import assert from "node:assert/strict";
import { applyFix, config, expectFindings, expectNoFindings, findings } from "../helpers/checkFixture";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { CompiledRuleList } from "../../server/src/engine/permissions/ruleList";
import { deepagentsJs } from "../../server/src/engine/runtime";

const CODE = "rule-shadowed";
/** The engine runs the exact analysis when asked (the CLI and the editor ask by default; `check --no-analysis` does not). */
const ON = { analysis: true } as const;

test("fires on the .env deny placed after allow /workspace/** (deepagents-js), with the witness and the earlier rule", () => {
  const text = config(`"permissions": [
    { "operations": ["read", "write"], "paths": ["/workspace/**"], "mode": "allow" },
    ⟦{ "operations": ["read", "write"], "paths": ["/workspace/.env"], "mode": "deny" }⟧
  ]`);
  const [f] = expectFindings(text, CODE, ON);
  assert.equal(f!.severity, "warning");
  assert.deepEqual(f!.tags, ["unnecessary"]);
  assert.equal(f!.witness, "/workspace/.env");
  assert.equal(
    f!.message,
    "Rule 1 never applies: rule 0 decides every path it matches first.",
  );
  assert.equal(
    f!.detail,
    'In deepagents-js 1.14.1, rule 0 (allow "/workspace/**") decides every path this rule matches first (first match wins). For example read "/workspace/.env" is allowed by rule 0 (allow "/workspace/**"), not denied by this rule. Moving it above rule 0 makes it decide all its paths and changes no decision outside them.',
  );
  assert.equal(f!.related?.length, 1);
  assert.equal(f!.fixes?.[0]?.title, "Move above rule 0");
  assert.equal(f!.fixes?.[0]?.safe, false);
});

test("the reorder fix puts the rule first; afterwards it denies .env and nothing else changed", () => {
  const text = config(`"permissions": [
    { "operations": ["read", "write"], "paths": ["/workspace/**"], "mode": "allow" },
    { "operations": ["read", "write"], "paths": ["/workspace/.env"], "mode": "deny" },
    { "operations": ["read", "write"], "paths": ["/**"], "mode": "deny" }
  ]`);
  const [f] = findings(text, CODE, ON);
  const fixed = applyFix(text.replace(/⟦|⟧/g, ""), f!);
  assert.equal(
    fixed,
    config(`"permissions": [
    { "operations": ["read", "write"], "paths": ["/workspace/.env"], "mode": "deny" },
    { "operations": ["read", "write"], "paths": ["/workspace/**"], "mode": "allow" },
    { "operations": ["read", "write"], "paths": ["/**"], "mode": "deny" }
  ]`),
  );
  expectNoFindings(fixed, CODE, ON);
  const before = new CompiledRuleList(deepagentsJs, checkConfigText(text).model!.permissions!.rules.map((r) => r.input));
  const after = new CompiledRuleList(deepagentsJs, checkConfigText(fixed).model!.permissions!.rules.map((r) => r.input));
  for (const path of ["/workspace/.env", "/workspace/a", "/workspace", "/etc/passwd", "/workspace/src/.env", "/.env"]) {
    for (const op of ["read", "write"] as const) {
      const expected = path === "/workspace/.env" ? "deny" : before.decide(op, path).decision;
      assert.equal(after.decide(op, path).decision, expected, `${op} ${path}`);
    }
  }
});

test("the reorder fix takes the comment lines above the rule with it, and leaves every other comment where it was", () => {
  // The last rule: its removal used to start at the previous comma and swallow the comment between.
  const last = config(`"permissions": [
    // Work anywhere in the workspace.
    { "operations": ["read", "write"], "paths": ["/workspace/**"], "mode": "allow" },
    // Keep secrets out of reach.
    /* even from reads */
    { "operations": ["read", "write"], "paths": ["/workspace/.env"], "mode": "deny" }
  ]`);
  assert.equal(applyFix(last, findings(last, CODE, ON)[0]!), config(`"permissions": [
    // Keep secrets out of reach.
    /* even from reads */
    { "operations": ["read", "write"], "paths": ["/workspace/.env"], "mode": "deny" },
    // Work anywhere in the workspace.
    { "operations": ["read", "write"], "paths": ["/workspace/**"], "mode": "allow" }
  ]`));
  // A rule in the middle, its comment and a trailing comment on the rule before.
  const middle = config(`"permissions": [
    { "operations": ["read", "write"], "paths": ["/workspace/**"], "mode": "allow" }, // broad
    // Keep secrets out of reach.
    { "operations": ["read", "write"], "paths": ["/workspace/.env"], "mode": "deny" },
    { "operations": ["write"], "paths": ["/**"], "mode": "deny" }
  ]`);
  assert.equal(applyFix(middle, findings(middle, CODE, ON)[0]!), config(`"permissions": [
    // Keep secrets out of reach.
    { "operations": ["read", "write"], "paths": ["/workspace/.env"], "mode": "deny" },
    { "operations": ["read", "write"], "paths": ["/workspace/**"], "mode": "allow" }, // broad
    { "operations": ["write"], "paths": ["/**"], "mode": "deny" }
  ]`));
});

test("the reorder fix moves the comments on the rule's own line with it, lands above the target's comment, and leaves a group heading (a comment above a blank line) in place", () => {
  const text = config(`"permissions": [
    // Workspace rules

    // Work inside the workspace
    { "operations": ["read"], "paths": ["/ws/**"], "mode": "allow" }, // team policy
    /* secrets */ { "operations": ["read"], "paths": ["/ws/secret"], "mode": "deny" }, // added 2025
    { "operations": ["write"], "paths": ["/**"], "mode": "deny" }
  ]`);
  const fix = findings(text, CODE, ON)[0]!;
  assert.equal(applyFix(text, fix), config(`"permissions": [
    // Workspace rules

    /* secrets */ { "operations": ["read"], "paths": ["/ws/secret"], "mode": "deny" }, // added 2025
    // Work inside the workspace
    { "operations": ["read"], "paths": ["/ws/**"], "mode": "allow" }, // team policy
    { "operations": ["write"], "paths": ["/**"], "mode": "deny" }
  ]`));
  // The last rule, with a comment after it and no comma: it gets one, and the rule now last loses its own.
  const last = config(`"permissions": [
    { "operations": ["read"], "paths": ["/ws/**"], "mode": "allow" }, // team policy
    { "operations": ["read"], "paths": ["/ws/secret"], "mode": "deny" } // added 2025
  ]`);
  assert.equal(applyFix(last, findings(last, CODE, ON)[0]!), config(`"permissions": [
    { "operations": ["read"], "paths": ["/ws/secret"], "mode": "deny" }, // added 2025
    { "operations": ["read"], "paths": ["/ws/**"], "mode": "allow" } // team policy
  ]`));
  // Rules sharing a line: the text moves alone, and every comment stays.
  const oneLine = config(`"permissions": [ { "operations": ["read"], "paths": ["/ws/**"] }, /* c */ { "operations": ["read"], "paths": ["/ws/a"], "mode": "deny" } ]`);
  assert.equal(applyFix(oneLine, findings(oneLine, CODE, ON)[0]!), config(`"permissions": [ { "operations": ["read"], "paths": ["/ws/a"], "mode": "deny" }, { "operations": ["read"], "paths": ["/ws/**"] } /* c */ ]`));
});

test("in a file with CRLF line ends the reorder fix writes CRLF, and a trailing comment on the rule before stays", () => {
  const text = '{\r\n  "version": 1,\r\n  "permissions": [\r\n    { "operations": ["read", "write"], "paths": ["/ü/**"] },  // 😀 comment\r\n    { "operations": ["read", "write"], "paths": ["/ü/.env"], "mode": "deny" }\r\n  ]\r\n}\r\n';
  const fixed = applyFix(text, findings(text, CODE, ON)[0]!);
  assert.equal(fixed, '{\r\n  "version": 1,\r\n  "permissions": [\r\n    { "operations": ["read", "write"], "paths": ["/ü/.env"], "mode": "deny" },\r\n    { "operations": ["read", "write"], "paths": ["/ü/**"] }  // 😀 comment\r\n  ]\r\n}\r\n');
  assert.doesNotMatch(fixed, /[^\r]\n/);
});

test("does not fire when the deny comes first, when the earlier rule decides the same way, or in deepagents-py for a dotfile", () => {
  expectNoFindings(
    config(`"permissions": [
      { "operations": ["read", "write"], "paths": ["/workspace/.env"], "mode": "deny" },
      { "operations": ["read", "write"], "paths": ["/workspace/**"], "mode": "allow" }
    ]`),
    CODE,
  );
  // Same decision: that is rule-redundant, not shadowed.
  expectNoFindings(
    config(`"permissions": [
      { "operations": ["read"], "paths": ["/secrets/**"], "mode": "deny" },
      { "operations": ["read"], "paths": ["/secrets/key"], "mode": "deny" }
    ]`),
    CODE,
  );
  // wcmatch's `**` does not match `.env` (§2.2 item 1): the deny still decides /workspace/.env in Python.
  expectNoFindings(
    config(`"runtime": "deepagents-py", "permissions": [
      { "operations": ["read", "write"], "paths": ["/workspace/**"], "mode": "allow" },
      { "operations": ["read", "write"], "paths": ["/workspace/.env"], "mode": "deny" }
    ]`),
    CODE,
  );
});

test("a rule shadowed by several earlier rules names them all and moves above the first", () => {
  const text = config(`"permissions": [
    { "operations": ["read"], "paths": ["/a/**"], "mode": "allow" },
    { "operations": ["read"], "paths": ["/b/**"], "mode": "deny" },
    ⟦{ "operations": ["read"], "paths": ["/a/x", "/b/x"], "mode": "deny" }⟧
  ]`);
  const [f] = expectFindings(text, CODE, ON);
  assert.equal(f!.message, "Rule 2 never applies: rules 0 and 1 decide every path it matches first.");
  assert.match(f!.detail!, /earlier rules \(0, 1\) decide every path this rule matches first/);
  assert.equal(f!.related?.length, 2);
  assert.equal(f!.fixes?.[0]?.title, "Move above rule 0");
});

test("the witness is a sample-workspace file when one shows it", () => {
  const text = config(`"workspace": { "root": "./ws", "mountAt": "/workspace" }, "permissions": [
    { "operations": ["read"], "paths": ["/workspace/*"], "mode": "allow" },
    ⟦{ "operations": ["read"], "paths": ["/workspace/*.key"], "mode": "deny" }⟧
  ]`);
  const [f] = expectFindings(text, CODE, { ...ON, listDirectory: (dir) => (dir === "./ws" ? ["README.md", "server.key"] : undefined) });
  assert.equal(f!.witness, "/workspace/server.key");
});

test("deepagents-js also matches a pattern's own text (G48), so a brace pattern after broad rules still decides that path", () => {
  expectNoFindings(
    config(`"permissions": [
      { "operations": ["read"], "paths": ["/a/**"], "mode": "allow" },
      { "operations": ["read"], "paths": ["/b/**"], "mode": "allow" },
      { "operations": ["read"], "paths": ["/{a,b}/x"], "mode": "deny" }
    ]`),
    CODE,
  );
});

test("shadowed by a dozen earlier rules: related information points at the first 8, the message counts the rest", () => {
  const earlier = Array.from({ length: 12 }, (_, i) => `{ "operations": ["read"], "paths": ["/w/k${i}/**", "/w/k${i}"], "mode": "allow" }`);
  const mine = `{ "operations": ["read"], "paths": [${Array.from({ length: 12 }, (_, i) => `"/w/k${i}/**"`).join(", ")}], "mode": "deny" }`;
  const text = config(`"permissions": [\n    ${earlier.join(",\n    ")},\n    ${mine}\n  ]`);
  const found = findings(text, CODE);
  assert.equal(found.length, 1);
  const [f] = found;
  assert.equal(f!.message, "Rule 12 never applies: 12 earlier rules decide every path it matches first.");
  assert.match(f!.detail!, /, earlier rules \(0, 1, 2, 3, 4, 5, 6, 7, … and 4 more\) decide every path this rule matches first/);
  assert.equal(f!.related?.length, 8);
  assert.deepEqual(f!.related!.map((r) => r.message.slice(0, 7)), ["rule 0 ", "rule 1 ", "rule 2 ", "rule 3 ", "rule 4 ", "rule 5 ", "rule 6 ", "rule 7 "]);
});
