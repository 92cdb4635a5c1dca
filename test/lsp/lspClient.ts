/**
 * A small LSP client for tests and the benchmark: starts the real bundled server (`node dist/server.js --stdio`)
 * and speaks LSP to it with vscode-languageserver-protocol. It records every error response and every
 * notification, answers the server's own requests (configuration, registrations, refreshes), and mirrors each
 * open document so that tests can send incremental edits.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  type ClientCapabilities,
  type Diagnostic,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Range,
  type TextDocumentContentChangeEvent,
} from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { DidCheckNotification, type DidCheckParams } from "../../server/src/protocol";

export const ROOT = join(__dirname, "..", "..");
/**
 * The bundled server; `AGENT_SANDBOX_SERVER` points elsewhere (a build in its own folder, e.g. to compare two
 * builds while others rebuild dist/ in the same checkout).
 */
export const SERVER = process.env.AGENT_SANDBOX_SERVER || join(ROOT, "dist", "server.js");

export interface StartOptions {
  /** Advertise pull diagnostics (VS Code does); otherwise the server pushes. */
  pull?: boolean;
  workspaceFolders?: string[];
  /** Answers to workspace/configuration (section agentSandbox), per scope URI or for all. */
  settings?: (scopeUri: string | undefined) => unknown;
  initializationOptions?: Record<string, unknown>;
  snippets?: boolean;
}

export interface RequestFailure {
  method: string;
  message: string;
}

export class LspTestClient {
  readonly failures: RequestFailure[] = [];
  readonly published = new Map<string, PublishDiagnosticsParams>();
  readonly checks: DidCheckParams[] = [];
  readonly registrations: unknown[] = [];
  refreshes = 0;
  private readonly docs = new Map<string, TextDocument>();
  private readonly checkWaiters: { resolve: (p: DidCheckParams) => void; predicate: (p: DidCheckParams) => boolean }[] = [];
  private readonly publishWaiters: { uri: string; resolve: (p: PublishDiagnosticsParams) => void; predicate: (p: PublishDiagnosticsParams) => boolean }[] = [];
  stderr = "";

  private constructor(
    readonly process: ChildProcess,
    readonly connection: ProtocolConnection,
  ) {}

