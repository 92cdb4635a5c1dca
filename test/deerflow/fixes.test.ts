/**
 * The authz-* fixes in a DeerFlow config.yaml: written in YAML, in the style of the text they edit (block or flow,
 * the replaced scalar's quoting), and each one holds: its result parses, and the finding it fixes is gone.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parse as parseYamlText } from "yaml";
import { checkDeerFlowConfigText } from "../../server/src/engine/deerflow/checkDeerFlow";
import { yamlScalar } from "../../server/src/engine/deerflow/yamlFrontEnd";
import type { Finding, Fix } from "../../server/src/engine/diagnostics";
import { applyEdits } from "../../server/src/engine/fixes";

const RBAC = "deerflow.authz.rbac:RbacAuthorizationProvider";
const HEAD = `tools:\n  - {name: web_search, use: deerflow.x:web_search}\n  - {name: github_create_issue, use: deerflow.x:a}\n  - {name: github_list_issues, use: deerflow.x:b}\n`;

function config(roles: string, defaultRole = "user"): string {
  return `${HEAD}authorization:\n  enabled: true\n  default_role: ${defaultRole}\n  provider:\n    use: ${RBAC}\n    config:\n      roles:\n${roles.replace(/^/gm, "        ")}\n`;
}

function findingOf(text: string, code: string, detail?: RegExp): Finding {
  const f = checkDeerFlowConfigText(text).findings.find((x) => x.code === code && (!detail || detail.test(x.detail ?? "")));
  assert.ok(f, `${code} fires`);
  return f;
}

/** Applies the fix titled `title`; the result must parse as YAML and no longer have the finding. */
function applied(text: string, finding: Finding, title: string | RegExp): string {
  const fix: Fix | undefined = finding.fixes?.find((x) => (typeof title === "string" ? x.title === title : title.test(x.title)));
  assert.ok(fix, `${finding.code} offers ${title}; offers ${JSON.stringify(finding.fixes?.map((x) => x.title))}`);
  const fixed = applyEdits(text, fix.edits);
  assert.doesNotThrow(() => parseYamlText(fixed, { uniqueKeys: false }), fixed);
  const after = checkDeerFlowConfigText(fixed).findings;
  assert.ok(!after.some((f) => f.code === "yaml-syntax"), fixed);
  assert.ok(!after.some((f) => f.code === finding.code && f.message === finding.message && f.span.start === finding.span.start), `fixed:\n${fixed}`);
  return fixed;
}

const roles = (text: string) => text.slice(text.indexOf("      roles:\n") + 13);

