/**
 * The Agent Sandbox language server: `node dist/server.js --node-ipc` (how VS Code starts it) or `--stdio` (other
 * editors). It owns document state, debouncing, workspace scanning and watchers, and translates LSP to engine
 * calls and back (one feature per file in this folder). It decides nothing itself (design.md).
 */
import { readdir } from "node:fs/promises";
import { basename, dirname, join, sep } from "node:path";
import {
  CodeActionRequest,
  CodeLensRequest,
  CompletionRequest,
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  CodeLensRefreshRequest,
  createConnection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type CodeActionParams,
  type ClientCapabilities,
  type Disposable,
  type FileSystemWatcher,
  type InitializeResult,
  type WorkspaceFolder,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LineIndex } from "../engine/text";
import { AgentsRequest, CapabilityMapRequest, DidCheckNotification, EffectiveToolsRequest, ExplainRequest, PromptPreviewRequest, ScenarioRunRequest } from "../protocol";
import { asksForFixAll, CODE_ACTION_KINDS, codeActions, recheckerFor } from "./codeActions";
import { codeLenses } from "./codeLens";
import { complete } from "./completion";
import { ConfigEdits } from "./configEdits";
import { ConfigStore, type ServerSettings } from "./configStore";
import { agentsOfConfig, capabilityMapOfConfig, effectiveToolsOfConfig, explainInConfig, promptPreviewOfConfig, type SourceSampleWorkspace } from "./customRequests";
import { countBySeverity, diagnosticsOf, fullReport } from "./diagnostics";
import { documentSymbols } from "./documentSymbols";
import { fileKindOf, fixAllOfSource, isJsoncKind, scenarioConfigModel, sourceAgentAt, type Analysis } from "./engineFacade";
import { ExactPhase } from "./exactPhase";
import { foldingRanges } from "./folding";
import { formatEdits } from "./formatting";
import { hover } from "./hover";
import { scenarioLenses, scenarioRunResult } from "./scenarioRun";
import { sourceHover } from "./sourceHover";
import { forgetScenario, namesCall, scenarioOfSource, type ScenarioOfSource } from "./sourceScenarios";
import { URI } from "./uri";

declare const AGENT_SANDBOX_VERSION: string;
const VERSION = typeof AGENT_SANDBOX_VERSION === "string" ? AGENT_SANDBOX_VERSION : "dev";

export interface InitializationOptions {
  /** Settings for clients that cannot answer workspace/configuration. */
  settings?: ServerSettings;
  /** Delay between the last edit and a pushed check (pull clients ask when they want). Default 100 ms. */
  debounceMs?: number;
  /** Check the config files of the workspace folders that are not open (default true). */
  scanWorkspace?: boolean;
}

const SKIPPED_FOLDERS = new Set(["node_modules", ".git", "dist", "out", ".vscode-test", ".cache"]);
const SCAN_ENTRY_LIMIT = 50_000;
const SCAN_DEPTH_LIMIT = 24;
const CONFIG_GLOBS = ["**/*agent-sandbox.{json,jsonc}", "**/*.dryrun.{json,jsonc}", "**/config.{yaml,yml}", "**/SKILL.md"];

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

let capabilities: ClientCapabilities = {};
let options: InitializationOptions = {};
let pull = false;
let workspaceFolders: WorkspaceFolder[] = [];
// Diagnostics come in two phases when the exact rule analysis is on: every other check at once, on this thread,
// then the complete set from a worker thread (exactPhase.ts), pushed again or announced by a diagnostic refresh.
const exact = new ExactPhase(join(__dirname, "analysis-worker.js"), (message) => connection.console.error(message));
const store = new ConfigStore(connection, documents, () => !!capabilities.workspace?.configuration, { runner: exact, completed: secondPhaseDone });
/** Config files found in the workspace folders (on disk), by URI. */
const workspaceFiles = new Set<string>();
/** URIs this server has pushed a non-empty list for (so it can clear them). */
const pushed = new Set<string>();
const pending = new Map<string, NodeJS.Timeout>();
const lastNotified = new Map<string, Analysis>();

/** Every handler answers: an engine bug becomes a log line and an empty answer, never an error response. */
function safe<P, R>(name: string, fallback: R, handler: (params: P, token: CancellationToken) => R | Promise<R>) {
  return async (params: P, token: CancellationToken): Promise<R> => {
    try {
      return await handler(params, token);
    } catch (error) {
      connection.console.error(`${name} failed: ${(error as Error).stack ?? error}`);
      return fallback;
    }
  };
}

