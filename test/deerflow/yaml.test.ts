/**
 * YAML as DeerFlow's loader (PyYAML's safe_load) reads it: anchors, merge keys, repeated keys, tags, YAML 1.1
 * booleans, several documents, syntax errors; and bad input (10 MB, binary bytes, deep nesting, alias bombs, every
 * truncation of a real example): a clear yaml-syntax finding or silence, never a crash.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkDeerFlowConfigText, checkSkillText } from "../../server/src/engine/deerflow/checkDeerFlow";
import { parseYaml } from "../../server/src/engine/deerflow/yamlTree";
import type { Finding } from "../../server/src/engine/diagnostics";
import { styleProblems } from "../helpers/messageStyle";
import { rng } from "../helpers/random";

const RBAC = "deerflow.authz.rbac:RbacAuthorizationProvider";

/** A config.yaml with `roles` (YAML text, indented for `roles:`'s place) under DeerFlow's provider. */
function withRoles(roles: string, head = "  enabled: true\n  default_role: user\n"): string {
  return `authorization:\n${head}  provider:\n    use: ${RBAC}\n    config:\n      roles:\n${roles.replace(/^/gm, "        ")}\n`;
}

function check(text: string): Finding[] {
  const found = checkDeerFlowConfigText(text).findings;
  assert.deepEqual(found.flatMap(styleProblems), [], "house style");
  return found;
}

const at = (text: string, f: Finding) => text.slice(f.span.start, f.span.end);

