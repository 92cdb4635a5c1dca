/**
 * The capability map in the editor: for one config, agent and role, a badge and a colour on every sample file and
 * folder in the Explorer (a FileDecorationProvider), and the Capability Map view (a tree of the sample workspace
 * with both decisions per entry). The answer comes from the language server (the capabilityMap request: the
 * engine's map); this file only shows it, maps the virtual paths to the real files under `workspace.root`, and
 * asks again when the config, its check, or the sample files change.
 */
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { AgentsRequest, CapabilityMapRequest, type CapabilityMapResult } from "../../server/src/protocol";
import { mapLooks, type EntryLook } from "./capabilityMapData";
import { MAP_VIEW, SOURCE_LANGUAGES } from "./constants";

const CONFIG_GLOB = "**/{agent-sandbox.jsonc,agent-sandbox.json,*.agent-sandbox.jsonc,*.agent-sandbox.json}";
const EXCLUDED = "**/{node_modules,.git}/**";
/** Config files offered by Choose Config at most (a workspace with more is searched no further). */
const CONFIG_SEARCH_LIMIT = 200;
const NO_ROLE = "(no role)";

/** What Show Capability Map takes; every field is optional (the current choice stays). */
export interface MapArgs {
  /** A config, or a source file that calls the runtime (its map is the sample workspace of a scenario naming the call). */
  uri?: string;
  agent?: string;
  role?: string | null;
  /** A source file's call (protocol.ts `line`). */
  line?: number;
}

/** What the map shows now, for tests and the commands' callers. */
export interface MapState {
  config?: string;
  agent: string;
  role: string | null;
  available: boolean;
  reason?: string;
  entries: number;
  truncated: boolean;
}