/**
 * The client also sends TypeScript, JavaScript and Python documents (for their diagnostics and the hover on the
 * agent call), which this server must not claim: where the client registers features dynamically, the config
 * languages' own features (completion, outline, folding, formatting, lenses, fixes) are registered for these two
 * languages only, so other extensions keep those of the source languages. Elsewhere they are declared for every
 * document and answer nothing in a source file.
 */
const CONFIG_LANGUAGES = [{ language: "agent-sandbox" }, { language: "agent-sandbox-dryrun" }];
/**
 * DeerFlow's own files, as the client selects them (client/src/constants.ts `DEERFLOW_DOCUMENTS`): they get the
 * fixes and lenses, not the JSONC features.
 */
const DEERFLOW_DOCUMENTS = [
  { language: "yaml", pattern: "**/config.{yaml,yml}" },
  { language: "markdown", pattern: "**/SKILL.md" },
];
/**
 * Source files whose calls of the runtime are checked (client/src/constants.ts `SOURCE_LANGUAGES`): they get quick
 * fixes in their own syntax, and lenses on the calls (none in a file that does not call the runtime).
 */
const SOURCE_DOCUMENTS = ["typescript", "typescriptreact", "javascript", "javascriptreact", "python"].map((language) => ({ language, scheme: "file" }));
let registerConfigFeatures = false;

connection.onInitialize((params): InitializeResult => {
  capabilities = params.capabilities;
  const td = capabilities.textDocument;
  registerConfigFeatures = !!(
    td?.completion?.dynamicRegistration &&
    td.documentSymbol?.dynamicRegistration &&
    td.foldingRange?.dynamicRegistration &&
    td.formatting?.dynamicRegistration &&
    td.rangeFormatting?.dynamicRegistration &&
    td.codeLens?.dynamicRegistration &&
    td.codeAction?.dynamicRegistration
  );
  options = (params.initializationOptions ?? {}) as InitializationOptions;
  store.useInitialSettings(options.settings);
  pull = !!capabilities.textDocument?.diagnostic;
  workspaceFolders = params.workspaceFolders ?? (params.rootUri ? [{ uri: params.rootUri, name: basename(params.rootUri) }] : []);
  return {
    serverInfo: { name: "agent-sandbox", version: VERSION },
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: false },
      ...(pull ? { diagnosticProvider: { identifier: "agent-sandbox", interFileDependencies: true, workspaceDiagnostics: false } } : {}),
      hoverProvider: true,
      ...(registerConfigFeatures
        ? {}
        : {
            codeActionProvider: { codeActionKinds: CODE_ACTION_KINDS, resolveProvider: false },
            completionProvider: { triggerCharacters: ['"', "/", ":"], resolveProvider: false },
            documentSymbolProvider: { label: "Agent Sandbox" },
            foldingRangeProvider: true,
            documentFormattingProvider: true,
            documentRangeFormattingProvider: true,
            codeLensProvider: { resolveProvider: false },
          }),
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
  };
});

connection.onInitialized(() => {
  if (registerConfigFeatures) {
    const documentSelector = CONFIG_LANGUAGES;
    void connection.client.register(CodeActionRequest.type, { documentSelector: [...documentSelector, ...DEERFLOW_DOCUMENTS, ...SOURCE_DOCUMENTS], codeActionKinds: CODE_ACTION_KINDS, resolveProvider: false });
    void connection.client.register(CompletionRequest.type, { documentSelector, triggerCharacters: ['"', "/", ":"], resolveProvider: false });
    void connection.client.register(DocumentSymbolRequest.type, { documentSelector, label: "Agent Sandbox" });
    void connection.client.register(FoldingRangeRequest.type, { documentSelector });
    void connection.client.register(DocumentFormattingRequest.type, { documentSelector });
    void connection.client.register(DocumentRangeFormattingRequest.type, { documentSelector });
    void connection.client.register(CodeLensRequest.type, { documentSelector: [...documentSelector, ...DEERFLOW_DOCUMENTS, ...SOURCE_DOCUMENTS], resolveProvider: false });
  }
  if (capabilities.workspace?.didChangeConfiguration?.dynamicRegistration) {
    void connection.client.register(DidChangeConfigurationNotification.type, { section: "agentSandbox" });
  }
  if (capabilities.workspace?.workspaceFolders) {
    connection.workspace.onDidChangeWorkspaceFolders((event) => {
      for (const removed of event.removed) {
        workspaceFolders = workspaceFolders.filter((f) => f.uri !== removed.uri);
        const prefix = URI.toFsPath(removed.uri);
        for (const uri of [...workspaceFiles]) {
          const path = URI.toFsPath(uri);
          if (prefix && path?.startsWith(prefix + sep)) {
            workspaceFiles.delete(uri);
            if (!documents.get(uri)) clearPushed(uri);
          }
        }
      }
      workspaceFolders.push(...event.added);
      for (const added of event.added) void scanFolder(added);
    });
  }
  scheduleWatchers();
  if (options.scanWorkspace !== false) for (const folder of workspaceFolders) void scanFolder(folder);
});

