/** textDocument/hover: agents, tools, rules, patterns, roles, systemPrompt, keys. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Hover, MarkupContent } from "vscode-languageserver-protocol/node";
import { FIXTURES, FixtureFolder, withCaret, type Fixture } from "./fixtures";
import { LspTestClient, rangeText } from "./lspClient";

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
    contains: ["Effective tools of `main`", "| `read_file` | filesystem | yes |", "| `execute` | filesystem | no (backend) | execute needs a sandbox backend", "as role `user`", "as role `guest`", "may not call it", "command:agentSandbox.previewPrompt"],
  },
  "a subagent's name shows its tools": {
    given: research,
    caret: '"aud‸itor"',
    contains: ["Effective tools of `auditor`", "| `write_file` | filesystem | yes |"],
  },
  "the `tools` key shows the agent's tools": {
    given: research,
    caret: '"to‸ols": ["web_search"]',
    contains: ["Effective tools of `main`", "| `web_search` | user | yes |"],
  },
  "a tool name says what it does, whether it reads or writes, and which rules govern it": {
    given: research,
    caret: '"deny": ["execute", "del‸ete"]',
    contains: ["**`delete`**: filesystem tool", "**write**", "rule 0", "rule 2"],
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
    contains: ["**Pattern** `/workspace/secrets/**`", "deepagents-js 1.14.1", "starts with `/workspace/secrets`", "Matches 1 of 5 sample files", "`/workspace/secrets/key.txt`", "1 folder(s): `/workspace/secrets`"],
  },
  "an exact pattern says so": {
    given: research,
    caret: '"/workspace/.e‸nv"',
    contains: ["Matches exactly the path `/workspace/.env`", "Matches 1 of 5"],
  },
  "a role shows its effective tools": {
    given: research,
    caret: '"gu‸est": {',
    contains: ["Role `guest`", "| `read_file` | filesystem | yes |", "| `write_file` | filesystem | no (authorization)"],
  },
  "the default role names its role": {
    given: research,
    caret: '"default_role": "us‸er"',
    contains: ["Role `user`", "| `execute` |"],
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
  const folder = new FixtureFolder();
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start({ pull: true });
  });
  after(async () => {
    assert.deepEqual(client.failures, [], "no request may fail");
    await client.stop();
    folder.dispose();
  });

  for (const [name, c] of Object.entries(CASES)) {
    it(`Given a config, When hovering: ${name}`, async () => {
      const given = folder.write(c.given, withCaret(c.given.text, c.caret));
      await client.open(given.uri, given.text);
      const doc = client.document(given.uri);
      const hover = await client.request<Hover | null>("textDocument/hover", { textDocument: { uri: given.uri }, position: doc.positionAt(given.caret!) });
      assert.ok(hover, "a hover");
      const value = (hover.contents as MarkupContent).value;
      for (const expected of c.contains) {
        if (typeof expected === "string") assert.ok(value.includes(expected), `hover should contain ${JSON.stringify(expected)}:\n${value}`);
        else assert.match(value, expected);
      }
      for (const unexpected of c.excludes ?? []) assert.ok(typeof unexpected === "string" ? !value.includes(unexpected) : !unexpected.test(value));
      if (c.range) assert.equal(rangeText(doc, hover.range!), c.range);
    });
  }

  it("Given a dry-run file or a broken config, When hovering anywhere, Then no error and no hover", async () => {
    for (const fixture of [FIXTURES.scenario, FIXTURES.broken, FIXTURES.empty]) {
      const given = folder.write(fixture);
      await client.open(given.uri, given.text, fixture === FIXTURES.scenario ? "agent-sandbox-dryrun" : "agent-sandbox");
      const doc = client.document(given.uri);
      for (let offset = 0; offset <= given.text.length; offset += 3) {
        await client.request("textDocument/hover", { textDocument: { uri: given.uri }, position: doc.positionAt(offset) });
      }
    }
  });
});
