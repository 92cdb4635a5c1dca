/**
 * Parity: a DeerFlow config.yaml checked in place gives the findings its equivalent agent-sandbox.jsonc gives (the
 * `tools` of the one are the names of the other's `tools:` entries, the roles of the one are the other's
 * `provider.config.roles`): the same codes, severities, messages and details, each at the span of the same value,
 * in block style and in flow style. The same for a skill's SKILL.md, checked in place or named by a config.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parse as parseYamlText, stringify } from "yaml";
import { checkConfigText } from "../../server/src/engine/checkConfig";
import { checkDeerFlowConfigText, checkSkillText } from "../../server/src/engine/deerflow/checkDeerFlow";
import type { Finding } from "../../server/src/engine/diagnostics";
import { styleProblems } from "../helpers/messageStyle";

interface Case {
  tools: string[];
  authorization: Record<string, unknown> & { roles?: unknown };
}

/** One case per authz-* code (and the disabled block, whose construction errors are warnings). */
const CASES: Record<string, Case> = {
  "authz-invalid": {
    tools: ["web_search"],
    authorization: {
      enabled: true,
      roles: {
        user: { tools: { allow: null, deny: "bash" }, tool: { allow: "*" }, models: { allow: "any" }, routes: { alow: ["threads:read"] }, skills: ["x"], sandbox: { allow: ["a", "", 3], deny: null } },
        "": {},
        guest: null,
      },
    },
  },
  "authz-invalid, disabled": { tools: [], authorization: { enabled: false, roles: { user: { tools: { deny: "bash" } } } } },
  "authz-invalid, roles of the wrong type": { tools: [], authorization: { enabled: true, roles: ["admin"] } },
  "authz-default-role-undefined": { tools: [], authorization: { enabled: true, default_role: "usr", roles: { user: {}, admin: {} } } },
  "authz-default-role-undefined, implicit user": { tools: [], authorization: { enabled: true, roles: { admin: {} } } },
  "authz-resource-unknown": { tools: [], authorization: { enabled: true, default_role: "user", roles: { user: { tols: { allow: [] }, modles: { allow: ["gpt-4o"] } } } } },
  "authz-resource-unenforced": { tools: [], authorization: { enabled: true, default_role: "user", roles: { user: { skills: { allow: [] }, sandbox: { allow: true }, mcp_servers: { deny: ["github"] } } } } },
  "authz-literal-star": { tools: [], authorization: { enabled: true, default_role: "user", roles: { user: { tools: { allow: ["*"], deny: ["*", "ls"] } } } } },
  "authz-literal-glob": { tools: ["github_create_issue", "github_list"], authorization: { enabled: true, default_role: "user", roles: { user: { tools: { allow: ["github_*", "read_?ile"] } } } } },
  "authz-tool-unknown": { tools: ["web_search"], authorization: { enabled: true, default_role: "user", roles: { user: { tools: { allow: ["web_serch", "Read_file", "present_files"], deny: ["bsh"] } } } } },
  "authz-deny-all": { tools: [], authorization: { enabled: true, default_role: "user", roles: { user: { tools: { allow: false }, models: { allow: [] }, routes: { allow: false }, sandbox: { allow: [] } } } } },
};

function jsoncOf(c: Case): string {
  return JSON.stringify({ version: 1, tools: c.tools, authorization: c.authorization }, null, 2);
}

/** The same case as DeerFlow writes it: tools as entries, the roles under provider.config. */
function yamlOf(c: Case, style: "block" | "flow"): string {
  const { roles, ...block } = c.authorization;
  const authorization = { ...block, provider: { use: "deerflow.authz.rbac:RbacAuthorizationProvider", ...(roles === undefined ? {} : { config: { roles } }) } };
  const value = { tools: c.tools.map((name) => ({ name, group: "web", use: `deerflow.community.tools:${name}` })), authorization };
  return style === "block" ? stringify(value) : `tools: ${stringify(value.tools, { collectionStyle: "flow" })}authorization: ${stringify(authorization, { collectionStyle: "flow" })}`;
}

/** A finding as both front ends must agree on it: the value at its span, read as YAML (JSON is YAML). */
function comparable(text: string, f: Finding) {
  const at = text.slice(f.span.start, f.span.end);
  return { code: f.code, severity: f.severity, message: f.message, detail: f.detail, value: parseYamlText(at === "" ? "null" : at) as unknown };
}

const AUTHZ = (f: Finding) => f.code.startsWith("authz-");

