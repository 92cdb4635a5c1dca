/**
 * The editor's second phase runs the exact analysis alone (`analysisOnly`) and joins its findings to the first
 * phase's (`mergeFindings`): the result must be exactly the whole check's, findings, order and all.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { checkConfigText, mergeFindings, type CheckOptions } from "../../server/src/engine/checkConfig";
import { generateConfigText } from "../../bench/generate";

const ROOT = join(__dirname, "..", "..");

function texts(): { name: string; text: string }[] {
  const out = [{ name: "examples/research-agent", text: readFileSync(join(ROOT, "examples", "research-agent", "agent-sandbox.jsonc"), "utf8") }];
  for (const [rules, seed] of [[10, 1], [30, 2], [60, 3], [120, 4], [200, 3]] as const) out.push({ name: `generated ${rules}/${seed}`, text: generateConfigText(rules, seed, "x") });
  // Both halves of subagent-escalation at one place: a subagent that regains a tool and a path.
  out.push({
    name: "escalation, both halves",
    text: `{
  "version": 1,
  "middleware": [{ "type": "filesystem", "tools": ["read_file", "ls"], "permissions": [{ "operations": ["read", "write"], "paths": ["/secrets/**"], "mode": "deny" }] }],
  "subagents": [{ "name": "helper", "description": "d", "permissions": [{ "operations": ["read"], "paths": ["/tmp/**"], "mode": "allow" }] }]
}
`,
  });
  // Syntax and schema errors: the first phase's alone.
  out.push({ name: "broken", text: '{\n  "version": 1,\n  "permissions": [{ "operations": ["read"] "paths": ["/a/**"], "mode": "deny" }\n' });
  out.push({ name: "schema", text: '{ "version": 1, "permisions": [], "permissions": [{ "operations": ["read"], "paths": ["/a/**", "/a/b"], "mode": "deny" }, { "operations": ["read"], "paths": ["/a/b"], "mode": "allow" }] }' });
  out.push({ name: "not an object", text: "[1, 2]" });
  // Suppressions and severity overrides apply to both phases alike.
  out.push({ name: "suppressed", text: out[1]!.text.replace('"permissions": [', '"permissions": [\n    // agent-sandbox-ignore rule-shadowed runtime-divergence') });
  return out;
}

for (const options of [{}, { severities: { "rule-redundant": "error", "dotfiles-unprotected": "off" } }] as CheckOptions[]) {
  test(`first phase + analysis alone = the whole check (${JSON.stringify(options)})`, () => {
    let analysed = 0;
    for (const { name, text } of texts()) {
      const whole = checkConfigText(text, { ...options, analysis: true });
      const first = checkConfigText(text, options);
      const second = checkConfigText(text, { ...options, analysisOnly: true });
      analysed += second.findings.length;
      if (name === "escalation, both halves") {
        // The tool half comes from the first phase, the path half from the analysis.
        assert.equal(first.findings.filter((f) => f.code === "subagent-escalation").length, 1, name);
        assert.equal(second.findings.filter((f) => f.code === "subagent-escalation").length, 1, name);
      }
      assert.deepEqual(mergeFindings(first.findings, second.findings), whole.findings, name);
      assert.ok(second.findings.every((f) => !first.findings.some((g) => g.code === f.code && g.span.start === f.span.start && g.message === f.message)), `${name}: no finding twice`);
      assert.ok(second.findings.every((f) => f.code !== "json-syntax" && f.code !== "schema"), `${name}: syntax and schema are the first phase's`);
    }
    assert.ok(analysed > 50, `the analysis found things to merge (${analysed})`);
  });
}