describe("YAML read as safe_load reads it", () => {
  test("an alias is the anchored value; findings are where the anchor writes it", () => {
    const text = withRoles("user:\n  tools: &t {allow: [\"*\"]}\nguest:\n  tools: *t");
    const found = check(text).filter((f) => f.code === "authz-literal-star");
    // Both roles have the mistake, written once: both findings point at the anchored list's "*".
    assert.equal(found.length, 2);
    assert.deepEqual(found.map((f) => f.span), [found[0]!.span, found[0]!.span]);
    assert.equal(at(text, found[0]!), '"*"');
    assert.match(found[1]!.detail!, /role "guest"/);
  });

  test("merge keys: the merged keys first, the mapping's own win, of several merged the first wins", () => {
    const base = "base: &base\n  tools: {allow: false}\n  models: {allow: []}\nother: &other\n  tools: {allow: \"*\"}\n  routes: {allow: false}\n";
    const text = `${base}${withRoles("user:\n  <<: [*other, *base]\n  models: {allow: \"*\"}")}`;
    const denyAll = check(text).filter((f) => f.code === "authz-deny-all");
    // tools: *other's "*" wins over *base's false; models: the mapping's own "*" wins; routes: from *other.
    assert.deepEqual(denyAll.map((f) => f.message), ['"allow": false denies role "user" every Gateway route permission.']);
    assert.equal(at(text, denyAll[0]!), "false");
    assert.ok(denyAll[0]!.span.start < text.indexOf("authorization:"), "at the anchor's text");
  });

  test("a repeated key keeps its last value (PyYAML does not refuse it)", () => {
    const text = withRoles("user:\n  tools: {allow: false}\n  tools: {allow: \"*\"}\nuser2:\n  tools: {allow: \"*\"}\n  tools: {allow: false}");
    const found = check(text);
    assert.deepEqual(found.map((f) => [f.code, f.message]), [["authz-deny-all", '"allow": false denies role "user2" every tool.']]);
    assert.equal(found.filter((f) => f.code === "yaml-syntax").length, 0);
  });

  test("YAML 1.1 booleans: enabled: yes enables the block; allow: no denies all", () => {
    const text = withRoles("user:\n  tools: {allow: no}", "  enabled: yes\n  default_role: usr\n");
    const codes = check(text).map((f) => f.code);
    assert.deepEqual(codes, ["authz-default-role-undefined", "authz-deny-all"]);
    assert.equal(check(text).find((f) => f.code === "authz-default-role-undefined")!.severity, "error");
  });

  test("a key YAML 1.1 reads as a boolean or a number is not a name: DeerFlow refuses it", () => {
    const text = withRoles("user: {}\nno:\n  tools: {allow: []}\nguest:\n  1: {allow: []}");
    const found = check(text).filter((f) => f.code === "authz-invalid");
    assert.deepEqual(found.map((f) => [at(text, f), f.message, f.detail!.replace(/^.*?whatever fail_closed says\. /, "")]), [
      ["no", "DeerFlow refuses to build the agent: its RBAC provider rejects the role False.", "role name must be a non-empty string, got False (YAML 1.1 reads this key as bool: quote it to make it a name)"],
      ["1", 'DeerFlow refuses to build the agent: its RBAC provider rejects role "guest".', "role 'guest' has invalid resource key 1 (YAML 1.1 reads this key as int: quote it to make it a name)"],
    ]);
  });

  test("an empty value is null, reported on its key", () => {
    const text = withRoles("user: {}\nguest:");
    const [f] = check(text).filter((x) => x.code === "authz-invalid");
    assert.match(f!.detail!, /role 'guest' config must be a dict, got NoneType$/);
    assert.equal(at(text, f!), "guest");
  });

  test("tags: !!str is a string; a tag safe_load does not know refuses the file", () => {
    const ok = withRoles("user:\n  tools: {allow: [!!str 12]}");
    assert.deepEqual(check(ok).map((f) => f.code), ["authz-tool-unknown"]);
    const bad = `${withRoles("user: {}")}extra: !custom value\n`;
    const [f] = check(bad);
    assert.equal(f!.code, "yaml-syntax");
    assert.equal(f!.message, "DeerFlow's YAML loader cannot read the tag !custom: it refuses the whole file.");
    assert.equal(at(bad, f!), "!custom");
  });

  test("several documents: safe_load refuses them; the first is checked", () => {
    const text = `${withRoles("user:\n  tools: {allow: false}")}---\nsecond: 1\n`;
    const found = check(text);
    assert.deepEqual(found.map((f) => f.code), ["authz-deny-all", "yaml-syntax"]);
    assert.equal(found[1]!.message, "DeerFlow's loader reads one YAML document; this file holds 2.");
    assert.equal(at(text, found[1]!), "---");
  });

  test("a syntax error is a yaml-syntax error at its place, and the rest is still checked", () => {
    const text = withRoles("user:\n  tools: {allow: false}\n  models: {allow: [a, b}");
    const found = check(text);
    assert.ok(found.some((f) => f.code === "yaml-syntax" && f.severity === "error"));
    for (const f of found.filter((x) => x.code === "yaml-syntax")) assert.ok(f.span.start >= text.indexOf("models"), `${f.message} near the error`);
  });

  test("a top level that is not a mapping", () => {
    const [f] = checkDeerFlowConfigText("- a\n- b\n", { named: true }).findings;
    assert.equal(f!.message, "A DeerFlow configuration must be a YAML mapping.");
  });

  test("another program's config.yaml gets nothing, even broken; named on the command line, it is checked", () => {
    const text = "server:\n  port: [80\n";
    assert.deepEqual(checkDeerFlowConfigText(text).findings, []);
    assert.ok(checkDeerFlowConfigText(text, { named: true }).findings.some((f) => f.code === "yaml-syntax"));
  });

  test("a provider other than DeerFlow's RBAC: its config is not checked, and that is said once", () => {
    const text = "authorization:\n  enabled: true\n  provider:\n    use: my.module:Custom\n    config:\n      roles: [whatever]\n";
    const result = checkDeerFlowConfigText(text);
    assert.deepEqual(result.findings, []);
    assert.equal(result.skipped.length, 1);
    assert.match(result.skipped[0]!.why, /my\.module:Custom/);
  });

  test("DeerFlow's factory refusals only YAML can hold: no provider, a provider config key other than roles", () => {
    const none = "authorization:\n  enabled: true\n";
    const [a] = check(none);
    assert.equal(a!.code, "authz-invalid");
    assert.match(a!.detail!, /authorization\.enabled is true but no provider is configured; set authorization\.provider\.use to a class path/);
    const rolez = `authorization:\n  enabled: true\n  provider:\n    use: ${RBAC}\n    config:\n      rolez: {}\n`;
    const found = check(rolez).filter((f) => f.code === "authz-invalid");
    // In file order: the missing roles on the block's key, the unknown key on itself.
    assert.deepEqual(found.map((f) => [f.detail!.replace(/^.*?\. /, ""), at(rolez, f)]), [
      ["missing required provider config key 'roles'", "authorization"],
      ["unknown provider config keys ['rolez']; supported: ['roles']", "rolez"],
    ]);
    // Disabled: no provider is fine.
    assert.deepEqual(check("authorization:\n  enabled: false\n"), []);
  });

  test("# agent-sandbox-ignore silences a finding on its line or the line below", () => {
    const text = withRoles("user:\n  # agent-sandbox-ignore authz-deny-all\n  tools: {allow: false}\n  models: {allow: false} # agent-sandbox-ignore authz-deny-all\n  routes: {allow: false}");
    assert.deepEqual(check(text).map((f) => f.message), ['"allow": false denies role "user" every Gateway route permission.']);
  });

  test("severities: off drops the code, an override changes the level", () => {
    const text = withRoles("user:\n  tools: {allow: false}");
    assert.deepEqual(checkDeerFlowConfigText(text, { severities: { "authz-deny-all": "off" } }).findings, []);
    assert.equal(checkDeerFlowConfigText(text, { severities: { "authz-deny-all": "error" } }).findings[0]!.severity, "error");
  });
});