  static async start(options: StartOptions = {}): Promise<LspTestClient> {
    readFileSync(SERVER); // fail early, with a clear error, when `npm run build` has not run
    // `AGENT_SANDBOX_SERVER_NODE_ARGS`: Node options for the server only (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`).
    const nodeArgs = (process.env.AGENT_SANDBOX_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, SERVER, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
    const connection = createProtocolConnection(child.stdout!, child.stdin!);
    const client = new LspTestClient(child, connection);
    child.stderr!.on("data", (d: Buffer) => (client.stderr += d.toString()));
    connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      client.published.set(p.uri, p);
      for (const w of [...client.publishWaiters]) {
        if (w.uri === p.uri && w.predicate(p)) {
          client.publishWaiters.splice(client.publishWaiters.indexOf(w), 1);
          w.resolve(p);
        }
      }
    });
    connection.onNotification(DidCheckNotification.method, (p: DidCheckParams) => {
      client.checks.push(p);
      for (const w of [...client.checkWaiters]) {
        if (w.predicate(p)) {
          client.checkWaiters.splice(client.checkWaiters.indexOf(w), 1);
          w.resolve(p);
        }
      }
    });
    connection.onNotification("window/logMessage", () => {});
    connection.onRequest("workspace/configuration", (params: { items: { scopeUri?: string; section?: string }[] }) =>
      params.items.map((item) => options.settings?.(item.scopeUri) ?? null),
    );
    connection.onRequest("client/registerCapability", (params: { registrations: unknown[] }) => {
      client.registrations.push(...params.registrations);
      return null;
    });
    connection.onRequest("client/unregisterCapability", () => null);
    connection.onRequest("workspace/diagnostic/refresh", () => {
      client.refreshes++;
      return null;
    });
    connection.onRequest("workspace/codeLens/refresh", () => null);
    connection.listen();
    const capabilities: ClientCapabilities = {
      workspace: {
        configuration: true,
        workspaceFolders: true,
        didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
        didChangeConfiguration: { dynamicRegistration: true },
        diagnostics: { refreshSupport: true },
      },
      textDocument: {
        synchronization: { dynamicRegistration: false },
        completion: { completionItem: { snippetSupport: options.snippets ?? true } },
        hover: { contentFormat: ["markdown", "plaintext"] },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix", "source.fixAll"] } } },
        ...(options.pull === false ? {} : { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } }),
        publishDiagnostics: { relatedInformation: true, tagSupport: { valueSet: [1, 2] }, codeDescriptionSupport: true },
      },
    };
    await client.request(InitializeRequest.type.method, {
      processId: process.pid,
      rootUri: null,
      capabilities,
      workspaceFolders: (options.workspaceFolders ?? []).map((f) => ({ uri: pathToFileURL(f).href, name: f })),
      initializationOptions: { scanWorkspace: false, debounceMs: 20, ...(options.initializationOptions ?? {}) },
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  /** A request; an error response is recorded (the tests require none) and returned as `undefined`. */
  async request<R>(method: string, params: unknown): Promise<R | undefined> {
    try {
      return (await this.connection.sendRequest(method, params)) as R;
    } catch (error) {
      this.failures.push({ method, message: (error as Error).message });
      return undefined;
    }
  }

  async open(uri: string, text: string, languageId = "agent-sandbox"): Promise<void> {
    this.docs.set(uri, TextDocument.create(uri, languageId, 1, text));
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
  }

  async close(uri: string): Promise<void> {
    this.docs.delete(uri);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  document(uri: string): TextDocument {
    const doc = this.docs.get(uri);
    if (!doc) throw new Error(`${uri} is not open`);
    return doc;
  }

  /** Incremental edits, mirrored locally so the test always knows the server's text. */
  async change(uri: string, changes: TextDocumentContentChangeEvent[]): Promise<void> {
    const doc = this.document(uri);
    const next = TextDocument.update(doc, changes, doc.version + 1);
    this.docs.set(uri, next);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: next.version }, contentChanges: changes });
  }

  async replaceAll(uri: string, text: string): Promise<void> {
    const doc = this.document(uri);
    await this.change(uri, [{ range: { start: { line: 0, character: 0 }, end: doc.positionAt(doc.getText().length) }, text }]);
  }

  async pullDiagnostics(uri: string): Promise<Diagnostic[]> {
    const report = await this.request<{ kind: string; items: Diagnostic[] }>(DocumentDiagnosticRequest.method, { textDocument: { uri } });
    return report?.items ?? [];
  }

  /**
   * The diagnostics with the exact rule analysis's findings in: pulls, and when the server said the analysis of
   * this version is still running (`analysis: "pending"`), waits for it to say `done` and pulls again.
   */
  async pullCompleteDiagnostics(uri: string, timeoutMs = 120_000): Promise<Diagnostic[]> {
    const version = this.document(uri).version;
    const items = await this.pullDiagnostics(uri);
    const last = this.checks.filter((c) => c.uri === uri && c.version === version).at(-1);
    if (last?.analysis !== "pending") return items;
    await this.waitForCheck((c) => c.uri === uri && c.version === version && c.analysis === "done", timeoutMs);
    return this.pullDiagnostics(uri);
  }

  /** The first didCheck notification, already received or to come, that satisfies `predicate`. */
  waitForCheck(predicate: (p: DidCheckParams) => boolean, timeoutMs = 120_000): Promise<DidCheckParams> {
    const already = this.checks.find(predicate);
    if (already) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching agentSandbox/didCheck within ${timeoutMs} ms`)), timeoutMs);
      this.checkWaiters.push({
        predicate,
        resolve: (p) => {
          clearTimeout(timer);
          resolve(p);
        },
      });
    });
  }

  waitForPublish(uri: string, predicate: (p: PublishDiagnosticsParams) => boolean = () => true, timeoutMs = 10_000): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no publishDiagnostics for ${uri} within ${timeoutMs} ms`)), timeoutMs);
      this.publishWaiters.push({
        uri,
        predicate,
        resolve: (p) => {
          clearTimeout(timer);
          resolve(p);
        },
      });
    });
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      /* already gone */
    }
    this.connection.dispose();
    await new Promise<void>((resolve) => {
      if (this.process.exitCode !== null) return resolve();
      const timer = setTimeout(() => {
        this.process.kill("SIGKILL");
        resolve();
      }, 3000);
      this.process.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

export function rangeText(doc: TextDocument, range: Range): string {
  return doc.getText().slice(doc.offsetAt(range.start), doc.offsetAt(range.end));
}
