// `tools`, `prompt` and `explain` on configs with 10,000 roles or subagents (issue 3, "Bad input"): output in a
// few large writes, text output grouped by role, usage errors that list a few names rather than all of them. Run
// in process (main() with a recording io), so that the number of writes can be counted.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { main } from "../../server/src/cli/main";
import { BATCH_CHARS } from "../../server/src/cli/output";
import { LISTED_NAMES } from "../../server/src/engine/names";
import { scratchDir } from "../helpers/scratch";

const CLI = join(__dirname, "..", "..", "dist", "cli.js");
const ROLES = 10_000;

function tempConfig(config: unknown): string {
  const dir = scratchDir("cli-large");
  const file = join(dir, "agent-sandbox.jsonc");
  writeFileSync(file, JSON.stringify(config, null, 1));
  return file;
}

/** main() with stdout and stderr recorded, each write separately. */
function runInProcess(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = main(args, { out: (t) => out.push(t), err: (t) => err.push(t), color: false });
  return { code, writes: out.length, stdout: out.join(""), stderr: err.join("") };
}

/** Role `role-i` gets one of three tool policies, so 10,000 roles make three groups per agent. */
const POLICIES = [{ tools: { allow: ["ls", "read_file"] } }, { tools: { allow: "*", deny: ["write_file"] } }, { tools: { allow: ["read_file"] } }];
const rolesConfig = tempConfig({
  version: 1,
  authorization: {
    enabled: true,
    default_role: "admin",
    roles: Object.fromEntries([["admin", { tools: { allow: "*" } }], ...Array.from({ length: ROLES - 1 }, (_, i) => [`role-${i}`, POLICIES[i % 3]!])]),
  },
});
const subagentsConfig = tempConfig({
  version: 1,
  subagents: Array.from({ length: ROLES }, (_, i) => ({ name: `agent-${i}`, description: `Handles case ${i}` })),
});

/** The most writes `text` can take in batches of BATCH_CHARS characters (one more for the remainder). */
const writesFor = (text: string) => Math.ceil(text.length / BATCH_CHARS) + 1;

