/**
 * Given/When/Then fixtures for the LSP tests. A fixture is the text of a config (or dry-run) file plus the files
 * around it; in its text `‸` marks the caret and `⟦…⟧` mark ranges a test expects (both are removed before the
 * text is written). Every fixture here is also a case of the CLI/server parity test.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { marked, type Marked } from "../helpers/markers";

export { marked, type Marked } from "../helpers/markers";

export interface Fixture {
  /** File name of the document (default agent-sandbox.jsonc). */
  file?: string;
  text: string;
  /** Other files, relative to the document's folder. */
  files?: Record<string, string>;
}

const SAMPLE = {
  "sample/README.md": "# Sample\n",
  "sample/.env": "TOKEN=1\n",
  "sample/secrets/key.txt": "k\n",
  "sample/src/app.py": "print(1)\n",
  "sample/notes/todo.md": "- x\n",
};

export const FIXTURES = {
  /** A realistic config: rules, sample workspace, subagents, roles. */
  research: {
    files: { ...SAMPLE, "AGENTS.md": "You are a careful research assistant.\n" },
    text: `{
  "version": 1,
  "runtime": "deepagents-js",
  "name": "resea‸rch",
  "systemPromptFile": "./AGENTS.md",
  "backend": {
    "type": "composite",
    "default": { "type": "filesystem", "rootDir": "./sample", "virtualMode": true },
    "routes": { "/memories/": { "type": "store" } }
  },
  "tools": ["web_search"],
  "permissions": [
    { "operations": ["read", "write"], "paths": ["/workspace/.env", "/workspace/secrets/**"], "mode": "deny" },
    { "operations": ["read", "write"], "paths": ["/workspace/**", "/memories/**"] },
    { "operations": ["read", "write"], "paths": ["/**"], "mode": "deny" }
  ],
  "subagents": [
    { "name": "auditor", "description": "Read-only reviewer.", "systemPrompt": "Review; never write.",
      "permissions": [{ "operations": ["write"], "paths": ["/**"], "mode": "deny" }] }
  ],
  "authorization": {
    "enabled": true,
    "default_role": "user",
    "roles": {
      "user": { "tools": { "allow": "*", "deny": ["execute", "delete"] } },
      "guest": { "tools": { "allow": ["read_file", "ls", "web_search"] } }
    }
  },
  "workspace": { "root": "./sample", "mountAt": "/workspace" }
}
`,
  },
  /** Path-rule findings with fixes: trailing slash, missing leading slash, a string `operations`, an empty rule. */
  ruleMistakes: {
    text: `{
  "version": 1,
  "permissions": [
    { "operations": ["write"], "paths": [⟦"/workspace/tmp/"⟧], "mode": "deny" },
    { "operations": ["read"], "paths": [⟦"workspace/notes/**"⟧], "mode": "deny" },
    { "operations": ⟦"read"⟧, "paths": ["/data/**"], "mode": "deny" },
    { "operations": ["read"], "paths": ⟦[]⟧, "mode": "deny" }
  ]
}
`,
  },
  /** tool-duplicate: related information, the Unnecessary tag, a safe fix. */
  toolDuplicate: {
    text: `{
  "version": 1,
  "middleware": [
    { "type": "filesystem", "tools": ["read_file", "ls", ⟦"ls"⟧] }
  ]
}
`,
  },
  /** A suppression comment silences the finding on the next line. */
  suppressed: {
    text: `{
  "version": 1,
  "permissions": [
    // agent-sandbox-ignore pattern-never-matches
    { "operations": ["write"], "paths": ["/workspace/tmp/"], "mode": "deny" }
  ]
}
`,
  },
  /** systemPromptFile names a file that does not exist (until a test creates it). */
  missingPromptFile: {
    text: `{
  "version": 1,
  "systemPromptFile": "./PROMPT.md"
}
`,
  },
  /** `interrupt` is a mode in deepagents-py only. */
  interruptMode: {
    text: `{
  "version": 1,
  "permissions": [{ "operations": ["write"], "paths": ["/x/**"], "mode": "interrupt" }]
}
`,
  },
  /** Syntax errors: the file does not parse. */
  broken: {
    text: `{
  "version": 1,
  "permissions": [ { "operations": ["read"] "paths": ["/a"] }
`,
  },
  /** Shape errors: unknown keys, a wrong type. */
  schemaErrors: {
    text: `{
  "version": 1,
  "permisions": [],
  "subagents": [{ "name": "a", "descripton": "x" }],
  "tools": "web_search"
}
`,
  },
  /** A sandbox backend with path rules: the runtime refuses it at construction. */
  sandboxGuard: {
    text: `{
  "version": 1,
  "backend": { "type": "sandbox", "provider": "daytona" },
  "permissions": [{ "operations": ["write"], "paths": ["/secrets/**"], "mode": "deny" }],
  "middleware": [{ "type": "filesystem", "tools": ["ls", "write_file"], "backend": { "type": "store" } }],
  "subagents": [{ "name": "helper", "description": "Helps", "permissions": [] }]
}
`,
  },
  /** Authorization mistakes. */
  authz: {
    text: `{
  "version": 1,
  "tools": ["web_search"],
  "authorization": {
    "enabled": true,
    "default_role": "admin",
    "roles": {
      "user": { "tols": { "allow": ["*"] }, "tools": { "allow": ["read_fil", "web_*"] } }
    }
  }
}
`,
  },
  /** Empty document. */
  empty: { text: "" },
  /** A dry-run scenario with a schema error. */
  scenario: {
    file: "check.dryrun.jsonc",
    files: {},
    text: `{
  "config": "./agent-sandbox.jsonc",
  "agent": "main",
  "steps": [
    { "tool": "read_file", "args": { "file_path": "/workspace/README.md" }, "expect": "ok" },
    { "tool": "write_file", "expect": "maybe" }
  ]
}
`,
  },
} satisfies Record<string, Fixture>;

export type FixtureName = keyof typeof FIXTURES;

/** A temporary folder holding fixtures, one sub-folder per case, removed at the end. */
export class FixtureFolder {
  readonly root = mkdtempSync(join(tmpdir(), "agent-sandbox-lsp-"));
  private count = 0;

  /** Writes a fixture (markers removed) into a fresh sub-folder; returns its path, URI and marks. */
  write(fixture: Fixture, textOverride?: string): { path: string; uri: string; folder: string } & Marked {
    const folder = join(this.root, `case-${++this.count}`);
    for (const [name, content] of Object.entries(fixture.files ?? {})) this.file(join(folder, name), content);
    const m = marked(textOverride ?? fixture.text);
    const path = join(folder, fixture.file ?? "agent-sandbox.jsonc");
    this.file(path, m.text);
    return { path, uri: pathToFileURL(path).href, folder, ...m };
  }

  file(path: string, content: string): void {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/**
 * Puts the caret into a fixture: `snippet` is a piece of its text with `‸` where the caret goes
 * (`'"aud‸itor"'`); the first occurrence is used.
 */
export function withCaret(text: string, snippet: string): string {
  const clean = marked(text).text;
  const at = snippet.indexOf("‸");
  const bare = snippet.replace("‸", "");
  const index = clean.indexOf(bare);
  if (at < 0 || index < 0) throw new Error(`snippet ${snippet} not found in the fixture`);
  return clean.slice(0, index + at) + "‸" + clean.slice(index + at);
}