export class CapabilityMap implements vscode.TreeDataProvider<EntryLook>, vscode.FileDecorationProvider, vscode.Disposable {
  private config: vscode.Uri | undefined;
  /** When the mapped file is a source file: the line of its call (protocol.ts `line`). */
  private line: number | undefined;
  /** Chosen with Choose Config (or a command's `uri`): the active editor no longer moves the map to its config. */
  private pinned = false;
  private agent = "main";
  private role: string | null = null;
  private result: CapabilityMapResult | undefined;
  /** The config whose map is on screen (the last one that answered with a map). */
  private shownFor: string | undefined;
  private root: vscode.Uri | undefined;
  private looks = new Map<string, EntryLook>();
  private children = new Map<string, EntryLook[]>();
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<MapState> | undefined;
  private sampleWatcher: { key: string; watcher: vscode.FileSystemWatcher } | undefined;
  private readonly treeChanged = new vscode.EventEmitter<EntryLook | undefined>();
  private readonly decorationsChanged = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.treeChanged.event;
  readonly onDidChangeFileDecorations = this.decorationsChanged.event;
  private readonly view: vscode.TreeView<EntryLook>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly client: LanguageClient,
    private readonly ready: Promise<void>,
  ) {
    this.view = vscode.window.createTreeView(MAP_VIEW, { treeDataProvider: this, showCollapseAll: true });
    const configs = vscode.workspace.createFileSystemWatcher(CONFIG_GLOB);
    const configEvent = (uri: vscode.Uri) => {
      if (!this.config || uri.toString() === this.config.toString()) this.schedule();
    };
    this.disposables.push(
      this.view,
      this.treeChanged,
      this.decorationsChanged,
      vscode.window.registerFileDecorationProvider(this),
      configs,
      configs.onDidChange(configEvent),
      configs.onDidCreate(configEvent),
      configs.onDidDelete((uri) => {
        // The mapped config is gone: map whichever config is found next (the user's pin goes with the file).
        if (uri.toString() === this.config?.toString()) {
          this.config = undefined;
          this.pinned = false;
        }
        this.schedule();
      }),
      vscode.window.onDidChangeActiveTextEditor((editor) => this.follow(editor)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("agentSandbox")) this.schedule();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.schedule()),
    );
    this.follow(vscode.window.activeTextEditor);
    this.schedule(0);
  }

  /** A check of `uri` finished (the session hears it from the server): the map of that config may have changed. */
  configChecked(uri: string): void {
    if (this.config?.toString() === uri) this.schedule();
  }

  /** How the map shows a real file or folder (the Explorer's decoration is made of it). */
  lookAt(uri: vscode.Uri): EntryLook | undefined {
    return this.looks.get(uri.toString());
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const look = this.lookAt(uri);
    if (!look) return undefined;
    return new vscode.FileDecoration(look.badge, look.tooltip, new vscode.ThemeColor(look.colorId));
  }

  getTreeItem(look: EntryLook): vscode.TreeItem {
    const item = new vscode.TreeItem(look.name, look.kind === "dir" ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    const uri = this.uriOf(look);
    item.id = look.relative;
    item.resourceUri = uri;
    item.description = look.description;
    item.tooltip = look.tooltip;
    if (look.kind === "file") item.command = { command: "vscode.open", title: "Open", arguments: [uri] };
    return item;
  }

  getChildren(look?: EntryLook): EntryLook[] {
    return this.children.get(look ? look.relative : "") ?? [];
  }

  getParent(look: EntryLook): EntryLook | undefined {
    const slash = look.relative.lastIndexOf("/");
    if (slash < 0) return undefined;
    const parent = look.relative.slice(0, slash);
    return this.children.get(parent.includes("/") ? parent.slice(0, parent.lastIndexOf("/")) : "")?.find((l) => l.relative === parent);
  }

  /** Show Capability Map: take what `args` names, show the view, and answer once the map is there. */
  async show(args?: MapArgs): Promise<MapState> {
    // Run with no file from a source file's editor: the call under the cursor.
    const active = vscode.window.activeTextEditor;
    const fromSource = !args?.uri && active && SOURCE_LANGUAGES.includes(active.document.languageId) ? active : undefined;
    if (args?.uri || fromSource) {
      this.config = args?.uri ? vscode.Uri.parse(args.uri) : fromSource!.document.uri;
      this.line = args?.uri ? args.line : fromSource!.selection.active.line;
      this.pinned = true;
    }
    if (args?.agent !== undefined) this.agent = args.agent;
    if (args?.role !== undefined) this.role = args.role;
    void vscode.commands.executeCommand(`${MAP_VIEW}.focus`).then(undefined, () => undefined);
    return this.refresh();
  }

  async chooseAgent(agent?: string): Promise<MapState | undefined> {
    const chosen = agent ?? (await this.pick("agents", "Agent", "Whose capabilities?"));
    if (chosen === undefined) return undefined;
    this.agent = chosen;
    return this.refresh();
  }

  async chooseRole(role?: string | null): Promise<MapState | undefined> {
    let chosen = role;
    if (chosen === undefined) {
      const picked = await this.pick("roles", "Role", "As which role?");
      if (picked === undefined) return undefined;
      chosen = picked === NO_ROLE ? null : picked;
    }
    this.role = chosen;
    return this.refresh();
  }

  async chooseConfig(uri?: string): Promise<MapState | undefined> {
    let chosen = uri ? vscode.Uri.parse(uri) : undefined;
    if (!chosen) {
      const files = (await vscode.workspace.findFiles(CONFIG_GLOB, EXCLUDED, CONFIG_SEARCH_LIMIT)).sort((a, b) => (a.path < b.path ? -1 : 1));
      if (files.length === 0) {
        void vscode.window.showInformationMessage("Agent Sandbox: no agent-sandbox.jsonc in this workspace. Create one with Agent Sandbox: Create Sample Config.");
        return undefined;
      }
      const picked = await vscode.window.showQuickPick(
        files.map((f) => ({ label: vscode.workspace.asRelativePath(f), uri: f })),
        { title: "Capability map of which config?" },
      );
      chosen = picked?.uri;
    }
    if (!chosen) return undefined;
    this.config = chosen;
    this.line = undefined;
    this.pinned = true;
    return this.refresh();
  }

  /** Ask the server for the map now (a later call wins; an earlier answer that arrives late is dropped). */
  refresh(): Promise<MapState> {
    clearTimeout(this.timer);
    this.current = this.load(++this.generation);
    return this.current;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.sampleWatcher?.watcher.dispose();
    for (const d of this.disposables) d.dispose();
  }

  // ---------------------------------------------------------------------------------------------------------------

  private schedule(delayMs = 300): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh().catch(() => undefined), delayMs);
  }

  /** A config opened in an editor becomes the mapped one, unless the user pinned another. */
  private follow(editor: vscode.TextEditor | undefined): void {
    if (this.pinned || editor?.document.languageId !== "agent-sandbox" || editor.document.uri.scheme !== "file") return;
    if (this.config?.toString() === editor.document.uri.toString()) return;
    this.config = editor.document.uri;
    this.line = undefined;
    this.schedule(0);
  }

  private async load(generation: number): Promise<MapState> {
    if (!this.config) {
      const [first] = (await vscode.workspace.findFiles(CONFIG_GLOB, EXCLUDED, CONFIG_SEARCH_LIMIT)).sort((a, b) => (a.path < b.path ? -1 : 1));
      if (generation !== this.generation) return this.current!;
      this.config = first;
      this.line = undefined;
    }
    if (!this.config) return this.apply(undefined, "No Agent Sandbox config in this workspace.");
    await this.ready;
    let result = await this.request(this.config);
    // The config lost the chosen agent or role (an edit, another config): back to the main agent with no role.
    if (!result.available && ((result.agents.length > 0 && !result.agents.includes(this.agent)) || (this.role !== null && !result.roles.includes(this.role)))) {
      this.agent = result.agents.includes(this.agent) ? this.agent : "main";
      this.role = this.role !== null && result.roles.includes(this.role) ? this.role : null;
      result = await this.request(this.config);
    }
    if (generation !== this.generation) return this.current!;
    // Half-typed text that does not parse (no agents at all) keeps the last map of the same config on screen, so
    // that the Explorer does not flicker while the user types; the view says why it is not current.
    if (!result.available && result.agents.length === 0 && this.result && this.shownFor === this.config.toString()) {
      this.view.message = `${result.reason} The map shows the config as it last parsed.`;
      return this.stateOf(this.result, result.reason);
    }
    return this.apply(result, result.reason);
  }

  private request(config: vscode.Uri): Promise<CapabilityMapResult> {
    return this.client.sendRequest(CapabilityMapRequest, { uri: config.toString(), agent: this.agent, role: this.role, ...(this.line !== undefined ? { line: this.line } : {}) });
  }

  private apply(result: CapabilityMapResult | undefined, reason: string | undefined): MapState {
    this.result = result?.available ? result : undefined;
    this.root = result?.rootUri ? vscode.Uri.parse(result.rootUri) : undefined;
    this.looks = new Map();
    this.children = new Map();
    if (this.result && this.root) {
      const { looks, children } = mapLooks(this.result);
      this.children = children;
      for (const look of looks) this.looks.set(this.uriOf(look).toString(), look);
    }
    this.watchSample();
    const name = this.config ? this.config.path.split("/").at(-1) : undefined;
    this.view.description = name ? `${this.agent}${this.role !== null ? ` as ${this.role}` : ""} · ${name}` : "";
    this.view.message = !this.result ? reason : result?.truncated ? `The map stops after ${result.entries.length} entries.` : undefined;
    void vscode.commands.executeCommand("setContext", "agentSandbox.mapState", !this.config ? "noConfig" : this.result ? "ok" : "unavailable");
    this.shownFor = this.result ? this.config?.toString() : undefined;
    this.decorationsChanged.fire(undefined);
    this.treeChanged.fire(undefined);
    return this.stateOf(this.result, reason);
  }

  private stateOf(shown: CapabilityMapResult | undefined, reason: string | undefined): MapState {
    return {
      ...(this.config ? { config: this.config.toString() } : {}),
      agent: this.agent,
      role: this.role,
      available: !!shown,
      ...(reason !== undefined ? { reason } : {}),
      entries: this.looks.size,
      truncated: !!shown?.truncated,
    };
  }

  /** A file created or deleted under the sample folder changes the map (a change of content does not). */
  private watchSample(): void {
    const key = this.root?.toString() ?? "";
    if (this.sampleWatcher?.key === key) return;
    this.sampleWatcher?.watcher.dispose();
    this.sampleWatcher = undefined;
    if (!this.root) return;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.root, "**"), false, true, false);
    watcher.onDidCreate(() => this.schedule());
    watcher.onDidDelete(() => this.schedule());
    this.sampleWatcher = { key, watcher };
  }

  private uriOf(look: EntryLook): vscode.Uri {
    return vscode.Uri.joinPath(this.root!, ...look.relative.split("/"));
  }

  private async pick(what: "agents" | "roles", title: string, placeHolder: string): Promise<string | undefined> {
    let names = this.result ? this.result[what] : undefined;
    if (!names && this.config) {
      await this.ready;
      const info = await this.client.sendRequest(AgentsRequest, { uri: this.config.toString(), ...(this.line !== undefined ? { line: this.line } : {}) });
      names = info[what];
    }
    if (what === "roles") {
      if (!names?.length) {
        void vscode.window.showInformationMessage("Agent Sandbox: this config has no authorization roles.");
        return undefined;
      }
      names = [NO_ROLE, ...names];
    }
    if (!names?.length) return undefined;
    return vscode.window.showQuickPick(names, { title, placeHolder });
  }
}
