/**
 * The VS Code client: starts the language server (dist/server.js over IPC) and adds what only an editor can do:
 * read-only preview documents, pickers, jumping to the deciding rule, the language status item. It holds no
 * semantics: every answer comes from the server, through the requests declared in ../../server/src/protocol.ts.
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
  type AgentCommandArgs,
  type DidCheckParams,
  type EffectiveToolsResult,
  type ExplainResult,
} from "../../server/src/protocol";

const LANGUAGES = ["agent-sandbox", "agent-sandbox-dryrun"];
const PREVIEW_SCHEME = "agent-sandbox-preview";

export interface AgentSandboxApi {
  client: LanguageClient;
  /** Settles when the server has answered `initialize`. */
  ready: Promise<void>;
  /** How long `activate` took, in milliseconds (the server starts in the background). */
  activationMs: number;
  /** The last check of each file, as the server reported it (the language status item shows it). */
  lastCheck(uri: string): DidCheckParams | undefined;
}

let client: LanguageClient | undefined;

export function activate(context: vscode.ExtensionContext): AgentSandboxApi {
  const started = performance.now();
  const serverModule = context.asAbsolutePath("dist/server.js");
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ["--nolazy", "--inspect=6019"] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: LANGUAGES.map((language) => ({ language })),
    diagnosticPullOptions: { onChange: true, onSave: true },
    // Hovers link to the prompt preview and the explain command; only our own commands are trusted.
    markdown: { isTrusted: { enabledCommands: Object.values(Commands) }, supportHtml: false },
  };
  const languageClient = new LanguageClient("agentSandbox", "Agent Sandbox", serverOptions, clientOptions);
  client = languageClient;

  const checks = new Map<string, DidCheckParams>();
  const previews = new PreviewDocuments(languageClient);
  const status = vscode.languages.createLanguageStatusItem("agentSandbox.status", LANGUAGES.map((language) => ({ language })));
  status.name = "Agent Sandbox";
  status.text = "Agent Sandbox";
  status.detail = "starting…";
  status.command = { title: "Effective tools", command: Commands.showEffectiveTools };
  const showStatus = (editor: vscode.TextEditor | undefined) => {
    const check = editor && checks.get(editor.document.uri.toString());
    if (!check) return;
    status.text = check.runtime ?? (check.kind === "dry-run" ? "Dry-run scenario" : "Agent Sandbox");
    const problems = check.counts.errors + check.counts.warnings + check.counts.information + check.counts.hints;
    const skipped = check.skipped?.length ? ` · ${check.skipped.length} not analysed exactly (${check.skipped[0]!.what}: ${check.skipped[0]!.why})` : "";
    status.detail = `checked in ${check.durationMs} ms · ${problems} finding${problems === 1 ? "" : "s"}${skipped}`;
    status.severity = check.counts.errors > 0 ? vscode.LanguageStatusSeverity.Error : skipped ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
  };
  languageClient.onNotification(DidCheckNotification, (params) => {
    checks.set(params.uri, params);
    if (vscode.window.activeTextEditor?.document.uri.toString() === params.uri) showStatus(vscode.window.activeTextEditor);
    previews.configChanged(params.uri);
  });

  context.subscriptions.push(
    status,
    previews,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    vscode.window.onDidChangeActiveTextEditor(showStatus),
    vscode.commands.registerCommand(Commands.previewPrompt, (args?: AgentCommandArgs) => previewPrompt(languageClient, previews, args)),
    vscode.commands.registerCommand(Commands.showEffectiveTools, (args?: AgentCommandArgs) => showEffectiveTools(languageClient, previews, args)),
    vscode.commands.registerCommand(Commands.explainDecision, (args?: AgentCommandArgs & { operation?: "read" | "write"; path?: string }) => explainDecision(languageClient, args)),
    { dispose: () => void languageClient.stop() },
  );
  const ready = languageClient.start();
  ready.catch((error) => void vscode.window.showErrorMessage(`Agent Sandbox: the language server did not start (${(error as Error).message}).`));
  return { client: languageClient, ready, activationMs: performance.now() - started, lastCheck: (uri) => checks.get(uri) };
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}

// -----------------------------------------------------------------------------------------------------------------
// Read-only preview documents (prompt preview, effective tools) that follow the config as it changes
// -----------------------------------------------------------------------------------------------------------------

interface PreviewQuery {
  view: "prompt" | "tools";
  uri: string;
  agent?: string;
  role?: string | null;
}

class PreviewDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly open = new Map<string, vscode.Uri>();

  constructor(private readonly languageClient: LanguageClient) {}

  uriFor(query: PreviewQuery): vscode.Uri {
    const config = vscode.Uri.parse(query.uri);
    const name = config.path.split("/").at(-1) ?? "config";
    const who = `${query.agent ?? "all agents"}${query.role ? ` as ${query.role}` : ""}`;
    const title = query.view === "prompt" ? `Prompt preview - ${who} - ${name}.md` : `Effective tools - ${who} - ${name}.md`;
    return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${title}`, query: JSON.stringify(query) });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const query = JSON.parse(uri.query) as PreviewQuery;
    this.open.set(uri.toString(), uri);
    await this.languageClient.start();
    if (query.view === "prompt") {
      const result = await this.languageClient.sendRequest(PromptPreviewRequest, { uri: query.uri, agent: query.agent ?? "main", role: query.role ?? null });
      return result.markdown;
    }
    const result = await this.languageClient.sendRequest(EffectiveToolsRequest, { uri: query.uri, ...(query.agent ? { agent: query.agent } : {}), ...(query.role !== undefined ? { role: query.role } : {}) });
    return result.markdown;
  }

  /** A check of the config finished: every open preview of it is re-rendered. */
  configChanged(configUri: string): void {
    for (const [key, uri] of this.open) {
      if (!vscode.workspace.textDocuments.some((d) => d.uri.toString() === key)) {
        this.open.delete(key);
        continue;
      }
      if ((JSON.parse(uri.query) as PreviewQuery).uri === configUri) this.changed.fire(uri);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

// -----------------------------------------------------------------------------------------------------------------
// Commands
// -----------------------------------------------------------------------------------------------------------------

function configUriOf(args: AgentCommandArgs | undefined): string | undefined {
  if (args?.uri) return args.uri;
  const document = vscode.window.activeTextEditor?.document;
  if (document && document.languageId === "agent-sandbox") return document.uri.toString();
  void vscode.window.showInformationMessage("Agent Sandbox: open an agent-sandbox.jsonc file first.");
  return undefined;
}

async function pickAgent(languageClient: LanguageClient, uri: string, agent: string | undefined, withRole: boolean, role: string | null | undefined) {
  await languageClient.start();
  const info = await languageClient.sendRequest(AgentsRequest, { uri });
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
  const uri = configUriOf(args);
  if (!uri) return undefined;
  const picked = await pickAgent(languageClient, uri, args?.agent, true, args?.role);
  if (!picked) return undefined;
  return openPreview(previews.uriFor({ view: "prompt", uri, agent: picked.agent, role: picked.role }));
}

async function showEffectiveTools(languageClient: LanguageClient, previews: PreviewDocuments, args?: AgentCommandArgs): Promise<EffectiveToolsResult | undefined> {
  const uri = configUriOf(args);
  if (!uri) return undefined;
  await languageClient.start();
  const query: PreviewQuery = { view: "tools", uri, ...(args?.agent ? { agent: args.agent } : {}), ...(args?.role !== undefined ? { role: args.role } : {}) };
  const result = await languageClient.sendRequest(EffectiveToolsRequest, { uri, ...(query.agent ? { agent: query.agent } : {}), ...(query.role !== undefined ? { role: query.role } : {}) });
  if (!result.available) {
    void vscode.window.showWarningMessage(`Agent Sandbox: ${result.reason}`);
    return result;
  }
  await openPreview(previews.uriFor(query));
  return result;
}

async function openPreview(uri: vscode.Uri): Promise<vscode.Uri> {
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  return uri;
}

async function explainDecision(languageClient: LanguageClient, args?: AgentCommandArgs & { operation?: "read" | "write"; path?: string }): Promise<ExplainResult | undefined> {
  const uri = configUriOf(args);
  if (!uri) return undefined;
  const picked = await pickAgent(languageClient, uri, args?.agent, false, null);
  if (!picked) return undefined;
  const operation = args?.operation ?? ((await vscode.window.showQuickPick(["read", "write"], { title: `Explain a decision for ${picked.agent}`, placeHolder: "Operation" })) as "read" | "write" | undefined);
  if (!operation) return undefined;
  const mount = picked.info.mountAt ? `${picked.info.mountAt.replace(/\/$/, "")}/` : "/";
  const path =
    args?.path ??
    (await vscode.window.showInputBox({ title: `Explain: ${operation} by ${picked.agent}`, prompt: "The path the tool is called with", value: mount, valueSelection: [mount.length, mount.length] }));
  if (path === undefined) return undefined;
  const result = await languageClient.sendRequest(ExplainRequest, { uri, agent: picked.agent, operation, path });
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
