/** textDocument/completion: schema keys and values, tools, operations, modes, paths, roles, agents. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TextDocument } from "vscode-languageserver-textdocument";
import { FIXTURES, type Fixture } from "./fixtures";
import { assertInOrder, completionsAt, serverSession } from "./session";

interface Case {
  given: Fixture;
  caret: string;
  /** Labels that must be offered, in this order (others may come between). */
  offers: string[];
  notOffered?: string[];
  /** After accepting the first offered label, this snippet of text must appear. */
  accepting?: [label: string, result: string];
}

const research = FIXTURES.research;
const scenarioWithConfig: Fixture = { ...FIXTURES.scenario, files: { "agent-sandbox.jsonc": research.text.replace("‸", ""), ...research.files } };

const CASES: Record<string, Case> = {
  // Keys were proposed inside comments, and accepting one pasted it into the comment.
  "nothing inside a line comment": {
    given: { text: '{ "version": 1, // a comment\n}\n' },
    caret: "// a co‸",
    offers: [],
    notOffered: ["runtime", "$schema"],
  },
  "nothing inside a block comment": {
    given: { text: '{ "version": 1, /* a block */ }\n' },
    caret: "/* a bl‸",
    offers: [],
    notOffered: ["runtime"],
  },
  "keys again right after a closed block comment": {
    given: { text: '{ "version": 1, /* a block */  }\n' },
    caret: "*/ ‸",
    offers: ["runtime"],
  },
  "top-level keys from the schema, without those already present": {
    given: { text: '{\n  "version": 1,\n  "name": "x",\n  \n}\n' },
    caret: '"x",\n  ‸',
    offers: ["$schema", "runtime", "compatibleWith", "systemPrompt", "permissions", "middleware", "skills", "interruptOn", "workspace"],
    notOffered: ["version", "name"],
    accepting: ["permissions", '"name": "x",\n  "permissions": \n}'],
  },
  "keys inside a rule": {
    given: { text: '{ "version": 1, "permissions": [{ "paths": ["/x"], "" }] }' },
    caret: '"/x"], "‸"',
    offers: ["operations", "mode"],
    notOffered: ["paths"],
    accepting: ["mode", '"/x"], "mode": '],
  },
  "operations inside a rule": {
    given: research,
    caret: '"operations": ["read", "‸write"], "paths": ["/workspace/.env"',
    offers: ["read", "write"],
    accepting: ["read", '"operations": ["read", "read"]'],
  },
  "modes of the file's runtime only": {
    given: research,
    caret: '"mode": "‸deny" },\n    { "operations": ["read", "write"], "paths": ["/workspace/**"',
    offers: ["allow", "deny"],
    notOffered: ["interrupt"],
  },
  "interrupt is a mode in deepagents-py": {
    given: { text: '{ "version": 1, "runtime": "deepagents-py", "permissions": [{ "operations": ["write"], "paths": ["/x"], "mode": "" }] }' },
    caret: '"mode": "‸"',
    offers: ["allow", "deny", "interrupt"],
  },
  "route prefixes and sample-workspace paths inside a path pattern": {
    given: research,
    caret: '"paths": ["/workspace/.env", "‸/workspace/secrets/**"]',
    offers: ["/memories/**", "/workspace/**", "/workspace/secrets/**", "/workspace/.env", "/workspace/secrets/key.txt"],
  },
  "role names for default_role": {
    given: research,
    caret: '"default_role": "‸user"',
    offers: ["user", "guest"],
  },
  "every tool name inside a role's list, user tools included": {
    given: research,
    caret: '"deny": ["‸execute"',
    // `delete` is in the list already; `execute` is the item being written.
    offers: ["ls", "read_file", "write_file", "edit_file", "glob", "grep", "execute", "task", "web_search"],
    notOffered: ["delete"],
  },
  "the eight built-in tools in a filesystem middleware's list": {
    given: FIXTURES.toolDuplicate,
    caret: '"tools": ["‸read_file"',
    offers: ["read_file", "write_file", "edit_file", "delete", "glob", "grep", "execute"],
    notOffered: ["task", "ls"],
  },
  "tools already in the list are not offered again": {
    given: { text: '{ "version": 1, "tools": ["web_search", "fetch_url"], "middleware": [{ "type": "filesystem", "tools": ["read_file", "ls", ""] }], "subagents": [{ "name": "a", "description": "d", "tools": ["fetch_url", ""] }] }' },
    caret: '"ls", "‸"',
    offers: ["write_file", "edit_file", "delete", "glob", "grep", "execute"],
    notOffered: ["read_file", "ls"],
  },
  "user tools already in a subagent's list are not offered again": {
    given: { text: '{ "version": 1, "tools": ["web_search", "fetch_url"], "subagents": [{ "name": "a", "description": "d", "tools": ["fetch_url", ""] }] }' },
    caret: '"fetch_url", "‸"',
    offers: ["web_search"],
    notOffered: ["fetch_url"],
  },
  "the file's user tools in a subagent's tools": {
    given: { text: '{ "version": 1, "tools": ["web_search", "fetch_url"], "subagents": [{ "name": "a", "description": "d", "tools": [""] }] }' },
    caret: '"tools": ["‸"]',
    offers: ["web_search", "fetch_url"],
    notOffered: ["read_file"],
  },
  "enum values from the schema": {
    given: research,
    caret: '"runtime": "‸deepagents-js"',
    offers: ["deepagents-js", "deepagents-py"],
  },
  "a backend's keys follow its type": {
    given: { text: '{ "version": 1, "backend": { "type": "sandbox",  } }' },
    caret: '"sandbox", ‸ }',
    offers: ["provider", "factory"],
    notOffered: ["rootDir", "routes", "type"],
  },
  "resource keys of a role": {
    given: { text: '{ "version": 1, "authorization": { "roles": { "user": {  } } } }' },
    caret: '"user": { ‸ }',
    offers: ["tools", "models", "routes"],
  },
  "agents of the scenario's config in a dry-run file": {
    given: scenarioWithConfig,
    caret: '"agent": "‸main"',
    offers: ["main", "general-purpose", "auditor"],
  },
  "tools in a dry-run step": {
    given: scenarioWithConfig,
    caret: '{ "tool": "‸write_file"',
    offers: ["read_file", "write_file", "task", "web_search"],
  },
  "outcomes in a dry-run expectation": {
    given: scenarioWithConfig,
    caret: '"expect": "‸maybe"',
    offers: ["ok", "permission-denied", "tool-unavailable"],
  },
};

describe("completion", () => {
  const session = serverSession({ pull: true, snippets: false });

  for (const [name, c] of Object.entries(CASES)) {
    it(`Given a document, When completing: ${name}`, async () => {
      const given = await session.open(c.given, c.caret);
      const items = await completionsAt(session, given);
      const labels = items.map((i) => i.label);
      assertInOrder(labels, c.offers);
      for (const label of c.notOffered ?? []) assert.ok(!labels.includes(label), `${label} should not be offered`);
      if (c.accepting) {
        const item = items.find((i) => i.label === c.accepting![0])!;
        const edit = item.textEdit as { range: import("vscode-languageserver-protocol").Range; newText: string };
        const result = TextDocument.applyEdits(given.doc, [edit]);
        assert.ok(result.includes(c.accepting[1]), `accepting ${item.label} gives ${JSON.stringify(c.accepting[1])}:\n${result}`);
      }
    });
  }
});
