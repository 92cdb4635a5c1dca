/**
 * The VS Code client's entry. Activation only registers what must exist at once (the commands, the preview scheme)
 * and returns. The language client (session.ts: vscode-languageclient, the server process, the language status,
 * the commands' work), bundled apart as dist/client-session.js, is loaded and started only when something needs
 * it: a config, dry-run or DeerFlow file in the workspace, an open TypeScript/JavaScript/Python document that names
 * `deepagents` (startWhen.ts: text tests, no parse), or a command. The extension activates on those languages, so
 * in a workspace whose source files never name the runtime it stays at that: no server process, no grammar, no
 * diagnostic. A workspace where it was needed before starts it at once. A command run before the session is there
 * waits for it.
 */
import * as vscode from "vscode";
import { Commands } from "../../server/src/commands";
import type { AgentCommandArgs, DidCheckParams, ScenarioRunParams } from "../../server/src/protocol";
import { ClientCommands, DEERFLOW_DOCUMENTS, LANGUAGES, PREVIEW_SCHEME, SOURCE_LANGUAGES } from "./constants";
import type { MapArgs } from "./capabilityMap";
import type { CreateSampleArgs } from "./sample";
import type { ExplainArgs, Session } from "./session";
import { CONFIG_FILES, DEERFLOW_FILES, editNamesRuntime, EXCLUDED, isDeerFlowFile, isDeerFlowName, namesRuntime } from "./startWhen";
import type { ScenarioTests } from "./testing";

export interface AgentSandboxApi {
  /** Settles when the language client is loaded and the server has answered `initialize` (pending until it starts). */
  ready: Promise<void>;
  /** How long `activate` took, in milliseconds (the language client loads and the server starts afterwards, if needed). */
  activationMs: number;
  /** Whether the language client has been started (why it starts: this file's header). */
  started(): boolean;
  /** Starts the language client now, as a command does; settles like `ready`. */
  start(): Promise<void>;
  /** The last check of each file, as the server reported it (the language status item shows it). */
  lastCheck(uri: string): DidCheckParams | undefined;
  /** The capability map's decoration of a file or folder in the Explorer (undefined: none, or not loaded yet). */
  mapDecoration(uri: string): { badge?: string; tooltip?: string; color?: string } | undefined;
  /** Test Explorer's scenarios (testing.ts), once the session is loaded. */
  scenarioTests: Promise<ScenarioTests>;
}

let session: Promise<Session> | undefined;

