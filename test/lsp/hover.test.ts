/** textDocument/hover: agents, tools, rules, patterns, roles, systemPrompt, keys. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FIXTURES, type Fixture } from "./fixtures";
import { rangeText } from "./lspClient";
import { assertMentions, hoverAt, serverSession } from "./session";

interface Case {
  given: Fixture;
  caret: string;
  /** The hovered range's text. */
  range?: string;
  contains: (string | RegExp)[];
  excludes?: (string | RegExp)[];
}

const research = FIXTURES.research;
const CASES: Record<string, Case> = {
  "the main agent's name shows its effective tools, per role": {
    given: research,
    caret: '"resea‸rch"',
    range: '"research"',
    contains: ["Effective tools of `main`", "| `read_file` | filesystem |", "- `execute` (backend): execute needs a sandbox backend", "as role `user`", "as role `guest`", '- `write_file`, `edit_file`, `delete`, `glob`, `grep`, `task` (authorization): denied by DeerFlow\'s authorization to role "guest"\n', "command:agentSandbox.previewPrompt"],
    // DeerFlow's message repeated what the reason had just said (role "guest" may not call it: role 'guest' is denied 'write_file').
    excludes: ["may not call it", "is denied 'write_file'"],
  },
  "a subagent's name shows its tools": {
    given: research,
    caret: '"aud‸itor"',
    contains: ["Effective tools of `auditor`", "| `write_file` | filesystem |"],
  },
  "the `tools` key shows the agent's tools": {
    given: research,
    caret: '"to‸ols": ["web_search"]',
    contains: ["Effective tools of `main`", "| `web_search` | user |"],
  },
  "a tool name says what it does, whether it reads or writes, and which rules govern it": {
    given: research,
    caret: '"deny": ["execute", "del‸ete"]',
    contains: ["**`delete`**: filesystem tool", "**write**", "rule 0", "rule 2"],
  },
  // This was called a user tool.
  "a name in a filesystem middleware's tools that is no filesystem tool says the runtime ignores it": {
    given: { text: '{ "version": 1, "middleware": [{ "type": "filesystem", "tools": ["read_file", "grpe"] }] }\n' },
    caret: '"gr‸pe"',
    contains: ["**`grpe`**: not a filesystem tool", "silently ignores it", "Did you mean `grep`?"],
    excludes: ["user tool"],
  },
  "a user tool says path rules do not govern it": {
    given: research,
    caret: '["web_se‸arch"]',
    contains: ["user tool", "Path rules do not govern it", "Agent `main` sees it"],
  },
  "a rule says what it decides, for whom, and which sample files": {
    given: research,
    caret: '"mo‸de": "deny" },\n    { "operations": ["read", "write"], "paths": ["/workspace/**"',
    contains: ["**Rule 0** of the top-level permissions: `deny` read and write", "`main`, `general-purpose`", "**read**: decides 2 of 5 sample files", "`/workspace/.env`", "`/workspace/secrets/key.txt`"],
  },
  "a rule that falls after broader ones decides fewer files": {
    given: research,
    caret: '"paths": ["/**"], "mo‸de"',
    contains: ["**Rule 2**", "decides 0 of 5 sample files"],
  },
  "a path pattern says what it matches in words and which sample files": {
    given: research,
    caret: '"/workspace/sec‸rets/**"',
    range: '"/workspace/secrets/**"',
    contains: ["**Pattern** `/workspace/secrets/**`", "deepagents-js 1.14.1", "starts with `/workspace/secrets`", "Matches 1 of 5 sample files", "`/workspace/secrets/key.txt`", "1 folder: `/workspace/secrets`"],
  },
  "an exact pattern says so": {
    given: research,
    caret: '"/workspace/.e‸nv"',
    contains: ["Matches exactly the path `/workspace/.env`", "Matches 1 of 5"],
  },
  "a role shows its effective tools": {
    given: research,
    caret: '"gu‸est": {',
    contains: ["Role `guest`", "| `read_file` | filesystem |", "- `write_file`, `edit_file`"],
  },
  "the default role names its role": {
    given: research,
    caret: '"default_role": "us‸er"',
    contains: ["Role `user`", "- `execute` (backend)"],
  },
  "systemPrompt shows the start of the prompt preview with a link to all of it": {
    given: research,
    caret: '"systemPro‸mpt": "Review',
    contains: ["Prompt preview: `auditor`", "Review; never write.", "Open the full prompt preview", "command:agentSandbox.previewPrompt"],
  },
  "systemPromptFile shows the file's text in the preview": {
    given: research,
    caret: '"systemPromptF‸ile"',
    contains: ["You are a careful research assistant."],
  },
  "another key shows its schema description": {
    given: research,
    caret: '"work‸space": {',
    contains: ["sample files"],
  },
  "a rule without a sample workspace says how to get one": {
    given: FIXTURES.ruleMistakes,
    caret: '"paths": ["/da‸ta/**"]',
    contains: ["**Pattern** `/data/**`", "Add `workspace.root`"],
  },
};

describe("hover", () => {
  const session = serverSession();

  for (const [name, c] of Object.entries(CASES)) {
    it(`Given a config, When hovering: ${name}`, async () => {
      const given = await session.open(c.given, c.caret);
      const hover = await hoverAt(session, given);
      assert.ok(hover, "a hover");
      assertMentions(hover.value, c.contains, c.excludes);
      if (c.range) assert.equal(rangeText(given.doc, hover.range!), c.range);
    });
  }

  it("Given a filesystem middleware the runtime refuses, When hovering the agent, Then the visible tools come first and the hidden ones share one reason, said once", async () => {
    const given = await session.open({ text: '{ "version": 1, "tools": ["web_search"], "middleware": [{ "type": "filesystem", "tools": ["ls", "write_file"] }] }\n' }, '"too‸ls": ["web');
    const hover = (await hoverAt(session, given))!.value;
    const visible = hover.indexOf("| `web_search` | user |");
    const hidden = hover.indexOf("Hidden:");
    assert.ok(visible >= 0 && hidden > visible, hover);
    assert.ok(hover.indexOf("| `task` | task |") < hidden, hover);
    const lines = hover.split("\n").filter((l) => l.startsWith("- "));
    assert.equal(lines.length, 1, hover);
    assert.match(lines[0]!, /^- `ls`, `read_file`, `write_file`, `edit_file`, `delete`, `glob`, `grep`, `execute` \(allowlist\): not registered: deepagents-js 1\.14\.1 refuses the custom filesystem middleware \(middleware \\#0\): Error: read\\_file must be included in tools/);
    assert.equal(hover.split("refuses the custom filesystem middleware").length - 1, 1, "the reason is said once");
  });

  it("Given a dry-run file or a broken config, When hovering anywhere, Then no error and no hover", async () => {
    for (const fixture of [FIXTURES.scenario, FIXTURES.broken, FIXTURES.empty]) {
      const given = await session.open(fixture);
      for (let offset = 0; offset <= given.text.length; offset += 3) {
        await session.client.request("textDocument/hover", { textDocument: { uri: given.uri }, position: given.doc.positionAt(offset) });
      }
    }
  });
});
