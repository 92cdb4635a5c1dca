/**
 * The Given/When/Then steps the LSP tests share, so that each test file is its fixtures and what it expects:
 *
 * - `serverSession(options)`, called inside a `describe`: one real server for the suite (started before, stopped
 *   after, with the check that no request failed) and one fixture folder (removed after);
 * - Given: `session.open(fixture, caret)` writes a fixture (the caret put where a snippet's `‸` says), opens it in
 *   the server with the language id its file name implies, and returns it with its mirror document and caret
 *   position;
 * - When: `hoverAt`, `completionsAt`, `codeActionsFor`, `fixAllOf`, `request`, asked of the opened document;
 * - Then: `assertInOrder`, `assertMentions`, for lists and markdown the server answered.
 */
import assert from "node:assert/strict";
import { after, before } from "node:test";
import type { CodeAction, CompletionItem, Diagnostic, Hover, MarkupContent, Position, Range } from "vscode-languageserver-protocol/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { FixtureFolder, withCaret, type Fixture, type Marked } from "./fixtures";
import { LspTestClient, type StartOptions } from "./lspClient";

/** A fixture written to disk and open in the server. */
export interface Opened extends Marked {
  path: string;
  uri: string;
  folder: string;
  /** The client's mirror of the document (follows the edits a test sends). */
  doc: TextDocument;
  /** Where the caret is, when the fixture or the `caret` snippet put one. */
  position: Position | undefined;
}

export interface Session {
  readonly client: LspTestClient;
  readonly folder: FixtureFolder;
  /** Given: `fixture` written (with the caret at `caret`'s `‸`, when given) and opened. */
  open(fixture: Fixture, caret?: string): Promise<Opened>;
}

/** Dry-run scenarios are recognised by file name, as the extension's language contribution does. */
export function languageIdOf(fixture: Fixture): string {
  return /\.dryrun\.jsonc?$/.test(fixture.file ?? "") ? "agent-sandbox-dryrun" : "agent-sandbox";
}

/**
 * One server and one fixture folder for the enclosing `describe`; no request may fail in it. `options` may depend
 * on the folder (e.g. to make it the workspace folder); files written at `describe` time exist when the server starts.
 */
export function serverSession(options: StartOptions | ((folder: FixtureFolder) => StartOptions) = { pull: true }): Session {
  const folder = new FixtureFolder();
  let client: LspTestClient | undefined;
  before(async () => {
    client = await LspTestClient.start(typeof options === "function" ? options(folder) : options);
  });
  after(async () => {
    try {
      assert.deepEqual(client?.failures ?? [], [], "no request may fail");
    } finally {
      await client?.stop();
      folder.dispose();
    }
  });
  const session: Session = {
    get client() {
      if (!client) throw new Error("the server is not started yet (use the session inside a test)");
      return client;
    },
    folder,
    async open(fixture, caret) {
      const written = folder.write(fixture, caret === undefined ? undefined : withCaret(fixture.text, caret));
      await session.client.open(written.uri, written.text, languageIdOf(fixture));
      const doc = session.client.document(written.uri);
      return { ...written, doc, position: written.caret === undefined ? undefined : doc.positionAt(written.caret) };
    },
  };
  return session;
}

function caretOf(opened: Opened): Position {
  if (!opened.position) throw new Error(`${opened.path} has no caret`);
  return opened.position;
}

/** When hovering at the caret: the markdown shown (`undefined`: no hover) and the range it covers. */
export async function hoverAt(session: Session, opened: Opened): Promise<{ value: string; range: Range | undefined } | undefined> {
  const hover = await session.client.request<Hover | null>("textDocument/hover", { textDocument: { uri: opened.uri }, position: caretOf(opened) });
  return hover ? { value: (hover.contents as MarkupContent).value, range: hover.range } : undefined;
}

/** When completing at the caret: the items offered. */
export async function completionsAt(session: Session, opened: Opened): Promise<CompletionItem[]> {
  return (await session.client.request<CompletionItem[]>("textDocument/completion", { textDocument: { uri: opened.uri }, position: caretOf(opened) })) ?? [];
}

/** When asking for the code actions of one diagnostic (optionally only some kinds). */
export async function codeActionsFor(session: Session, opened: Opened, diagnostic: Diagnostic, only?: string[]): Promise<CodeAction[]> {
  return (
    (await session.client.request<CodeAction[]>("textDocument/codeAction", {
      textDocument: { uri: opened.uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic], ...(only ? { only } : {}) },
    })) ?? []
  );
}

/** When asking for a source action of the whole file (no diagnostic), as "Fix all" on save does. */
export async function fixAllOf(session: Session, opened: Opened, only: string): Promise<CodeAction[] | undefined> {
  return session.client.request<CodeAction[]>("textDocument/codeAction", {
    textDocument: { uri: opened.uri },
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: [], only: [only] },
  });
}

/** When asking any request about the opened document (`textDocument` filled in). */
export async function request<R>(session: Session, opened: Opened, method: string, params: Record<string, unknown> = {}): Promise<R> {
  const answer = await session.client.request<R>(method, { textDocument: { uri: opened.uri }, ...params });
  assert.ok(answer !== undefined && answer !== null, `${method} answered`);
  return answer;
}

/** Then `expected` are all in `actual`, in this order (others may come between). */
export function assertInOrder(actual: readonly string[], expected: readonly string[]): void {
  let last = -1;
  for (const item of expected) {
    const at = actual.indexOf(item);
    assert.ok(at >= 0, `${item} should be there; got ${JSON.stringify(actual)}`);
    assert.ok(at > last, `${item} should come after ${JSON.stringify(actual[last])}; got ${JSON.stringify(actual)}`);
    last = at;
  }
}

/** Then the text contains every string and matches every pattern of `expected`, and none of `unexpected`. */
export function assertMentions(text: string, expected: readonly (string | RegExp)[], unexpected: readonly (string | RegExp)[] = []): void {
  const mentions = (e: string | RegExp) => (typeof e === "string" ? text.includes(e) : e.test(text));
  for (const e of expected) assert.ok(mentions(e), `should mention ${String(e)}:\n${text}`);
  for (const e of unexpected) assert.ok(!mentions(e), `should not mention ${String(e)}:\n${text}`);
}
