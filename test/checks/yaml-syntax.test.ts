import { test } from "node:test";
import assert from "node:assert/strict";
import { checkDeerFlowConfigText, checkSkillText } from "../../server/src/engine/deerflow/checkDeerFlow";

const CODE = "yaml-syntax";
const codes = (text: string) => checkDeerFlowConfigText(text, { named: true, fixes: false }).findings.filter((f) => f.code === CODE);

test("fires at a syntax error of a DeerFlow config.yaml, as an error, in the house style", () => {
  const text = "authorization:\n  enabled: true\n  provider: [unclosed\n";
  const found = codes(text);
  assert.ok(found.length >= 1, "a finding");
  assert.equal(found[0]!.severity, "error");
  assert.ok(found[0]!.span.start >= text.indexOf("[") - 1, "at the broken flow sequence or after it");
  assert.match(found[0]!.message, /^[A-Z].*\.$/);
});

test("a tag PyYAML's safe loader refuses, a second document, a top level that is no mapping", () => {
  assert.equal(codes("authorization: !custom {}\n").length > 0, true);
  assert.equal(codes("authorization: {}\n---\nother: 1\n").length > 0, true);
  assert.deepEqual(codes("- a\n- b\n").map((f) => f.message), ["A DeerFlow configuration must be a YAML mapping."]);
});

test("does not fire on valid YAML: anchors, merge keys, flow and block styles", () => {
  assert.deepEqual(codes("base: &b { x: 1 }\nother:\n  <<: *b\n  y: [1, 2]\nauthorization:\n  enabled: false\n"), []);
});

test("a SKILL.md frontmatter that does not read is reported too", () => {
  const found = checkSkillText("---\nname: s\nallowed-tools: [read_file\n---\nbody\n").findings.filter((f) => f.code === CODE);
  assert.ok(found.length >= 1);
});
