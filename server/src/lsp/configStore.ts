/**
 * Document state: the analysis of every config and dry-run file the server knows (open documents from the editor,
 * closed ones from disk), cached per version and settings, with the cross-file inputs each one read, the settings
 * resolved per resource (vscode-eslint: never kept in server globals), and the sample workspaces hovers list.
 */
import { readFile, readdir } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";
import type { Connection, TextDocuments } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { ConfigModel } from "../engine/config/model";
import { SEVERITIES, type Severity } from "../engine/diagnostics";
import { RUNTIME_IDS, type RuntimeId } from "../engine/runtime";
import {
  analyze,
  analyzeFirstPhase,
  completeWith,
  failedSecondPhase,
  fileKindOf,
  fileKindOfLanguage,
  toVirtualPath,
  type Analysis,
  type AnalysisSettings,
  type FileKind,
  type SampleWorkspace,
  type SecondPhaseResult,
} from "./engineFacade";
import type { ExactPhase } from "./exactPhase";
import { URI } from "./uri";
import { withoutByteOrderMark } from "../engine/text";
import { loadLanguage, mayCallRuntime, sourceLanguageOf } from "../engine/sources";
import { scenarioConfigLanguage } from "../engine/configReference";
import { grammarFiles } from "../host/grammarFiles";

/** The `agentSandbox` settings section (package.json `contributes.configuration`). */
export interface ServerSettings {
  defaultRuntime?: string;
  severities?: Record<string, string>;
  /** `agentSandbox.ruleAnalysis`: the exact rule-order analysis (default on in the editor). */
  ruleAnalysis?: boolean;
}

const LEVELS: readonly string[] = [...SEVERITIES, "off"];

export function toAnalysisSettings(raw: ServerSettings | null | undefined): AnalysisSettings {
  const severities: Record<string, Severity | "off"> = {};
  for (const [code, level] of Object.entries(raw?.severities ?? {})) if (LEVELS.includes(level)) severities[code] = level as Severity | "off";
  const settings: AnalysisSettings = { severities, analysis: raw?.ruleAnalysis !== false };
  const runtime = raw?.defaultRuntime;
  if (runtime && (RUNTIME_IDS as readonly string[]).includes(runtime) && runtime !== "deepagents-js") settings.defaultRuntime = runtime as RuntimeId;
  return settings;
}

interface CacheEntry {
  version: number;
  settingsKey: string;
  /** The first phase's analysis, replaced by the complete one when the second phase is done. */
  analysis: Analysis;
  /** The second phase: the complete analysis, or `undefined` when it was dropped (a newer text or setting). */
  complete?: Promise<Analysis | undefined>;
}

/** The editor's two phases (server.ts): where the second runs, and who hears that it is done. */
export interface SecondPhase {
  runner: ExactPhase;
  completed(uri: string, analysis: Analysis): void;
}

/** Where an unsaved document's relative inputs would be: a folder that does not exist, so none are found. */
const UNSAVED_FOLDER = resolve("/nonexistent-unsaved-agent-sandbox");
const SAMPLE_FILE_LIMIT = 2000;
const SAMPLE_DEPTH_LIMIT = 16;