// ---------------------------------------------------------------------------------------------------------------
// Diagnostics: pull for open documents when the client can, push otherwise and for closed workspace files
// ---------------------------------------------------------------------------------------------------------------

let lensRefresh: NodeJS.Timeout | undefined;
let lateLensRefresh: NodeJS.Timeout | undefined;

function notifyChecked(uri: string, analysis: Analysis, version: number): void {
  if (lastNotified.get(uri) === analysis) return;
  lastNotified.set(uri, analysis);
  // Code lenses asked for while a check ran may have been cancelled and cached empty: ask again, after either
  // phase. (Refreshing after the first phase only left VS Code's editor without lenses: the UI smoke test of
  // e2e.sh caught it, while `vscode.executeCodeLensProvider` still answered.)
  if (capabilities.workspace?.codeLens?.refreshSupport) {
    clearTimeout(lensRefresh);
    clearTimeout(lateLensRefresh);
    lensRefresh = setTimeout(() => void connection.sendRequest(CodeLensRefreshRequest.type), 300);
    // Once more when things have settled: a refresh that lands while VS Code is still setting the editor up (the
    // language client loads after activation) can be lost, and the e2e UI run showed an editor left without lenses.
    lateLensRefresh = setTimeout(() => void connection.sendRequest(CodeLensRefreshRequest.type), 2000);
  }
  const runtime = analysis.model?.runtime.label;
  void connection.sendNotification(DidCheckNotification, {
    uri,
    version,
    kind: analysis.kind,
    ...(runtime ? { runtime: analysis.runtimeFromSetting ? `${runtime} (from the defaultRuntime setting)` : runtime } : {}),
    durationMs: Math.round(analysis.durationMs * 10) / 10,
    counts: countBySeverity(analysis),
    ...(analysis.skipped.length ? { skipped: analysis.skipped.map((s) => ({ what: s.what, why: s.why, checks: s.checks })) } : {}),
    ...(analysis.exact ? { analysis: analysis.exact } : {}),
  });
}

async function publish(uri: string): Promise<void> {
  const analysis = await store.analysisOf(uri);
  // The document may have been opened or edited while the check ran (a workspace scan races with the editor).
  const document = documents.get(uri);
  if (document && analysis?.text !== document.getText()) return; // a newer publish (or pull) follows
  if (document && pull) {
    if (analysis) notifyChecked(uri, analysis, document.version);
    // Open documents are pulled; what was pushed for the file on disk must not stay beside them.
    clearPushed(uri);
    return;
  }
  // The diagnostics first, then the notification that says they are out (a client that waits for it has them);
  // none when the document moved on meanwhile (the newer version's check follows).
  const version = document?.version;
  await push(uri, analysis, version);
  if (document && analysis && documents.get(uri)?.version === version) notifyChecked(uri, analysis, version!);
}

