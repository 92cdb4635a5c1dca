/**
 * The language server on DeerFlow's own files: a config.yaml (language yaml) and a SKILL.md (language markdown)
 * get diagnostics at their YAML spans, role hovers, quick fixes in YAML, fix-all and "Ignore" with a `#` comment;
 * another program's config.yaml and other YAML or markdown files get nothing, nor any JSONC feature.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CodeAction, Diagnostic, Hover, MarkupContent, TextEdit } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { rangeText } from "../lsp/lspClient";
import { serverSession } from "../lsp/session";

const CONFIG = `tools:
  - {name: web_search, group: web, use: deerflow.community.ddg_search.tools:web_search_tool}
  - {name: bash, group: bash, use: deerflow.sandbox.tools:bash_tool}
authorization:
  enabled: true
  default_role: guest
  provider:
    use: deerflow.authz.rbac:RbacAuthorizationProvider
    config:
      roles:
        user:
          tools: {allow: "*", deny: [bash]}
        guest:
          tools:
            allow:
              - web_serch
              - present_files
            deny: null
`;

describe("the language server on DeerFlow's config.yaml and SKILL.md", () => {
  const session = serverSession({ pull: true });

  async function openFile(name: string, text: string, languageId: string, files: Record<string, string> = {}) {
    const written = session.folder.write({ file: name, text, files });
    await session.client.open(written.uri, written.text, languageId);
    return { uri: written.uri, doc: session.client.document(written.uri) };
  }

  it("config.yaml: diagnostics at their YAML spans, in DeerFlow's words", async () => {
    const { uri, doc } = await openFile("config.yaml", CONFIG, "yaml");
    const diagnostics = await session.client.pullDiagnostics(uri);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, rangeText(doc, d.range)]),
      [
        ["authz-tool-unknown", "web_serch"],
        ["authz-invalid", "null"],
      ],
    );
    assert.equal(diagnostics[1]!.message, 'DeerFlow refuses to build the agent: its RBAC provider rejects role "guest", resource "tools".');
  });

  it("a role's name and default_role show the tools the role keeps, with DeerFlow's reasons", async () => {
    const { uri, doc } = await openFile("config.yaml", CONFIG, "yaml");
    const hoverAt = async (needle: string) => {
      const at = doc.getText().indexOf(needle) + 1;
      const hover = await session.client.request<Hover | null>("textDocument/hover", { textDocument: { uri }, position: doc.positionAt(at) });
      return hover ? { value: (hover.contents as MarkupContent).value, text: hover.range ? rangeText(doc, hover.range) : "" } : undefined;
    };
    const user = await hoverAt("user:");
    assert.ok(user);
    assert.equal(user.text, "user");
    assert.match(user.value, /### Role `user`/);
    assert.match(user.value, /\| `web_search` \| config \|/);
    assert.match(user.value, /- `bash` \(authorization\): role 'user' is denied 'bash' on resource 'tool'/);
    const guest = await hoverAt("guest\n");
    assert.ok(guest);
    assert.equal(guest.text, "guest");
    assert.match(guest.value, /\| `present_files` \| built-in \|/);
    assert.match(guest.value, /- `web_search` \(authorization\)/);
  });

  it("quick fixes edit the YAML; fix-all applies the safe one; Ignore writes a # comment", async () => {
    const { uri, doc } = await openFile("config.yaml", CONFIG, "yaml");
    const diagnostics = await session.client.pullDiagnostics(uri);
    const actionsFor = async (d: Diagnostic) =>
      (await session.client.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } })) ?? [];
    const apply = (edits: TextEdit[]) => TextDocument.applyEdits(doc, edits);
    const tool = await actionsFor(diagnostics[0]!);
    const change = tool.find((a) => a.title === 'Change to "web_search"');
    assert.ok(change, JSON.stringify(tool.map((a) => a.title)));
    assert.match(apply(change.edit!.changes![uri]!), /^ {14}- web_search$/m);
    const ignore = tool.find((a) => a.title === "Ignore authz-tool-unknown here");
    assert.ok(ignore);
    assert.match(apply(ignore.edit!.changes![uri]!), /^ {14}# agent-sandbox-ignore authz-tool-unknown\n {14}- web_serch$/m);
    const fixAll = await session.client.request<CodeAction[]>("textDocument/codeAction", {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ["source.fixAll.agent-sandbox"] },
    });
    assert.equal(fixAll?.length, 1);
    const fixed = apply(fixAll![0]!.edit!.changes![uri]!);
    assert.ok(!fixed.includes("deny: null"));
    assert.ok(fixed.includes("- web_serch"), "only the safe fix");
  });

  it("SKILL.md (markdown): allowed-tools gets the skill diagnostics at its values", async () => {
    const skill = "---\nname: rw\nallowed-tools: [web_search, Bash]\n---\n# Report writer\n";
    const { uri, doc } = await openFile("skills/custom/rw/SKILL.md", skill, "markdown", { "config.yaml": CONFIG });
    const diagnostics = await session.client.pullDiagnostics(uri);
    assert.deepEqual(diagnostics.map((d) => [d.code, rangeText(doc, d.range)]), [["skill-tool-unknown", "Bash"]]);
  });

  it("nothing in another program's config.yaml, other YAML or markdown files; no JSONC features in DeerFlow's", async () => {
    const other = await openFile("config.yaml", "server:\n  port: [80\n", "yaml");
    assert.deepEqual(await session.client.pullDiagnostics(other.uri), []);
    const yaml = await openFile("docker-compose.yaml", "authorization:\n  enabled: true\n", "yaml");
    assert.deepEqual(await session.client.pullDiagnostics(yaml.uri), []);
    const md = await openFile("README.md", "---\nallowed-tools: read_file\n---\n", "markdown");
    assert.deepEqual(await session.client.pullDiagnostics(md.uri), []);
    const { uri } = await openFile("config.yaml", CONFIG, "yaml");
    const position = { line: 4, character: 4 };
    assert.deepEqual(await session.client.request("textDocument/completion", { textDocument: { uri }, position }), []);
    assert.deepEqual(await session.client.request("textDocument/formatting", { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } }), []);
    assert.deepEqual(await session.client.request("textDocument/foldingRange", { textDocument: { uri } }), []);
    assert.deepEqual(await session.client.request("textDocument/documentSymbol", { textDocument: { uri } }), []);
  });
});
