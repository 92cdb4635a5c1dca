/**
 * The VS Code client's entry. Activation only registers what must exist at once (the three commands, the preview
 * scheme) and returns; the language client itself (session.ts: vscode-languageclient, the server process, the
 * language status, the commands' work) is loaded and started on the next turn of the event loop, bundled apart as
 * dist/client-session.js, so that activating the extension costs almost nothing. A command run before the session
 * is there waits for it.
 */
import * as vscode from "vscode";
import { Commands } from "../../server/src/commands";
import type { AgentCommandArgs, DidCheckParams, ScenarioRunParams } from "../../server/src/protocol";
import { ClientCommands, PREVIEW_SCHEME } from "./constants";
import type { MapArgs } from "./capabilityMap";
import type { CreateSampleArgs } from "./sample";
import type { ExplainArgs, Session } from "./session";
import type { ScenarioTests } from "./testing";

export interface AgentSandboxApi {
  /** Settles when the language client is loaded and the server has answered `initialize`. */
  ready: Promise<void>;
  /** How long `activate` took, in milliseconds (the language client loads and the server starts afterwards). */
  activationMs: number;
  /** The last check of each file, as the server reported it (the language status item shows it). */
  lastCheck(uri: string): DidCheckParams | undefined;
  /** The capability map's decoration of a file or folder in the Explorer (undefined: none, or not loaded yet). */
  mapDecoration(uri: string): { badge?: string; tooltip?: string; color?: string } | undefined;
  /** Test Explorer's scenarios (testing.ts), once the session is loaded. */
  scenarioTests: Promise<ScenarioTests>;
}

let session: Promise<Session> | undefined;

export function activate(context: vscode.ExtensionContext): AgentSandboxApi {
  const started = performance.now();
  const previewChanged = new vscode.EventEmitter<vscode.Uri>();
  let loaded: Session | undefined;
  const current = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
    // build.mjs bundles ./session apart (dist/client-session.js); under a TypeScript loader this is session.ts.
    const { Session } = require("./session") as typeof import("./session");
    loaded = new Session(context, previewChanged);
    return loaded;
  });
  session = current;
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
  /** A handler that runs once the session is there. */
  const withSession =
    <A extends unknown[], R>(run: (s: Session, ...args: A) => R | Thenable<R>) =>
    async (...args: A): Promise<R> =>
      run(await current, ...args);

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
    { dispose: () => void current.then((s) => s.dispose(), () => undefined) },
  );
  // Shows the Capability Map view (package.json `when`), also in a folder without a config yet.
  void vscode.commands.executeCommand("setContext", "agentSandbox.active", true);
  const mapDecoration = (uri: string) => {
    const look = loaded?.capabilityMap.lookAt(vscode.Uri.parse(uri));
    return look && { badge: look.badge, tooltip: look.tooltip, color: look.colorId };
  };
  return { ready, activationMs: performance.now() - started, lastCheck: (uri) => loaded?.lastCheck(uri), mapDecoration, scenarioTests };
}

export function deactivate(): Thenable<void> | undefined {
  return session?.then((s) => s.stop(), () => undefined);
}