export class ConfigStore {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly settings = new Map<string, Promise<AnalysisSettings>>();
  private readonly samples = new Map<string, Promise<SampleWorkspace>>();
  /** Versions of closed files read from disk: bumped on every watcher event so caches never serve stale text. */
  private readonly diskVersions = new Map<string, number>();
  private readonly diskText = new Map<string, string>();

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly canPullConfiguration: () => boolean,
    /** Without it, every analysis is complete at once (`analyze`). */
    private readonly secondPhase?: SecondPhase,
  ) {}

  private initialSettings: ServerSettings | undefined;

  /** Settings from `initializationOptions`, for clients that cannot answer workspace/configuration. */
  useInitialSettings(settings: ServerSettings | undefined): void {
    this.initialSettings = settings;
    this.settings.clear();
  }

  /** Settings for one file, resolved for its folder (multi-root workspaces can differ per folder). */
  settingsFor(uri: string): Promise<AnalysisSettings> {
    let pending = this.settings.get(uri);
    if (!pending) {
      pending = this.canPullConfiguration()
        ? this.connection.workspace.getConfiguration({ scopeUri: uri, section: "agentSandbox" }).then(
            (raw: ServerSettings | null) => toAnalysisSettings(raw ?? this.initialSettings),
            () => toAnalysisSettings(this.initialSettings),
          )
        : Promise.resolve(toAnalysisSettings(this.initialSettings));
      this.settings.set(uri, pending);
    }
    return pending;
  }

  clearSettings(): void {
    this.settings.clear();
  }

  /** The editor's text of an open file, by absolute path (a scenario runs against its config as the editor has it). */
  readonly openText = (fsPath: string): string | undefined => {
    for (const document of this.documents.all()) if (URI.toFsPath(document.uri) === fsPath) return document.getText();
    return undefined;
  };

  isOpen(uri: string): boolean {
    return this.documents.get(uri) !== undefined;
  }

  /** The current analysis of a file: the open document's text, else the file on disk. `undefined`: not ours or unreadable. */
  async analysisOf(uri: string): Promise<Analysis | undefined> {
    const document = this.documents.get(uri);
    const target = this.targetOf(uri);
    if (!target) return undefined;
    const { fsPath, kind } = target;
    const settings = await this.settingsFor(uri);
    let text: string;
    let version: number;
    if (document) {
      text = document.getText();
      version = document.version;
    } else {
      const disk = await this.readDisk(uri, fsPath);
      if (disk === undefined) return undefined;
      text = disk.text;
      version = -disk.version;
    }
    // A source file's grammar is loaded the first time an open file names the runtime (never at start-up).
    if (kind === "source") {
      const language = sourceLanguageOf(fsPath);
      if (language && mayCallRuntime(text)) await loadLanguage(language, grammarFiles);
    }
    // So is the grammar of a source file that a scenario names as its config.
    if (kind === "dry-run") {
      const language = scenarioConfigLanguage(text);
      if (language) await loadLanguage(language, grammarFiles);
    }
    // The document may have changed while settings were resolved: answer for the text as it is now.
    const now = this.documents.get(uri);
    if (now && now.version !== version) return this.analysisOf(uri);
    return this.analysisFor(uri, fsPath, text, version, settings, kind);
  }

  /**
   * Whether a file is ours, and where its relative inputs are read from: by file name (config-format.md), or by
   * language id for a file the user associated with the language, or an unsaved one (no inputs on disk then).
   */
  targetOf(uri: string): { fsPath: string; kind: FileKind } | undefined {
    const fsPath = URI.toFsPath(uri);
    const byName = fsPath ? fileKindOf(fsPath) : undefined;
    if (fsPath && byName) return { fsPath, kind: byName };
    const document = this.documents.get(uri);
    // An open TypeScript, JavaScript or Python document, by its name (never from disk: the workspace scan leaves
    // source files alone).
    if (document && fsPath && sourceLanguageOf(fsPath)) return { fsPath, kind: "source" };
    const byLanguage = document ? fileKindOfLanguage(document.languageId) : undefined;
    if (!byLanguage) return undefined;
    return { fsPath: fsPath ?? resolve(UNSAVED_FOLDER, byLanguage === "config" ? "agent-sandbox.jsonc" : "scenario.dryrun.jsonc"), kind: byLanguage };
  }

  /** Synchronous variant for an open document whose settings are already known (hot paths: hover, completion). */
  analysisFor(uri: string, fsPath: string, text: string, version: number, settings: AnalysisSettings, kind: FileKind): Analysis {
    const settingsKey = JSON.stringify(settings);
    const cached = this.cache.get(uri);
    if (cached && cached.version === version && cached.settingsKey === settingsKey && cached.analysis.text === text) return cached.analysis;
    const analysis = this.secondPhase ? analyzeFirstPhase(fsPath, text, settings, kind, this.openText) : analyze(fsPath, text, settings, kind, false, this.openText);
    const entry: CacheEntry = { version, settingsKey, analysis };
    this.cache.set(uri, entry);
    if (analysis.exact === "pending") entry.complete = this.startSecondPhase(uri, entry, fsPath, settings, kind);
    else this.secondPhase?.runner.cancel(uri);
    return analysis;
  }

  private async startSecondPhase(uri: string, entry: CacheEntry, fsPath: string, settings: AnalysisSettings, kind: FileKind): Promise<Analysis | undefined> {
    const first = entry.analysis;
    // The files open in the editor that the first phase read go along: the worker has no editor to ask.
    const openTexts: Record<string, string> = {};
    for (const dependency of first.dependencies) {
      const open = this.openText(dependency);
      if (open !== undefined) openTexts[dependency] = open;
    }
    // A large scenario's static checks come first (progress): shown at once, while its run goes on.
    const progress = (checked: SecondPhaseResult) => {
      if (this.cache.get(uri) !== entry) return;
      entry.analysis = { ...completeWith(first, checked), exact: "pending", scenarioPending: "run" };
      this.secondPhase!.completed(uri, entry.analysis);
    };
    const result = await this.secondPhase!.runner.run(
      uri,
      { fsPath, text: first.text, settings, kind, ...(Object.keys(openTexts).length ? { openTexts } : {}), ...(first.scenarioPending ? { scenarioPart: first.scenarioPending } : {}) },
      first.scenarioPending === "checks-and-run" ? progress : undefined,
    );
    // Dropped, or finished for a text or settings that are no longer current.
    if (!result || this.cache.get(uri) !== entry) return undefined;
    entry.analysis = result.ok ? completeWith(first, result) : failedSecondPhase(first, result.error);
    this.secondPhase!.completed(uri, entry.analysis);
    return entry.analysis;
  }

  /**
   * The current analysis with the second phase's findings in, waiting for them (pull clients that cannot be asked
   * to pull again). When the text changes meanwhile, it follows the newest text.
   */
  async completeAnalysisOf(uri: string): Promise<Analysis | undefined> {
    let analysis: Analysis | undefined;
    // Each round waits for one second phase; a text that keeps changing is followed a bounded number of times.
    for (let round = 0; round < 20; round++) {
      analysis = await this.analysisOf(uri);
      if (analysis?.exact !== "pending") return analysis;
      const entry = this.cache.get(uri);
      const complete = entry?.analysis === analysis ? await entry.complete : undefined;
      if (complete) return complete;
    }
    return analysis;
  }

  /** A file's text as the editor has it: the open document's, else the disk's as last read (until it changes). */
  async textOf(uri: string, fsPath: string): Promise<string | undefined> {
    return this.documents.get(uri)?.getText() ?? (await this.readDisk(uri, fsPath))?.text;
  }

  private async readDisk(uri: string, fsPath: string): Promise<{ text: string; version: number } | undefined> {
    const version = this.diskVersions.get(uri) ?? 0;
    let text = this.diskText.get(uri);
    if (text === undefined) {
      try {
        text = withoutByteOrderMark(await readFile(fsPath, "utf8"));
      } catch {
        return undefined;
      }
      this.diskText.set(uri, text);
    }
    return { text, version };
  }

  /** A file changed on disk: forget what was read of it. */
  diskChanged(uri: string): void {
    this.diskVersions.set(uri, (this.diskVersions.get(uri) ?? 0) + 1);
    this.diskText.delete(uri);
    if (!this.isOpen(uri)) {
      this.cache.delete(uri);
      this.secondPhase?.runner.cancel(uri);
    }
  }

  forget(uri: string): void {
    this.cache.delete(uri);
    this.secondPhase?.runner.cancel(uri);
    this.diskText.delete(uri);
    this.settings.delete(uri);
  }

  /** The files whose last analysis read `fsPath` (or something inside it, or a folder listing that holds it). */
  dependents(fsPath: string): string[] {
    const out: string[] = [];
    for (const [uri, entry] of this.cache) {
      for (const dep of entry.analysis.dependencies) {
        if (dep === fsPath || dep.startsWith(fsPath + sep) || fsPath.startsWith(dep + sep)) {
          out.push(uri);
          break;
        }
      }
    }
    return out;
  }

  /**
   * The scenarios whose analysis read `fsPath` (their config) with another text than `text`, its text now (`null`:
   * it cannot be read): those that an edit of the config, or its closing, changes.
   */
  scenariosReadingOtherwise(fsPath: string, text: string | null): string[] {
    const out: string[] = [];
    for (const [uri, entry] of this.cache) {
      const read = entry.analysis.readTexts;
      if (read && Object.hasOwn(read, fsPath) && read[fsPath] !== text) out.push(uri);
    }
    return out;
  }

  /** Drop a cached analysis so that the next request re-checks (its inputs changed, not its text). */
  invalidate(uri: string): void {
    this.cache.delete(uri);
    this.secondPhase?.runner.cancel(uri);
  }

  /** Every absolute path some cached analysis depends on, plus sample workspace roots: what the watchers follow. */
  watchedInputs(): string[] {
    const paths = new Set<string>();
    for (const entry of this.cache.values()) for (const d of entry.analysis.dependencies) paths.add(d);
    for (const root of this.samples.keys()) paths.add(root);
    return [...paths].sort();
  }

  // -------------------------------------------------------------------------------------------------------------
  // Sample workspace (hovers, completion)
  // -------------------------------------------------------------------------------------------------------------

  sampleWorkspaceOf(model: ConfigModel, uri: string): Promise<SampleWorkspace> | undefined {
    const fsPath = URI.toFsPath(uri);
    const root = model.workspace?.root?.value;
    if (!fsPath || !model.workspace || root === undefined) return undefined;
    const rootPath = resolve(dirname(fsPath), root);
    const key = `${rootPath}\u0000${model.workspace.mountAt}`;
    let pending = this.samples.get(key);
    if (!pending) {
      pending = listSample(rootPath, model.workspace.mountAt);
      this.samples.set(key, pending);
    }
    return pending;
  }

  /** A file event under a sample root makes its listing stale. */
  sampleChanged(fsPath: string): boolean {
    let any = false;
    for (const key of [...this.samples.keys()]) {
      const root = key.split("\u0000")[0]!;
      if (fsPath === root || fsPath.startsWith(root + sep)) {
        this.samples.delete(key);
        any = true;
      }
    }
    return any;
  }
}

async function listSample(rootPath: string, mountAt: string): Promise<SampleWorkspace> {
  const sample: SampleWorkspace = { mountAt, files: [], folders: [], truncated: false };
  const walk = async (dir: string, relative: string, depth: number): Promise<void> => {
    if (depth > SAMPLE_DEPTH_LIMIT || sample.truncated) return;
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (sample.files.length + sample.folders.length >= SAMPLE_FILE_LIMIT) {
        sample.truncated = true;
        return;
      }
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name === ".git") continue;
        sample.folders.push(toVirtualPath(mountAt, rel));
        await walk(`${dir}${sep}${entry.name}`, rel, depth + 1);
      } else if (entry.isFile()) sample.files.push(toVirtualPath(mountAt, rel));
    }
  };
  await walk(rootPath, "", 0);
  return sample;
}
