/**
 * The VS Code client's session, loaded by extension.ts after activation: starts the language server (dist/server.js
 * over IPC) and adds what only an editor can do: read-only preview documents, pickers, jumping to the deciding
 * rule, the language status item. It holds no semantics: every answer comes from the server, through the requests
 * declared in ../../server/src/protocol.ts. Bundled apart (dist/client-session.js) because vscode-languageclient is
 * most of the client's code, and activation should not wait for it to load.
 */
import * as vscode from "vscode";
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import {
  AgentsRequest,
  Commands,
  DidCheckNotification,
  EffectiveToolsRequest,
  ExplainRequest,
  PromptPreviewRequest,
  ScenarioRunRequest,
  type AgentCommandArgs,
  type DidCheckParams,
  type EffectiveToolsResult,
  type ExplainResult,
  type ScenarioRunParams,
} from "../../server/src/protocol";
import { CapabilityMap } from "./capabilityMap";
import { DEERFLOW_DOCUMENTS, LANGUAGES, PREVIEW_SCHEME, SOURCE_LANGUAGES } from "./constants";
import { operationItems, pathInputOptions } from "./explainInput";
import { runMarkdown } from "./runPreview";
import { createSampleConfig, type CreateSampleArgs, type CreateSampleResult } from "./sample";

export type ExplainArgs = AgentCommandArgs & { operation?: "read" | "write"; path?: string };

export class Session implements vscode.Disposable {
  readonly client: LanguageClient;
  readonly previews: PreviewDocuments;
  /** Explorer decorations and the Capability Map view (capabilityMap.ts). */
  readonly capabilityMap: CapabilityMap;
  /** Settles when the server has answered `initialize`. */
  readonly ready: Promise<void>;
  private readonly checks = new Map<string, DidCheckParams>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(context: vscode.ExtensionContext, previewChanged: vscode.EventEmitter<vscode.Uri>) {
    const serverModule = context.asAbsolutePath("dist/server.js");
    const serverOptions: ServerOptions = {
      run: { module: serverModule, transport: TransportKind.ipc },
      debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ["--nolazy", "--inspect=6019"] } },
    };
    const clientOptions: LanguageClientOptions = {
      // DeerFlow's own files are checked in place, registered by pattern without claiming YAML or markdown: other
      // YAML and markdown files get nothing from this server. Source files (saved ones) are sent for the calls of
      // the runtime they may contain; the server says nothing in those that have none.
      documentSelector: [
        ...LANGUAGES.map((language) => ({ language })),
        ...DEERFLOW_DOCUMENTS,
        ...SOURCE_LANGUAGES.map((language) => ({ language, scheme: "file" })),
      ],
      diagnosticPullOptions: { onChange: true, onSave: true },
      // Hovers link to the prompt preview and the explain command; only our own commands are trusted.
      markdown: { isTrusted: { enabledCommands: Object.values(Commands) }, supportHtml: false },
    };
    const languageClient = new LanguageClient("agentSandbox", "Agent Sandbox", serverOptions, clientOptions);
    this.client = languageClient;
    this.previews = new PreviewDocuments(languageClient, previewChanged);

    const status = vscode.languages.createLanguageStatusItem("agentSandbox.status", LANGUAGES.map((language) => ({ language })));
    status.name = "Agent Sandbox";
    status.text = "Agent Sandbox";
    status.detail = "starting…";
    status.command = { title: "Effective tools", command: Commands.showEffectiveTools };
    const showStatus = (editor: vscode.TextEditor | undefined) => {
      const check = editor && this.checks.get(editor.document.uri.toString());
      if (!check) return;
      status.text = check.runtime ?? (check.kind === "dry-run" ? "Dry-run scenario" : "Agent Sandbox");
      const problems = check.counts.errors + check.counts.warnings + check.counts.information + check.counts.hints;
      const skipped = check.skipped?.length ? ` · ${check.skipped.length} not analysed exactly (${check.skipped[0]!.what}: ${check.skipped[0]!.why})` : "";
      const pending = check.analysis === "pending" ? (check.kind === "dry-run" ? " · dry run running…" : " · rule analysis running…") : "";
      status.detail = `checked in ${check.durationMs} ms · ${problems} finding${problems === 1 ? "" : "s"}${skipped}${pending}`;
      status.severity = check.counts.errors > 0 ? vscode.LanguageStatusSeverity.Error : skipped ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
      status.busy = check.analysis === "pending";
    };
    languageClient.onNotification(DidCheckNotification, (params) => {
      this.checks.set(params.uri, params);
      if (vscode.window.activeTextEditor?.document.uri.toString() === params.uri) showStatus(vscode.window.activeTextEditor);
      // A preview follows the complete analysis, not each phase (the first phase changes nothing it shows).
      if (params.analysis !== "pending") this.previews.configChanged(params.uri);
      this.capabilityMap.configChecked(params.uri);
    });
    this.disposables.push(status, vscode.window.onDidChangeActiveTextEditor(showStatus));
    this.ready = languageClient.start();
    this.capabilityMap = new CapabilityMap(languageClient, this.ready);
    this.disposables.push(this.capabilityMap);
  }

  /** The last check of each file, as the server reported it (the language status item shows it). */
  lastCheck(uri: string): DidCheckParams | undefined {
    return this.checks.get(uri);
  }

  previewPrompt(args?: AgentCommandArgs): Promise<vscode.Uri | undefined> {
    return previewPrompt(this.client, this.previews, args);
  }

  showEffectiveTools(args?: AgentCommandArgs): Promise<EffectiveToolsResult | undefined> {
    return showEffectiveTools(this.client, this.previews, args);
  }

  createSampleConfig(args?: CreateSampleArgs): Promise<CreateSampleResult | undefined> {
    return createSampleConfig(args);
  }

  explainDecision(args?: ExplainArgs): Promise<ExplainResult | undefined> {
    return explainDecision(this.client, args);
  }

  /** Runs a scenario (the Dry run lens of a source file's call, or the active scenario) and shows its transcript. */
  async runScenario(args?: ScenarioRunParams): Promise<vscode.Uri | undefined> {
    const active = vscode.window.activeTextEditor?.document;
    const uri = args?.uri ?? (active?.languageId === "agent-sandbox-dryrun" ? active.uri.toString() : undefined);
    if (!uri) {
      void vscode.window.showInformationMessage("Agent Sandbox: open a dry-run scenario (*.dryrun.jsonc) first.");
      return undefined;
    }
    return openPreview(this.previews.uriFor({ view: "run", uri }));
  }

  stop(): Promise<void> {
    return this.client.stop();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.client.stop();
  }
}