export function activate(context: vscode.ExtensionContext): AgentSandboxApi {
  const activated = performance.now();
  const previewChanged = new vscode.EventEmitter<vscode.Uri>();
  let loaded: Session | undefined;
  let sessionLoaded!: (s: Session) => void;
  let sessionFailed!: (error: unknown) => void;
  const current = new Promise<Session>((resolve, reject) => ((sessionLoaded = resolve), (sessionFailed = reject)));
  const ready = current.then((s) => s.ready);
  // Test Explorer's dry-run scenarios, bundled apart too (dist/client-testing.js).
  const scenarioTests = current.then((s) => {
    const { ScenarioTests } = require("./testing") as typeof import("./testing");
    const tests = new ScenarioTests(s.client);
    context.subscriptions.push(tests);
    return tests;
  });
  scenarioTests.catch((error) => void vscode.window.showErrorMessage(`Agent Sandbox: Test Explorer's scenarios did not load (${(error as Error).message}).`));
  ready.catch((error) => void vscode.window.showErrorMessage(`Agent Sandbox: the language server did not start (${(error as Error).message}).`));

  /** What watches for a reason to start; disposed once started. */
  const watching: vscode.Disposable[] = [];
  const start = (): Promise<Session> => {
    if (session) return current;
    session = current;
    for (const d of watching.splice(0)) d.dispose();
    void context.workspaceState.update(STARTED_HERE, true);
    // On the next turn of the event loop, so that a start during activation does not make activation wait for it.
    setImmediate(() => {
      try {
        // build.mjs bundles ./session apart (dist/client-session.js); under a TypeScript loader this is session.ts.
        const { Session } = require("./session") as typeof import("./session");
        loaded = new Session(context, previewChanged);
        // Shows the Capability Map view (package.json `when`).
        void vscode.commands.executeCommand("setContext", "agentSandbox.active", true);
        sessionLoaded(loaded);
      } catch (error) {
        sessionFailed(error);
      }
    });
    return current;
  };
  /** A handler that runs once the session is there (starting it if nothing has yet). */
  const withSession =
    <A extends unknown[], R>(run: (s: Session, ...args: A) => R | Thenable<R>) =>
    async (...args: A): Promise<R> =>
      run(await start(), ...args);

  context.subscriptions.push(
    previewChanged,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, {
      onDidChange: previewChanged.event,
      provideTextDocumentContent: withSession((s, uri: vscode.Uri) => s.previews.provideTextDocumentContent(uri)),
    }),
    vscode.commands.registerCommand(Commands.previewPrompt, withSession((s, args?: AgentCommandArgs) => s.previewPrompt(args))),
    vscode.commands.registerCommand(Commands.showEffectiveTools, withSession((s, args?: AgentCommandArgs) => s.showEffectiveTools(args))),
    vscode.commands.registerCommand(Commands.explainDecision, withSession((s, args?: ExplainArgs) => s.explainDecision(args))),
    vscode.commands.registerCommand(Commands.runScenario, withSession((s, args?: ScenarioRunParams) => s.runScenario(args))),
    vscode.commands.registerCommand(ClientCommands.showCapabilityMap, withSession((s, args?: MapArgs) => s.capabilityMap.show(args))),
    vscode.commands.registerCommand(ClientCommands.mapChooseAgent, withSession((s, agent?: string) => s.capabilityMap.chooseAgent(typeof agent === "string" ? agent : undefined))),
    vscode.commands.registerCommand(ClientCommands.mapChooseRole, withSession((s, role?: string | null) => s.capabilityMap.chooseRole(typeof role === "string" || role === null ? role : undefined))),
    vscode.commands.registerCommand(ClientCommands.mapChooseConfig, withSession((s, uri?: string) => s.capabilityMap.chooseConfig(typeof uri === "string" ? uri : undefined))),
    vscode.commands.registerCommand(ClientCommands.mapRefresh, withSession((s) => s.capabilityMap.refresh())),
    vscode.commands.registerCommand(ClientCommands.createSampleConfig, withSession((s, args?: CreateSampleArgs) => s.createSampleConfig(args))),
    { dispose: () => void (session && current.then((s) => s.dispose(), () => undefined)) },
    { dispose: () => watching.splice(0).forEach((d) => d.dispose()) },
  );

  // Documents opened now or later, and edits that may add the import (only the lines an edit touched are read).
  watching.push(
    vscode.workspace.onDidOpenTextDocument((document) => needsServer(document) && void start()),
    vscode.workspace.onDidChangeTextDocument((event) => {
      const { document } = event;
      const needed = isSource(document) ? event.contentChanges.some((change) => editNamesRuntime(document, change)) : isDeerFlowDocument(document) && needsServer(document);
      if (needed) void start();
    }),
  );
  // A workspace where the server was needed before gets it at once, as the config opened first gets its lenses
  // and diagnostics without waiting for the search below. Whether it still needs it is checked, for the next time.
  const remembered = context.workspaceState.get<boolean>(STARTED_HERE) === true;
  if (remembered) void start();
  // The documents already open and the workspace's files: after activation returns, since a search takes a while.
  setImmediate(() => {
    const openNeedsServer = vscode.workspace.textDocuments.some(needsServer);
    if (remembered) {
      if (!openNeedsServer) void workspaceNeedsServer().then((needed) => void (needed || context.workspaceState.update(STARTED_HERE, false)), () => undefined);
      return;
    }
    if (session) return;
    if (openNeedsServer) return void start();
    const search = () => void workspaceNeedsServer().then((needed) => needed && void start(), () => undefined);
    search();
    const configs = vscode.workspace.createFileSystemWatcher(CONFIG_FILES, false, true, true);
    const deerFlow = vscode.workspace.createFileSystemWatcher(DEERFLOW_FILES, false, false, true);
    const deerFlowFileChanged = (uri: vscode.Uri) => void fileIsDeerFlow(uri).then((yes) => yes && void start(), () => undefined);
    watching.push(
      configs,
      configs.onDidCreate(() => void start()),
      deerFlow,
      deerFlow.onDidCreate(deerFlowFileChanged),
      deerFlow.onDidChange(deerFlowFileChanged),
      vscode.workspace.onDidChangeWorkspaceFolders(search),
    );
  });

  const mapDecoration = (uri: string) => {
    const look = loaded?.capabilityMap.lookAt(vscode.Uri.parse(uri));
    return look && { badge: look.badge, tooltip: look.tooltip, color: look.colorId };
  };
  return {
    ready,
    activationMs: performance.now() - activated,
    started: () => session !== undefined,
    start: () => start().then((s) => s.ready),
    lastCheck: (uri) => loaded?.lastCheck(uri),
    mapDecoration,
    scenarioTests,
  };
}

const isSource = (document: vscode.TextDocument) => document.uri.scheme === "file" && SOURCE_LANGUAGES.includes(document.languageId);
const isDeerFlowDocument = (document: vscode.TextDocument) => DEERFLOW_DOCUMENTS.some((d) => d.language === document.languageId) && isDeerFlowName(document.uri.path);

/** An open document the server has something to say about: a config or scenario, DeerFlow's, a source file naming the runtime. */
function needsServer(document: vscode.TextDocument): boolean {
  if (LANGUAGES.includes(document.languageId)) return true;
  if (isSource(document)) return namesRuntime(document.getText());
  return isDeerFlowDocument(document) && isDeerFlowFile(document.uri.path, document.getText());
}

/** A config or scenario anywhere in the workspace, or a DeerFlow file (a few named so are read to tell). */
async function workspaceNeedsServer(): Promise<boolean> {
  if ((await vscode.workspace.findFiles(CONFIG_FILES, EXCLUDED, 1)).length > 0) return true;
  for (const uri of await vscode.workspace.findFiles(DEERFLOW_FILES, EXCLUDED, DEERFLOW_FILES_READ)) if (await fileIsDeerFlow(uri)) return true;
  return false;
}
/** The workspace's memory that the server was started in it (`context.workspaceState`). */
const STARTED_HERE = "agentSandbox.startedHere";
/** How many files named like DeerFlow's the workspace search reads before it gives up (another program's config.yaml is common). */
const DEERFLOW_FILES_READ = 20;

async function fileIsDeerFlow(uri: vscode.Uri): Promise<boolean> {
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  return isDeerFlowFile(uri.path, text);
}

export function deactivate(): Thenable<void> | undefined {
  return session?.then((s) => s.stop(), () => undefined);
}