describe("a DeerFlow config.yaml gives its agent-sandbox.jsonc's authz findings, at its YAML spans", () => {
  for (const [name, c] of Object.entries(CASES)) {
    for (const style of ["block", "flow"] as const) {
      test(`${name} (${style} style)`, () => {
        const jsonc = jsoncOf(c);
        const yaml = yamlOf(c, style);
        const expected = checkConfigText(jsonc).findings.filter(AUTHZ);
        const actual = checkDeerFlowConfigText(yaml).findings;
        assert.ok(expected.length > 0, "the case makes its code fire");
        assert.ok(expected.some((f) => name.startsWith(f.code)), `${name} fires`);
        assert.deepEqual(actual.filter((f) => !AUTHZ(f)), [], "nothing but authz findings");
        assert.deepEqual(actual.map((f) => comparable(yaml, f)), expected.map((f) => comparable(jsonc, f)));
        assert.deepEqual(actual.flatMap(styleProblems), []);
        // The same fixes, by title, rendered in YAML (each holds: fixes.test.ts applies them).
        assert.deepEqual(
          actual.map((f) => f.fixes?.map((x) => [x.title, x.safe]) ?? []),
          expected.map((f) => f.fixes?.map((x) => [x.title, x.safe]) ?? []),
        );
      });
    }
  }

  test("every authz-* code of the catalogue has a case", async () => {
    const { CHECKS } = await import("../../server/src/engine/checks/index");
    const codes = CHECKS.map((c) => c.code).filter((c) => c.startsWith("authz-"));
    assert.deepEqual(codes.filter((code) => !Object.keys(CASES).some((k) => k.startsWith(code))), []);
  });
});

describe("a SKILL.md checked in place gives the findings a config naming it gives, on allowed-tools", () => {
  const SKILLS: Record<string, string> = {
    "a string": "---\nname: review\nallowed-tools: read_file, grep\n---\n# Review\n",
    "a flow list with unknown names": "---\nname: research\nallowed-tools: [web_serch, read_file, Bash]\n---\n",
    "a block list with unknown names": "---\nname: research\ndescription: Finds things\nallowed-tools:\n  - web_search\n  - 'wrte_file'\n  - \"tool_search\"\n---\nbody\n",
  };
  const tools = ["web_search", "write_file"];
  const configYaml = yamlOf({ tools, authorization: { enabled: false } }, "block");
  for (const [name, skill] of Object.entries(SKILLS)) {
    test(name, () => {
      const jsonc = JSON.stringify({ version: 1, tools, skills: ["./skills/x"] }, null, 2);
      const expected = checkConfigText(jsonc, { readFile: (p) => (p === "./skills/x/SKILL.md" ? skill : undefined) }).findings.filter((f) => f.code.startsWith("skill-"));
      const actual = checkSkillText(skill, { fileLabel: "./skills/x/SKILL.md", readFile: (p) => (p === "../../config.yaml" ? configYaml : undefined) }).findings;
      assert.ok(expected.length > 0);
      assert.deepEqual(
        actual.map((f) => ({ code: f.code, severity: f.severity, message: f.message, detail: f.detail })),
        expected.map((f) => ({ code: f.code, severity: f.severity, message: f.message, detail: f.detail })),
      );
      // At the value in the frontmatter: the string, or each unknown name.
      for (const f of actual) {
        const at = skill.slice(f.span.start, f.span.end);
        if (f.code === "skill-tool-unknown") assert.ok(f.message.includes(JSON.stringify(parseYamlText(at))), `${f.message} is about ${at}`);
        else assert.equal(at, "read_file, grep");
      }
    });
  }

  test("without a DeerFlow config.yaml above it, tool names are not checked, and that is said once", () => {
    const result = checkSkillText(SKILLS["a flow list with unknown names"]!, { readFile: () => undefined });
    assert.deepEqual(result.findings, []);
    assert.equal(result.skipped.length, 1);
    assert.deepEqual(result.skipped[0]!.checks, ["skill-tool-unknown"]);
  });

  test("a string gets the list it was meant to be as a fix, which reads back as that list", () => {
    const skill = SKILLS["a string"]!;
    const [f] = checkSkillText(skill).findings;
    const fix = f!.fixes![0]!;
    const fixed = skill.slice(0, fix.edits[0]!.span.start) + fix.edits[0]!.newText + skill.slice(fix.edits[0]!.span.end);
    assert.match(fixed, /^allowed-tools: \[read_file, grep\]$/m);
    assert.deepEqual(checkSkillText(fixed).findings, []);
  });
});