describe("bad input: a clear finding or silence, never a crash", () => {
  const EXAMPLE = `tools:
  - {name: web_search, group: web, use: deerflow.community.ddg_search.tools:web_search_tool}
  - name: read_file
    group: file:read
    use: deerflow.sandbox.tools:read_file_tool
base: &base
  tools: {allow: "*", deny: [bash]}
authorization:
  enabled: true
  fail_closed: true
  default_role: user
  provider:
    use: ${RBAC}
    config:
      roles:
        admin:
          tools: {allow: "*"}
        user:
          <<: *base
          models: {allow: [gpt-4o, "claude"]}
        guest:
          tools:
            allow:
              - web_search
              - 'read_file'
              - "github_*"
            deny: null
          routes: {allow: [threads:read, runs:read]}
`;

  test("a file over 4 MB (10 MB) is not analysed, and says so", () => {
    const big = `authorization:\n  enabled: true\n${"# padding\n".repeat(1_050_000)}`;
    const [f] = checkDeerFlowConfigText(big).findings;
    assert.equal(f!.code, "yaml-syntax");
    assert.match(f!.message, /^The file is 10\.\d MB: files over 4 MB are not analysed\.$/);
  });

  test("binary bytes", () => {
    const [f] = checkDeerFlowConfigText(`authorization:\n  enabled: true\x00\x01\xff\n`).findings;
    assert.equal(f!.message, "The file contains binary data (a NUL byte): it is not a YAML file.");
    // Without a NUL byte, other control characters are YAML errors, not crashes.
    assert.ok(checkDeerFlowConfigText(`authorization:\n  enabled: \x07\x1b\n`).findings.every((x) => x.code === "yaml-syntax"));
  });

  test("10,000 nested brackets, and 10,000 nested block mappings", () => {
    const [f] = checkDeerFlowConfigText(`authorization: ${"[".repeat(10_000)}${"]".repeat(10_000)}\n`).findings;
    assert.match(f!.message, /^Nesting deeper than 128 levels/);
    let deep = "authorization:\n";
    for (let i = 0; i < 10_000; i++) deep += `${" ".repeat(i + 1)}k${i}:\n`;
    const found = checkDeerFlowConfigText(deep).findings;
    assert.ok(found.every((x) => x.code === "yaml-syntax"), JSON.stringify(found.map((x) => x.message)));
  });

  test("an alias bomb is refused, not expanded", () => {
    let text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (let i = 1; i < 9; i++) text += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(", ")}]\n`;
    text += "authorization: *a8\n";
    // 10^9 values written as 90 aliases: refused once 100,000 are built, not expanded.
    const parsed = parseYaml(text);
    assert.equal(parsed.refused, "too-many-nodes");
    assert.match(parsed.findings[0]!.message, /Aliases expand to more than 100,000 values/);
  });

  test("every truncation of a real example: findings in the house style, never a crash", () => {
    const full = check(EXAMPLE);
    assert.ok(full.length >= 3, "the example has findings to lose");
    for (let i = 0; i <= EXAMPLE.length; i++) {
      const text = EXAMPLE.slice(0, i);
      const found = checkDeerFlowConfigText(text, { verifyFixes: i % 16 === 0 }).findings;
      assert.deepEqual(found.flatMap(styleProblems), [], `at ${i}`);
      for (const f of found) assert.ok(f.span.start >= 0 && f.span.end <= text.length && f.span.start <= f.span.end, `span in the text at ${i}`);
    }
  });

  test("random edits of a real example (YAML's own characters inserted, text deleted): never a crash", () => {
    const random = rng(30);
    const pieces = ["&a ", "*a", "<<: ", "[", "]", "{", "}", ", ", ": ", "- ", "\n", "  ", "'", '"', "!!str ", "!x ", "#", "---\n", "? ", "|\n", "\t"];
    for (let round = 0; round < 300; round++) {
      let text = EXAMPLE;
      for (let edit = 0; edit < 4; edit++) {
        const at = Math.floor(random() * text.length);
        text = random() < 0.5 ? text.slice(0, at) + pieces[Math.floor(random() * pieces.length)] + text.slice(at) : text.slice(0, at) + text.slice(at + Math.floor(random() * 8));
      }
      const found = checkDeerFlowConfigText(text, { verifyFixes: round % 10 === 0 }).findings;
      assert.deepEqual(found.flatMap(styleProblems), [], text);
      assert.ok(!found.some((f) => f.code === "internal-error"), text);
    }
  });

  test("every truncation of a SKILL.md", () => {
    const skill = "---\nname: x\nallowed-tools: [web_serch, read_file]\n---\n# X\n";
    for (let i = 0; i <= skill.length; i++) checkSkillText(skill.slice(0, i), { readFile: (p) => (p === "config.yaml" ? EXAMPLE : undefined) });
  });
});