describe("tools on 10,000 roles", () => {
  test("text: one block per group of roles with the same tools, every role named once per agent, few writes", () => {
    const r = runInProcess(["tools", rolesConfig]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.writes <= writesFor(r.stdout), `${r.writes} writes for ${r.stdout.length} characters`);
    // main and general-purpose: the entry without a role, admin alone, then the three groups of role-i.
    const headers = r.stdout.split("\n").filter((l) => /^\S/.test(l));
    assert.deepEqual(
      headers.map((h) => h.replace(/: .*/, "")),
      ["main", "main (role admin)", "main (3,333 roles)", "main (3,333 roles)", "main (3,333 roles)", "general-purpose", "general-purpose (role admin)", "general-purpose (3,333 roles)", "general-purpose (3,333 roles)", "general-purpose (3,333 roles)"],
    );
    for (const name of ["role-0", "role-5000", "role-9998"]) assert.equal(r.stdout.split(new RegExp(`\\b${name}\\b(?!-)`)).length - 1, 2, name);
    // Ungrouped, each of the 20,002 entries printed a line per tool: megabytes. Grouped: the role names and a few lines.
    assert.ok(r.stdout.length < 300_000, `${r.stdout.length} characters`);
    assert.ok(r.stdout.split("\n").every((l) => l.length <= 120 || !l.startsWith("   ")), "role lists are wrapped");
  });

  test("json: the contract's document byte for byte (JSON.stringify with 2 spaces), one entry per agent × role, in batches", () => {
    const r = runInProcess(["tools", rolesConfig, "--format", "json"]);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as { agents: { agent: string; role: string | null }[] };
    assert.equal(r.stdout, `${JSON.stringify(json, null, 2)}\n`);
    assert.equal(json.agents.length, 2 * (ROLES + 1));
    assert.deepEqual(json.agents.slice(0, 3).map((a) => [a.agent, a.role]), [["main", null], ["main", "admin"], ["main", "role-0"]]);
    assert.ok(r.stdout.length > 4 * BATCH_CHARS, "the document spans several batches");
    assert.ok(r.writes <= writesFor(r.stdout), `${r.writes} writes for ${r.stdout.length} characters`);
    assert.ok(r.writes > 1, "written in batches, not as one string");
  });

  test("an unknown role: the closest name first, at most 20 names, and how many more", () => {
    const r = runInProcess(["tools", rolesConfig, "--role", "admn"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^agent-sandbox: No role named "admn"\. Did you mean "admin"\? Roles: admin, role-0, role-1, /);
    assert.match(r.stderr, new RegExp(`, … and ${(ROLES - LISTED_NAMES).toLocaleString("en")} more\\.\\n`));
    assert.equal(r.stderr.match(/role-\d+/g)?.length, LISTED_NAMES - 1);
    assert.ok(r.stderr.length < 1000, `${r.stderr.length} characters`);
  });

  test("an unknown role with no close name lists the first 20 in the config's order", () => {
    const r = runInProcess(["prompt", rolesConfig, "--role", "zzzzzzzz"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /No role named "zzzzzzzz"\. Roles: admin, role-0, /);
    assert.doesNotMatch(r.stderr, /Did you mean/);
  });
});

describe("10,000 subagents", () => {
  test("an unknown agent in tools, prompt and explain: a short message with the closest name first", () => {
    for (const args of [["tools", subagentsConfig], ["prompt", subagentsConfig], ["explain", subagentsConfig, "--op", "read", "--path", "/a"]]) {
      const r = runInProcess([...args, "--agent", "agent-12x"]);
      assert.equal(r.code, 2, args[0]);
      assert.match(r.stderr, /^agent-sandbox: No agent named "agent-12x"\. Did you mean "agent-12"\? Agents: agent-12, main, general-purpose, agent-0, /, args[0]);
      assert.match(r.stderr, /… and 9,982 more\./, args[0]);
      assert.ok(r.stderr.length < 1000, `${args[0]}: ${r.stderr.length} characters`);
    }
  });

  test("tools: every agent's entry, in few writes", () => {
    const r = runInProcess(["tools", subagentsConfig]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.split("\n").filter((l) => /^agent-\d+: /.test(l)).length, ROLES);
    assert.ok(r.writes <= writesFor(r.stdout), `${r.writes} writes for ${r.stdout.length} characters`);
  });
});

describe("tools text: grouping roles", () => {
  const file = tempConfig({
    version: 1,
    authorization: {
      enabled: true,
      default_role: "admin",
      roles: {
        admin: { tools: { allow: "*" } },
        "guest one": { tools: { allow: ["read_file", "ls"] } },
        ls: { tools: { allow: ["read_file", "ls"] } },
        guest2: { tools: { allow: ["read_file", "ls"] } },
        tool: { tools: { allow: ["read_file", "ls"] } },
      },
    },
  });

  test("roles whose tools differ only by their own name in the reasons share a block with <role> in the reasons", () => {
    const r = runInProcess(["tools", file, "--agent", "main"]);
    assert.equal(r.code, 0, r.stderr);
    const blocks = r.stdout.split(/\n(?=\S)/);
    assert.equal(blocks.length, 3, r.stdout);
    assert.match(blocks[1]!, /^main \(role admin\): 8 tools: /);
    // A name that needs quoting is quoted; `ls` is also a tool's name, but only where it names the role is it <role>.
    assert.match(blocks[2]!, /^main \(4 roles\): 2 tools: ls, read_file\n {2}roles: "guest one", ls, guest2, tool\n/);
    assert.match(blocks[2]!, /\n {2}hidden write_file, edit_file, delete, glob, grep, task \(authorization\): denied by DeerFlow's authorization to role "<role>"\n/);
    // `tool` is in the group too: the reasons no longer quote DeerFlow's message, which named the resource (on
    // resource 'tool') and kept that role apart.
  });

  test("a tool whose name holds a mark that stands for a role's name does not keep roles apart", () => {
    // A user tool named with U+0001: the reasons do not name the tool, so the mark is in no reason, and the
    // roles with the same tools share a block.
    const marked = tempConfig({
      version: 1,
      tools: ["odd\u0001tool"],
      authorization: { enabled: true, default_role: "r1", roles: { r1: { tools: { allow: ["read_file"] } }, r2: { tools: { allow: ["read_file"] } }, r3: { tools: { allow: ["ls"] } }, r4: { tools: { allow: ["ls"] } } } },
    });
    const r = runInProcess(["tools", marked, "--agent", "main"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.split("\n").filter((l) => /^\S/.test(l)).map((l) => l.replace(/: .*/, "")), ["main", "main (2 roles)", "main (2 roles)"]);
  });

  test("with --role, one role's entry, its hidden tools by reason", () => {
    const r = runInProcess(["tools", file, "--agent", "main", "--role", "guest2"]);
    assert.match(r.stdout, /^main \(role guest2\): 2 tools: ls, read_file\n {2}hidden write_file, edit_file, delete, glob, grep, task \(authorization\): denied by DeerFlow's authorization to role "guest2"\n/);
  });
});

describe("the built CLI", () => {
  test("an unknown role on 10,000 roles: exit 2, a short message", () => {
    const r = spawnSync(process.execPath, [CLI, "tools", rolesConfig, "--role", "admn"], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    assert.equal(r.status, 2);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /Did you mean "admin"\?/);
    assert.ok(r.stderr.length < 1000, `${r.stderr.length} characters`);
  });
});

describe("check text on a 100,000-character line", () => {
  test("a position longer than its column still has a space before the severity", () => {
    // The whole config on one line: the rule after the long pattern starts past column 100,000.
    const file = tempConfig({});
    writeFileSync(
      file,
      `{"version": 1, "permissions": [{"operations": ["read"], "paths": ["/data/${"a".repeat(100_000)}"], "mode": "deny"}, {"operations": ["read"], "paths": ["no-slash"], "mode": "deny"}]}`,
    );
    const { stdout } = runInProcess(["check", file, "--format", "text"]);
    const line = stdout.split("\n").find((l) => l.includes("no-slash"));
    assert.ok(line, stdout.slice(0, 2000));
    assert.match(line, /^ {2}1:\d{6} error {7}/);
  });
});