/** The second phase of a file is done: push the complete set, or ask pull clients to pull again. */
function secondPhaseDone(uri: string, analysis: Analysis): void {
  const document = documents.get(uri);
  if (document && analysis.text !== document.getText()) return; // a newer first phase is out already
  scheduleWatchers(); // the analysis may have read more inputs
  if (document && pull) {
    notifyChecked(uri, analysis, document.version);
    requestDiagnosticRefresh();
    return;
  }
  // Closed files are pushed only while they belong to the workspace (publish() pushed their first phase).
  if (!document && !workspaceFiles.has(uri)) return;
  // As in publish(): "analysis done" once the complete set is on its way, so that a client acting on the
  // notification (the next edit, a test, the benchmark) does not race the megabytes still being sent.
  const version = document?.version;
  push(uri, analysis, version)
    .catch((e) => connection.console.error(`publishing ${uri} failed: ${(e as Error).stack ?? e}`))
    .finally(() => {
      if (document && documents.get(uri)?.version === version) notifyChecked(uri, analysis, version!);
    });
}

let refreshQueued = false;
/** One refresh for every second phase that ends in the same turn (the client pulls every open file again). */
function requestDiagnosticRefresh(): void {
  if (refreshQueued || !capabilities.workspace?.diagnostics?.refreshSupport) return;
  refreshQueued = true;
  setImmediate(() => {
    refreshQueued = false;
    void connection.languages.diagnostics.refresh();
  });
}

async function push(uri: string, analysis: Analysis | undefined, version: number | undefined): Promise<void> {
  const diagnostics = analysis ? diagnosticsOf(analysis, uri) : [];
  if (diagnostics.length === 0 && !pushed.has(uri)) return;
  await connection.sendDiagnostics({ uri, ...(version !== undefined ? { version } : {}), diagnostics });
  if (diagnostics.length) pushed.add(uri);
  else pushed.delete(uri);
  scheduleWatchers();
}

function clearPushed(uri: string): void {
  if (!pushed.delete(uri)) return;
  void connection.sendDiagnostics({ uri, diagnostics: [] });
}

function schedulePublish(uri: string, delay = options.debounceMs ?? 100): void {
  clearTimeout(pending.get(uri));
  pending.set(
    uri,
    setTimeout(() => {
      pending.delete(uri);
      publish(uri).catch((e) => connection.console.error(`check of ${uri} failed: ${(e as Error).stack ?? e}`));
    }, delay),
  );
}

connection.languages.diagnostics.on(
  safe("textDocument/diagnostic", fullReport(undefined, ""), async (params) => {
    const uri = params.textDocument.uri;
    // The first phase at once when the client can be asked to pull again for the second; else both, awaited.
    const analysis = capabilities.workspace?.diagnostics?.refreshSupport ? await store.analysisOf(uri) : await store.completeAnalysisOf(uri);
    const document = documents.get(uri);
    if (analysis && document && analysis.text === document.getText()) notifyChecked(uri, analysis, document.version);
    scheduleWatchers();
    return fullReport(analysis, uri, params.previousResultId);
  }),
);

documents.onDidOpen((event) => {
  const uri = event.document.uri;
  const fsPath = URI.toFsPath(uri);
  // A file saved in a workspace folder keeps being checked from disk once it is closed.
  if (fsPath && fileKindOf(fsPath) && inWorkspace(fsPath)) workspaceFiles.add(uri);
  // The editor's text now wins over the disk's: what was pushed for the file on disk goes.
  if (pull) clearPushed(uri);
});
documents.onDidChangeContent((event) => {
  if (!pull) schedulePublish(event.document.uri);
  configEdits.edited(event.document.uri);
});
documents.onDidClose((event) => {
  const uri = event.document.uri;
  clearTimeout(pending.get(uri));
  pending.delete(uri);
  lastNotified.delete(uri);
  store.invalidate(uri);
  if (workspaceFiles.has(uri)) {
    store.diskChanged(uri);
    void publish(uri);
  } else if (!pull) clearPushed(uri);
  else store.forget(uri);
  // The scenarios that ran against the editor's text of this config now read it from disk again.
  configEdits.edited(uri);
});

const configEdits = new ConfigEdits(store, () => options.debounceMs ?? 100, rerunScenarios, (message) => connection.console.error(message));

/** Scenarios whose config changed: checked and run again (a pull client is asked to pull, for the first phase too). */
function rerunScenarios(uris: string[]): void {
  for (const uri of uris) {
    store.invalidate(uri);
    void publish(uri);
  }
  if (pull && uris.some((uri) => documents.get(uri))) requestDiagnosticRefresh();
}

connection.onDidChangeConfiguration(() => {
  store.clearSettings();
  recheckEverything();
});