describe("authz fixes in YAML", () => {
  test("a misspelt name in a block list keeps the list's plain style", () => {
    const text = config("user:\n  tools:\n    allow:\n      - web_serch\n      - 'github_list_issues'");
    const fixed = applied(text, findingOf(text, "authz-tool-unknown"), 'Change to "web_search"');
    assert.match(roles(fixed), /^ {14}- web_search$/m);
  });

  test("a quoted name keeps its quotes", () => {
    const text = config("user:\n  tools: {allow: [\"web_serch\", 'x_serch']}");
    const fixed = applied(text, findingOf(text, "authz-tool-unknown"), 'Change to "web_search"');
    assert.match(fixed, /allow: \["web_search", 'x_serch'\]/);
  });

  test("a glob replaced by the tools it meant: more items of a block list, more names of a flow list", () => {
    const block = config("user:\n  tools:\n    allow:\n      - github_*\n      - web_search");
    const fixedBlock = applied(block, findingOf(block, "authz-literal-glob"), /^Replace with the 2 tools/);
    assert.match(roles(fixedBlock), /^ {14}- github_create_issue\n {14}- github_list_issues\n {14}- web_search$/m);
    const flow = config("user:\n  tools: {allow: [\"github_*\", web_search]}");
    const fixedFlow = applied(flow, findingOf(flow, "authz-literal-glob"), /^Replace with the 2 tools/);
    assert.match(fixedFlow, /allow: \["github_create_issue", "github_list_issues", web_search\]/);
  });

  test('["*"] becomes "*": after the key in block style, in place in flow style', () => {
    const block = config("user:\n  tools:\n    allow:\n      - \"*\"\n    deny: [web_search]");
    const fixedBlock = applied(block, findingOf(block, "authz-literal-star"), 'Allow everything: "allow": "*"');
    assert.match(roles(fixedBlock), /^ {12}allow: "\*"\n {12}deny: \[web_search\]$/m);
    const flow = config("user:\n  tools: {allow: [\"*\"]}");
    assert.match(applied(flow, findingOf(flow, "authz-literal-star"), 'Allow everything: "allow": "*"'), /tools: \{allow: "\*"\}/);
  });

  test("removing an entry: its line in a block list, its comma in a flow list, [] for the last of a block list", () => {
    const block = config("user:\n  tools:\n    deny:\n      - \"*\"\n      - web_search");
    const fixedBlock = applied(block, findingOf(block, "authz-literal-star"), 'Remove the "*" entry');
    assert.match(roles(fixedBlock), /^ {12}deny:\n {14}- web_search\n$/m);
    const flow = config("user:\n  tools: {deny: [web_search, \"*\"]}");
    assert.match(applied(flow, findingOf(flow, "authz-literal-star"), 'Remove the "*" entry'), /tools: \{deny: \[web_search\]\}/);
    const last = config("user:\n  tools:\n    allow: \"*\"\n    deny:\n      - \"*\"");
    assert.match(roles(applied(last, findingOf(last, "authz-literal-star"), 'Remove the "*" entry')), /^ {12}deny: \[\]$/m);
  });

  test("deny: null is removed (a safe fix), in block and flow mappings", () => {
    const block = config("user:\n  tools:\n    allow: \"*\"\n    deny: null\n  models: {allow: \"*\"}");
    const f = findingOf(block, "authz-invalid", /deny must not be null/);
    assert.equal(f.fixes![0]!.safe, true);
    assert.match(roles(applied(block, f, 'Remove "deny"')), /^ {8}user:\n {10}tools:\n {12}allow: "\*"\n {10}models/);
    const flow = config("user:\n  tools: {allow: \"*\", deny: null}");
    assert.match(applied(flow, findingOf(flow, "authz-invalid", /deny must not be null/), 'Remove "deny"'), /tools: \{allow: "\*"\}/);
    const only = config("user:\n  tools:\n    deny:");
    assert.match(roles(applied(only, findingOf(only, "authz-invalid", /deny must not be null/), 'Remove "deny"')), /^ {10}tools: \{\}$/m);
  });

  test("keys renamed in YAML: tool → tools, alow → allow, tols → tools", () => {
    const alias = config("user:\n  tool: {allow: \"*\"}");
    assert.match(applied(alias, findingOf(alias, "authz-invalid", /reserved request alias/), 'Rename to "tools"'), /^ {10}tools: \{allow: "\*"\}$/m);
    const policy = config("user:\n  tools: {alow: [web_search]}");
    assert.match(applied(policy, findingOf(policy, "authz-invalid", /unknown policy keys/), 'Rename to "allow"'), /tools: \{allow: \[web_search\]\}/);
    const resource = config("user:\n  tols:\n    allow: []");
    assert.match(applied(resource, findingOf(resource, "authz-resource-unknown"), 'Rename to "tools"'), /^ {10}tools:$/m);
  });

  test("values replaced in YAML: a wrong allow string, a deny string, a default role", () => {
    const any = config("user:\n  models: {allow: all}");
    assert.match(applied(any, findingOf(any, "authz-invalid", /allow string must be/), 'Allow everything: "*"'), /models: \{allow: "\*"\}/);
    const one = config("user:\n  models: {allow: gpt-4o}");
    assert.match(applied(one, findingOf(one, "authz-invalid", /allow string must be/), /^Allow only/), /models: \{allow: \[gpt-4o\]\}/);
    const deny = config("user:\n  tools:\n    deny: web_search");
    assert.match(roles(applied(deny, findingOf(deny, "authz-invalid", /deny must be a list/), /^Wrap in a list/)), /^ {12}deny: \[web_search\]$/m);
    const role = config("user: {}\nadmin: {}", "usr");
    assert.match(applied(role, findingOf(role, "authz-default-role-undefined"), 'Change to "user"'), /^ {2}default_role: user$/m);
  });

  test("a file with CRLF line ends keeps them in a fix that adds lines", () => {
    const text = config("user:\n  tools:\n    allow:\n      - github_*\n      - web_search").replace(/\n/g, "\r\n");
    const fixed = applied(text, findingOf(text, "authz-literal-glob"), /^Replace with the 2 tools/);
    assert.ok(!/[^\r]\n/.test(fixed), "no bare line feed");
    assert.match(fixed, /- github_create_issue\r\n {14}- github_list_issues\r\n/);
  });

  test("every fix offered beside another finding in the same flow list holds", () => {
    const text = config("user:\n  tools: {allow: [\"*\", \"github_*\"]}");
    const glob = findingOf(text, "authz-literal-glob");
    for (const fix of glob.fixes ?? []) applied(text, glob, fix.title);
  });
});

describe("scalars written so that PyYAML reads them back as the same string", () => {
  for (const [value, plain] of [["web_search", true], ["threads:read", true], ["*", false], ["yes", false], ["12", false], ["a: b", false], ["~", false], ["", false], ["a #b", false], ["x,y", true]] as const) {
    test(JSON.stringify(value), () => {
      const written = yamlScalar(value, "");
      assert.equal(written === value, plain, written);
      assert.equal(parseYamlText(`k: ${written}`, { schema: "yaml-1.1" }).k, value);
    });
  }
  test("in a flow list, a comma needs quotes", () => {
    assert.equal(yamlScalar("x,y", "", true), '"x,y"');
  });
});