// -----------------------------------------------------------------------------------------------------------------
// Read-only preview documents (prompt preview, effective tools) that follow the config as it changes
// -----------------------------------------------------------------------------------------------------------------

interface PreviewQuery {
  /** `run`: a dry-run scenario's transcript (`uri` is the scenario). */
  view: "prompt" | "tools" | "run";
  uri: string;
  agent?: string;
  role?: string | null;
  /** A source file's call (protocol.ts `line`). */
  line?: number;
}

/** The content of the preview scheme (extension.ts registers the provider and owns `changed`). */
export class PreviewDocuments implements vscode.TextDocumentContentProvider {
  readonly onDidChange: vscode.Event<vscode.Uri>;
  private readonly open = new Map<string, vscode.Uri>();

  constructor(
    private readonly languageClient: LanguageClient,
    private readonly changed: vscode.EventEmitter<vscode.Uri>,
  ) {
    this.onDidChange = changed.event;
  }

  uriFor(query: PreviewQuery): vscode.Uri {
    const config = vscode.Uri.parse(query.uri);
    const name = config.path.split("/").at(-1) ?? "config";
    const who = `${query.agent ?? "all agents"}${query.role ? ` as ${query.role}` : ""}`;
    const title = query.view === "prompt" ? `Prompt preview - ${who} - ${name}.md` : query.view === "run" ? `Dry run - ${name}.md` : `Effective tools - ${who} - ${name}.md`;
    return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${title}`, query: JSON.stringify(query) });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const query = JSON.parse(uri.query) as PreviewQuery;
    this.open.set(uri.toString(), uri);
    await this.languageClient.start();
    const line = query.line !== undefined ? { line: query.line } : {};
    if (query.view === "prompt") {
      const result = await this.languageClient.sendRequest(PromptPreviewRequest, { uri: query.uri, agent: query.agent ?? "main", role: query.role ?? null, ...line });
      return result.markdown;
    }
    if (query.view === "run") return runMarkdown(await this.languageClient.sendRequest(ScenarioRunRequest, { uri: query.uri }), query.uri);
    const result = await this.languageClient.sendRequest(EffectiveToolsRequest, { uri: query.uri, ...(query.agent ? { agent: query.agent } : {}), ...(query.role !== undefined ? { role: query.role } : {}), ...line });
    return result.markdown;
  }

  /**
   * A check of the config finished: every preview of it on screen is re-rendered. A rendered preview shows its
   * document without an editor, and VS Code closes a document no editor holds after a while: a preview whose
   * document is closed but whose tab is still open gets its document opened again, which the markdown preview
   * takes as its cue to render it anew. A preview neither open nor on screen is forgotten.
   */
  configChanged(configUri: string): void {
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    for (const [key, uri] of this.open) {
      if ((JSON.parse(uri.query) as PreviewQuery).uri !== configUri) continue;
      if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === key)) this.changed.fire(uri);
      else if (tabs.some((t) => showsPreview(t, uri))) void vscode.workspace.openTextDocument(uri);
      else this.open.delete(key);
    }
  }
}

/** A tab that shows a preview document: as text, or rendered (the markdown preview's title ends with the file name). */
function showsPreview(tab: vscode.Tab, uri: vscode.Uri): boolean {
  if (tab.input instanceof vscode.TabInputText) return tab.input.uri.toString() === uri.toString();
  return tab.input instanceof vscode.TabInputWebview && tab.label.endsWith(uri.path.slice(1));
}

// -----------------------------------------------------------------------------------------------------------------
// Commands
// -----------------------------------------------------------------------------------------------------------------

/** A config, or a source file and the call its `line` picks (protocol.ts `line`). */
interface Target {
  uri: string;
  line?: number;
}

function targetOf(args: AgentCommandArgs | undefined): Target | undefined {
  if (args?.uri) return { uri: args.uri, ...(typeof args.line === "number" ? { line: args.line } : {}) };
  // The active editor's config, or the call under its cursor in a source file; else a config beside it (a command
  // run from the walkthrough page or the map's view).
  const active = vscode.window.activeTextEditor;
  if (active && SOURCE_LANGUAGES.includes(active.document.languageId)) return { uri: active.document.uri.toString(), line: active.selection.active.line };
  const isConfig = (d: vscode.TextDocument | undefined) => d?.languageId === "agent-sandbox";
  const document = [active?.document, ...vscode.window.visibleTextEditors.map((e) => e.document)].find(isConfig);
  if (document) return { uri: document.uri.toString() };
  void vscode.window.showInformationMessage("Agent Sandbox: open an agent-sandbox.jsonc file, or a source file that calls createDeepAgent or create_deep_agent, first.");
  return undefined;
}

/** The `line` of a target, as request parameters. */
function lineOf(target: Target): { line?: number } {
  return target.line !== undefined ? { line: target.line } : {};
}

async function pickAgent(languageClient: LanguageClient, target: Target, agent: string | undefined, withRole: boolean, role: string | null | undefined) {
  await languageClient.start();
  const info = await languageClient.sendRequest(AgentsRequest, { uri: target.uri, ...lineOf(target) });
  if (!info.available) {
    void vscode.window.showWarningMessage(`Agent Sandbox: ${info.reason}`);
    return undefined;
  }
  const chosenAgent = agent ?? (info.agents.length === 1 ? info.agents[0] : await vscode.window.showQuickPick(info.agents, { title: "Agent", placeHolder: "Which agent?" }));
  if (!chosenAgent) return undefined;
  let chosenRole: string | null | undefined = role;
  if (withRole && chosenRole === undefined) {
    if (info.roles.length === 0) chosenRole = null;
    else {
      const NONE = "(no role: authorization not applied)";
      const picked = await vscode.window.showQuickPick([NONE, ...info.roles], { title: "Role", placeHolder: "As which role?" });
      if (picked === undefined) return undefined;
      chosenRole = picked === NONE ? null : picked;
    }
  }
  return { agent: chosenAgent, role: chosenRole ?? null, info };
}

async function previewPrompt(languageClient: LanguageClient, previews: PreviewDocuments, args?: AgentCommandArgs): Promise<vscode.Uri | undefined> {
  const target = targetOf(args);
  if (!target) return undefined;
  const picked = await pickAgent(languageClient, target, args?.agent, true, args?.role);
  if (!picked) return undefined;
  return openPreview(previews.uriFor({ view: "prompt", uri: target.uri, agent: picked.agent, role: picked.role, ...lineOf(target) }));
}

async function showEffectiveTools(languageClient: LanguageClient, previews: PreviewDocuments, args?: AgentCommandArgs): Promise<EffectiveToolsResult | undefined> {
  const target = targetOf(args);
  if (!target) return undefined;
  await languageClient.start();
  const query: PreviewQuery = { view: "tools", uri: target.uri, ...(args?.agent ? { agent: args.agent } : {}), ...(args?.role !== undefined ? { role: args.role } : {}), ...lineOf(target) };
  const result = await languageClient.sendRequest(EffectiveToolsRequest, { uri: target.uri, ...(query.agent ? { agent: query.agent } : {}), ...(query.role !== undefined ? { role: query.role } : {}), ...lineOf(target) });
  if (!result.available) {
    void vscode.window.showWarningMessage(`Agent Sandbox: ${result.reason}`);
    return result;
  }
  await openPreview(previews.uriFor(query));
  return result;
}

/** The markdown extension's command that renders a document beside the editor (built into VS Code, offline). */
const SHOW_RENDERED = "markdown.showPreviewToSide";

/**
 * Opens a preview document rendered (headings, tables) beside the editor: the markdown preview of the virtual
 * document, which re-renders when the document changes. Where the markdown extension is disabled, the markdown
 * text itself.
 */
async function openPreview(uri: vscode.Uri): Promise<vscode.Uri> {
  const document = await vscode.workspace.openTextDocument(uri);
  try {
    // Not looked up in getCommands first: that lists only the commands of extensions already active, and the
    // markdown extension activates on its command (the first preview of a session found it missing).
    await vscode.commands.executeCommand(SHOW_RENDERED, document.uri);
  } catch {
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  }
  return uri;
}

async function explainDecision(languageClient: LanguageClient, args?: ExplainArgs): Promise<ExplainResult | undefined> {
  const target = targetOf(args);
  if (!target) return undefined;
  const { uri } = target;
  const picked = await pickAgent(languageClient, target, args?.agent, false, null);
  if (!picked) return undefined;
  let operation = args?.operation;
  if (!operation) {
    // Which of the agent's tools each operation stands for, and whether it has any.
    const tools = await languageClient.sendRequest(EffectiveToolsRequest, { uri, agent: picked.agent, role: null, ...lineOf(target) });
    const item = await vscode.window.showQuickPick(operationItems(tools.tables[0]?.tools ?? []), { title: `Explain a decision for ${picked.agent}`, placeHolder: "Operation" });
    operation = item?.label;
  }
  if (!operation) return undefined;
  const path = args?.path ?? (await vscode.window.showInputBox(pathInputOptions(picked.agent, operation, picked.info.mountAt)));
  if (path === undefined) return undefined;
  const result = await languageClient.sendRequest(ExplainRequest, { uri, agent: picked.agent, operation, path, ...lineOf(target) });
  if (!result.available) {
    void vscode.window.showWarningMessage(`Agent Sandbox: ${result.reason}`);
    return result;
  }
  if (result.rule) {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(result.rule.location.uri));
    const target = languageClient.protocol2CodeConverter.asRange(result.rule.patternRange ?? result.rule.location.range);
    const editor = await vscode.window.showTextDocument(document, { preserveFocus: false });
    editor.selection = new vscode.Selection(target.start, target.end);
    editor.revealRange(target, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
  const show = result.decision === "deny" || result.decision === "error" ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void show(`${result.decision?.toUpperCase()}: ${result.summary}`);
  return result;
}