function recheckEverything(): void {
  for (const document of documents.all()) {
    store.invalidate(document.uri);
    if (!pull) schedulePublish(document.uri, 0);
  }
  if (pull) refreshOpen();
  for (const uri of workspaceFiles) if (!documents.get(uri)) void publish(uri);
}

function refreshOpen(): void {
  if (capabilities.workspace?.diagnostics?.refreshSupport) void connection.languages.diagnostics.refresh();
  if (capabilities.workspace?.codeLens?.refreshSupport) void connection.sendRequest(CodeLensRefreshRequest.type);
}

// ---------------------------------------------------------------------------------------------------------------
// Workspace: scanning folders, watched files, cross-file inputs
// ---------------------------------------------------------------------------------------------------------------

async function scanFolder(folder: WorkspaceFolder): Promise<void> {
  const root = URI.toFsPath(folder.uri);
  if (!root) return;
  let visited = 0;
  const found: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > SCAN_DEPTH_LIMIT || visited > SCAN_ENTRY_LIMIT) return;
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++visited > SCAN_ENTRY_LIMIT) return;
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) await walk(join(dir, entry.name), depth + 1);
      } else if (entry.isFile() && fileKindOf(entry.name)) found.push(join(dir, entry.name));
    }
  };
  await walk(root, 0);
  if (visited > SCAN_ENTRY_LIMIT) connection.console.info(`Stopped scanning ${root} after ${SCAN_ENTRY_LIMIT} entries; open a config file to check it.`);
  for (const path of found.sort()) {
    const uri = URI.fromFsPath(path);
    workspaceFiles.add(uri);
    if (!documents.get(uri)) await publish(uri);
  }
}

function inWorkspace(fsPath: string): boolean {
  return workspaceFolders.some((f) => {
    const root = URI.toFsPath(f.uri);
    return !!root && (fsPath === root || fsPath.startsWith(root + sep));
  });
}

connection.onDidChangeWatchedFiles((params) => {
  let refresh = false;
  for (const change of params.changes) {
    const fsPath = URI.toFsPath(change.uri);
    if (!fsPath) continue;
    const uri = documents.get(change.uri) ? change.uri : URI.fromFsPath(fsPath);
    if (fileKindOf(fsPath)) {
      store.diskChanged(uri);
      if (change.type === FileChangeType.Deleted) {
        workspaceFiles.delete(uri);
        // An open editor keeps its text (and its diagnostics); a closed file's diagnostics go with it.
        if (!documents.get(uri)) {
          store.forget(uri);
          clearPushed(uri);
        }
      } else {
        if (inWorkspace(fsPath)) workspaceFiles.add(uri);
        if (!documents.get(uri) && workspaceFiles.has(uri)) void publish(uri);
      }
    }
    if (store.sampleChanged(fsPath)) refresh = true;
    for (const dependent of store.dependents(fsPath)) {
      store.invalidate(dependent);
      if (documents.get(dependent)) {
        if (pull) refresh = true;
        else schedulePublish(dependent, 0);
      } else void publish(dependent);
    }
  }
  if (refresh) refreshOpen();
});

let watcherRegistration: Promise<Disposable> | undefined;
let watcherKey = "";
let watcherTimer: NodeJS.Timeout | undefined;

/** Watch the config file names, plus every cross-file input the current analyses read (re-registered when they change). */
function scheduleWatchers(): void {
  if (!capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) return;
  clearTimeout(watcherTimer);
  watcherTimer = setTimeout(() => void updateWatchers(), 300);
}

