/**
 * subagent-escalation's two halves on one subagent: the editor offers each half's fixes once, and "Prepend the main
 * agent's deny rules" puts the rules where that subagent's runtime reads them, copies only rules the runtime
 * accepts, and lays them out like the file around them.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { codeActions } from "../../server/src/lsp/codeActions";
import { analyze, type Analysis } from "../../server/src/lsp/engineFacade";
import { toDiagnostic } from "../../server/src/lsp/diagnostics";
import { applyFix, findings } from "../helpers/checkFixture";

const CODE = "subagent-escalation";

/** The main agent's rules and allowlist come from its custom filesystem middleware: a declarative subagent gets neither. */
const CONFIG = `{
  "version": 1,
  "middleware": [
    {
      "type": "filesystem",
      "tools": ["read_file", "ls", "glob", "grep"],
      "permissions": [
        { "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" },
        { "operations": ["write"], "paths": ["/workspace/../etc/**"], "mode": "deny" },
        { "operations": ["write"], "paths": ["/workspace/.git/**"], "mode": "deny" }
      ]
    }
  ],
  "subagents": [
    {
      "name": "worker",
      "description": "Does the work"
    }
  ]
}
`;

const settings = { severities: {}, analysis: true };
const check = (text: string): Analysis => analyze("/x/agent-sandbox.jsonc", text, settings, "config");

test("two subagent-escalation findings on one span: the lightbulb offers each one's fix once, and Ignore once", () => {
  const analysis = check(CONFIG);
  const both = analysis.findings.filter((f) => f.code === CODE);
  assert.equal(both.length, 2);
  assert.deepEqual(both[0]!.span, both[1]!.span);
  const uri = "file:///x/agent-sandbox.jsonc";
  const diagnostics = both.map((f) => toDiagnostic(f, analysis, uri));
  const range = diagnostics[0]!.range;
  const titles = codeActions({ textDocument: { uri }, range, context: { diagnostics } }, analysis, check).map((a) => a.title);
  assert.deepEqual(titles.sort(), ["Give the subagent the main agent's allowlist", "Ignore subagent-escalation here", "Prepend the main agent's deny rules (2)"]);
});

test("after the allowlist fix, the deny rules go into the subagent's own filesystem middleware, one per line, without the refused rule", () => {
  const toolHalf = findings(CONFIG, CODE).find((f) => f.fixes?.[0]?.title === "Give the subagent the main agent's allowlist")!;
  const withAllowlist = applyFix(CONFIG, toolHalf);
  const [pathHalf, ...others] = findings(withAllowlist, CODE);
  assert.equal(others.length, 0);
  const fix = pathHalf!.fixes!.find((f) => f.title.startsWith("Prepend"))!;
  assert.equal(fix.title, "Prepend the main agent's deny rules (2)");
  const fixed = applyFix(withAllowlist, pathHalf!, pathHalf!.fixes!.indexOf(fix));
  const after = findings(fixed);
  assert.deepEqual(after.filter((f) => f.code === CODE), [], fixed);
  assert.deepEqual(after.filter((f) => f.code === "middleware-drops-permissions"), [], fixed);
  // The refused rule stays where it was, only there (its path-parent-segment error is the main agent's).
  assert.equal(fixed.split("/workspace/../etc/**").length - 1, 1);
  assert.equal(after.filter((f) => f.severity === "error").length, findings(CONFIG).filter((f) => f.severity === "error").length);
  assert.ok(fixed.split("\n").every((line) => line.length <= 100), fixed);
  assert.match(
    fixed,
    /\n {10}"permissions": \[\n {12}\{ "operations": \["read", "write"\], "paths": \["\/secrets\/\*\*"\], "mode": "deny" \},\n {12}\{ "operations": \["write"\], "paths": \["\/workspace\/\.git\/\*\*"\], "mode": "deny" \}\n {10}\]/,
    fixed,
  );
});

test("a subagent whose own middleware has rules: the deny rules go first in that list, in its layout", () => {
  const text = CONFIG.replace(`"description": "Does the work"`, `"description": "Does the work",
      "middleware": [
        {
          "type": "filesystem",
          "permissions": [
            { "operations": ["read"], "paths": ["/**"], "mode": "allow" }
          ]
        }
      ]`);
  const pathHalf = findings(text, CODE).find((f) => f.fixes?.some((x) => x.title.startsWith("Prepend")))!;
  const fixed = applyFix(text, pathHalf, pathHalf.fixes!.findIndex((x) => x.title.startsWith("Prepend")));
  assert.ok(
    fixed.includes(`"permissions": [
            { "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" },
            { "operations": ["write"], "paths": ["/workspace/.git/**"], "mode": "deny" },
            { "operations": ["read"], "paths": ["/**"], "mode": "allow" }
          ]`),
    fixed,
  );
  assert.ok(!findings(fixed, CODE).some((f) => /deny/.test(f.message)), fixed);
});