async function updateWatchers(): Promise<void> {
  const relative = !!capabilities.workspace?.didChangeWatchedFiles?.relativePatternSupport;
  const watchers: FileSystemWatcher[] = CONFIG_GLOBS.map((globPattern) => ({ globPattern }));
  if (relative) {
    for (const input of store.watchedInputs()) {
      const baseUri = URI.fromFsPath(dirname(input));
      watchers.push({ globPattern: { baseUri, pattern: basename(input) } }, { globPattern: { baseUri, pattern: `${basename(input)}/**` } });
    }
  } else if (store.watchedInputs().length > 0) {
    watchers.push({ globPattern: "**/*" });
  }
  const key = JSON.stringify(watchers);
  if (key === watcherKey) return;
  watcherKey = key;
  const previous = watcherRegistration;
  watcherRegistration = connection.client.register(DidChangeWatchedFilesNotification.type, { watchers });
  try {
    (await previous)?.dispose();
  } catch {
    /* the old registration is gone already */
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Features
// ---------------------------------------------------------------------------------------------------------------

/** The analysis of an open document at its current version. */
async function openAnalysis(uri: string, sourceToo = false): Promise<{ analysis: Analysis; fsPath: string } | undefined> {
  const target = store.targetOf(uri);
  if (!target || !documents.get(uri)) return undefined;
  // A source file gets diagnostics, quick fixes and the hover, nothing else of the config languages'.
  if (target.kind === "source" && !sourceToo) return undefined;
  const analysis = await store.analysisOf(uri);
  return analysis ? { analysis, fsPath: target.fsPath } : undefined;
}

connection.onCodeAction(
  safe("textDocument/codeAction", [], async (params) => {
    const uri = params.textDocument.uri;
    // A source file's quick fixes are in its own syntax (engine/sources/fixRenderer.ts).
    const open = await openAnalysis(uri, true);
    if (!open) return [];
    const settings = await store.settingsFor(uri);
    // While the exact rule analysis is still running, the first phase has none of its findings: fix-all (on save,
    // right after typing) would leave out their safe fixes and differ from `check --fix`, and a lightbulb asked
    // about one of them would find nothing to fix. Those wait for the analysis; other lightbulbs answer at once.
    let analysis = open.analysis;
    if (analysis.exact === "pending" && wantsCompleteAnalysis(params, analysis)) analysis = (await store.completeAnalysisOf(uri)) ?? analysis;
    // A source file's fix-all: only where it calls the runtime (a save's fix-all asks about every TypeScript file).
    const fixAllInSource = analysis.kind === "source" && analysis.agents?.length ? () => fixAllOfSource(open.fsPath, analysis.text, settings) : undefined;
    return codeActions(params, analysis, recheckerFor(open.fsPath, settings, analysis.kind), fixAllInSource);
  }),
);

/** A fix-all request, or a lightbulb about a diagnostic the first phase does not have (the analysis's). */
function wantsCompleteAnalysis(params: CodeActionParams, firstPhase: Analysis): boolean {
  if (asksForFixAll(params)) return true;
  const codes = new Set(firstPhase.findings.map((f) => f.code));
  return params.context.diagnostics.some((d) => typeof d.code === "string" && !codes.has(d.code));
}

connection.onHover(
  safe("textDocument/hover", null, async (params) => {
    const uri = params.textDocument.uri;
    const open = await openAnalysis(uri, true);
    if (!open) return null;
    const { analysis, fsPath } = open;
    if (analysis.kind === "source") return sourceHover(analysis, analysis.lines.offsetAt(params.position));
    return hover({
      analysis,
      uri,
      fsPath,
      offset: analysis.lines.offsetAt(params.position),
      sample: async () => (analysis.model ? store.sampleWorkspaceOf(analysis.model, uri) : undefined),
    });
  }),
);

connection.onCompletion(
  safe("textDocument/completion", [], async (params) => {
    const uri = params.textDocument.uri;
    const open = await openAnalysis(uri);
    if (!open || !isJsoncKind(open.analysis.kind)) return [];
    const { analysis, fsPath } = open;
    return complete({
      analysis,
      offset: analysis.lines.offsetAt(params.position),
      snippets: !!capabilities.textDocument?.completion?.completionItem?.snippetSupport,
      sample: async () => (analysis.model ? store.sampleWorkspaceOf(analysis.model, uri) : undefined),
      scenarioConfig: (relativePath) => scenarioConfigModel(fsPath, relativePath),
    });
  }),
);

connection.onDocumentSymbol(
  safe("textDocument/documentSymbol", [], async (params) => {
    const open = await openAnalysis(params.textDocument.uri);
    return open && isJsoncKind(open.analysis.kind) ? documentSymbols(open.analysis) : [];
  }),
);

connection.onFoldingRanges(
  safe("textDocument/foldingRange", [], (params) => {
    const document = documents.get(params.textDocument.uri);
    const target = store.targetOf(params.textDocument.uri);
    if (!document || !target || !isJsoncKind(target.kind)) return [];
    const text = document.getText();
    return foldingRanges(text, new LineIndex(text), capabilities.textDocument?.foldingRange?.rangeLimit);
  }),
);

connection.onDocumentFormatting(
  safe("textDocument/formatting", [], async (params) => {
    const open = await openAnalysis(params.textDocument.uri);
    return open && isJsoncKind(open.analysis.kind) ? formatEdits(open.analysis.text, open.analysis.lines, params.options) : [];
  }),
);

connection.onDocumentRangeFormatting(
  safe("textDocument/rangeFormatting", [], async (params) => {
    const open = await openAnalysis(params.textDocument.uri);
    return open && isJsoncKind(open.analysis.kind) ? formatEdits(open.analysis.text, open.analysis.lines, params.options, params.range) : [];
  }),
);

connection.onCodeLens(
  safe("textDocument/codeLens", [], async (params) => {
    const open = await openAnalysis(params.textDocument.uri, true);
    if (!open) return [];
    if (open.analysis.kind === "source") {
      if (!open.analysis.agents?.length) return [];
      return codeLenses(open.analysis, params.textDocument.uri, await scenariosOfSource(open.fsPath));
    }
    // A scenario's lenses are its steps' outcomes: they wait for its run (the second phase).
    if (open.analysis.kind === "dry-run") return scenarioLenses((await store.completeAnalysisOf(params.textDocument.uri)) ?? open.analysis);
    return codeLenses(open.analysis, params.textDocument.uri);
  }),
);

/** Every dry-run scenario the server knows (the workspace's, and those open) that names the source file `fsPath`. */
async function scenariosOfSource(fsPath: string): Promise<ScenarioOfSource[]> {
  const uris = new Set([...workspaceFiles, ...documents.keys()]);
  const found: ScenarioOfSource[] = [];
  for (const uri of uris) {
    const scenarioPath = URI.toFsPath(uri);
    if (!scenarioPath || store.targetOf(uri)?.kind !== "dry-run") continue;
    // The store's text: a scenario not open is read from disk once, until the watcher says it changed.
    const text = await store.textOf(uri, scenarioPath);
    if (text === undefined) {
      forgetScenario(uri);
      continue;
    }
    const names = scenarioOfSource(uri, scenarioPath, text);
    if (names?.source === fsPath) found.push(names);
  }
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

connection.onRequest(AgentsRequest, safe("agents", { available: false, agents: [], roles: [] }, async (params) => agentsOfConfig(await store.analysisOf(params.uri), params.line)));
connection.onRequest(
  EffectiveToolsRequest,
  safe("effectiveTools", { available: false, tables: [], markdown: "" }, async (params) => effectiveToolsOfConfig(await store.analysisOf(params.uri), params)),
);
connection.onRequest(
  PromptPreviewRequest,
  safe("promptPreview", { available: false, markdown: "" }, async (params) => {
    const target = store.targetOf(params.uri);
    return promptPreviewOfConfig(await store.analysisOf(params.uri), target?.fsPath ?? "", params);
  }),
);
connection.onRequest(
  ScenarioRunRequest,
  safe("runScenario", { available: false, ran: false, passed: false, steps: [], transcript: "" }, async (params) => {
    await configEdits.flush();
    return scenarioRunResult(await store.completeAnalysisOf(params.uri), URI.fromFsPath);
  }),
);
connection.onRequest(ExplainRequest, safe("explain", { available: false }, async (params) => explainInConfig(await store.analysisOf(params.uri), params.uri, params)));

connection.onRequest(
  CapabilityMapRequest,
  safe("capabilityMap", { available: false, agent: "main", role: null, agents: [], roles: [], mountAt: "/workspace", tools: { read: [], write: [] }, entries: [] }, async (params) => {
    const analysis = await store.analysisOf(params.uri);
    const fsPath = store.targetOf(params.uri)?.fsPath;
    // A source file's call maps the sample workspace of the first scenario (by name) that names the call.
    let workspace: SourceSampleWorkspace | undefined;
    const agent = analysis?.kind === "source" && fsPath ? sourceAgentAt(analysis, params.line) : undefined;
    if (agent && fsPath) workspace = (await scenariosOfSource(fsPath)).find((s) => s.workspace && namesCall(s, analysis!, agent))?.workspace;
    return capabilityMapOfConfig(analysis, fsPath, params, undefined, workspace);
  }),
);

connection.onShutdown(() => exact.dispose());

documents.listen(connection);
connection.listen();
