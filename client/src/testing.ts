/**
 * Test Explorer for dry-run scenarios: each `*.dryrun.jsonc` / `*.dryrun.json` file of the workspace is a test, each
 * of its steps a child (a `task` step's own steps under it), placed on the step so that "Go to test" lands there.
 * Running one asks the language server (`agentSandbox/runScenario`), which runs the scenario with the engine as
 * `agent-sandbox dry-run` does, against the config as the editor has it: the client runs nothing itself. A failing
 * step shows the outcome it expected and the one the run gave; the run's transcript is the test output. Continuous
 * runs re-run a scenario when it or its config changes.
 *
 * Loaded with the session after activation (build.mjs bundles it apart, as dist/client-testing.js).
 */
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { ScenarioRunRequest, type ScenarioRunResult, type ScenarioStepRun } from "../../server/src/protocol";

const SCENARIO_GLOB = "**/*.dryrun.{jsonc,json}";
const CONFIG_GLOB = "**/*agent-sandbox.{jsonc,json}";
const SCENARIO_NAME = /\.dryrun\.jsonc?$/;
/** After an edit, the lists of steps and continuous runs wait this long for the typing to stop. */
const SETTLE_MS = 300;

/** An item's state after the last run that reached it (the e2e suite reads these: VS Code's API does not expose results). */
export interface ScenarioTestOutcome {
  state: "passed" | "failed" | "errored" | "skipped";
  message?: string;
  expected?: string;
  actual?: string;
}

export class ScenarioTests implements vscode.Disposable {
  readonly controller: vscode.TestController;
  /** The one run profile: runs, and runs continuously. */
  readonly profile: vscode.TestRunProfile;
  readonly lastOutcomes = new Map<string, ScenarioTestOutcome>();
  /** Fires with the URI of a scenario or config that changed (in the editor or on disk). */
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** The config each scenario named at its last run or listing, by scenario URI. */
  private readonly configOf = new Map<string, string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly client: LanguageClient) {
    const controller = vscode.tests.createTestController("agentSandbox.scenarios", "Agent Sandbox scenarios");
    this.controller = controller;
    controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
      else await this.list(item);
    };
    controller.refreshHandler = () => this.discover();
    const profile = controller.createRunProfile("Run scenario", vscode.TestRunProfileKind.Run, (request, token) => this.runHandler(request, token), true, undefined, true);
    this.profile = profile;
    const scenarios = vscode.workspace.createFileSystemWatcher(SCENARIO_GLOB);
    const configs = vscode.workspace.createFileSystemWatcher(CONFIG_GLOB);
    this.disposables.push(
      controller,
      profile,
      this.changed,
      scenarios,
      configs,
      scenarios.onDidCreate((uri) => void this.list(this.fileItem(uri))),
      scenarios.onDidChange((uri) => this.settle(uri)),
      scenarios.onDidDelete((uri) => controller.items.delete(uri.toString())),
      configs.onDidChange((uri) => this.changed.fire(uri)),
      vscode.workspace.onDidOpenTextDocument((document) => {
        if (SCENARIO_NAME.test(document.uri.path)) void this.list(this.fileItem(document.uri));
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        const uri = event.document.uri;
        if (SCENARIO_NAME.test(uri.path)) this.settle(uri);
        else if (event.contentChanges.length > 0) this.changed.fire(uri);
      }),
    );
    // Scenarios already open get their steps (and gutter icons) without waiting for the Testing view.
    for (const document of vscode.workspace.textDocuments) if (SCENARIO_NAME.test(document.uri.path)) void this.list(this.fileItem(document.uri));
  }

  /** Every scenario file of the workspace, listed (their steps come when each is expanded or run). */
  async discover(): Promise<void> {
    const found = await vscode.workspace.findFiles(SCENARIO_GLOB, "**/node_modules/**");
    const keep = new Set(found.map((u) => u.toString()));
    this.controller.items.forEach((item) => {
      if (!keep.has(item.id)) this.controller.items.delete(item.id);
    });
    for (const uri of found) this.fileItem(uri);
  }

  /** A scenario changed: its steps are listed again once the typing stops, and continuous runs hear of it. */
  private settle(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        const item = this.controller.items.get(key);
        if (item) void this.list(item);
      }, SETTLE_MS),
    );
    this.changed.fire(uri);
  }

  private fileItem(uri: vscode.Uri): vscode.TestItem {
    const existing = this.controller.items.get(uri.toString());
    if (existing) return existing;
    const item = this.controller.createTestItem(uri.toString(), vscode.workspace.asRelativePath(uri), uri);
    item.canResolveChildren = true;
    this.controller.items.add(item);
    return item;
  }

  /** Asks the server for the scenario's steps (and their results, which list() leaves for run()). */
  private async fetch(item: vscode.TestItem): Promise<ScenarioRunResult> {
    await this.client.start();
    const result = await this.client.sendRequest(ScenarioRunRequest, { uri: item.id });
    if (result.configUri) this.configOf.set(item.id, result.configUri);
    else this.configOf.delete(item.id);
    syncSteps(this.controller, item, result.steps, this.client);
    item.error = result.available ? undefined : result.reason;
    return result;
  }

  private async list(item: vscode.TestItem): Promise<void> {
    item.busy = true;
    try {
      await this.fetch(item);
    } catch (error) {
      item.error = (error as Error).message;
    } finally {
      item.busy = false;
    }
  }

  private async runHandler(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    if (!request.continuous) return this.run(request, token);
    // Continuous: every change to a scenario in scope, or to its config, runs that scenario again.
    const inScope = (file: vscode.TestItem) => !request.include || request.include.some((i) => rootOf(i) === file);
    const pending = new Set<vscode.TestItem>();
    let timer: NodeJS.Timeout | undefined;
    const listener = this.changed.event((uri) => {
      const key = uri.toString();
      this.controller.items.forEach((file) => {
        if (inScope(file) && (file.id === key || this.configOf.get(file.id) === key)) pending.add(file);
      });
      if (pending.size === 0) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const files = [...pending];
        pending.clear();
        void this.run(new vscode.TestRunRequest(files, request.exclude, request.profile, true), token);
      }, SETTLE_MS);
    });
    await new Promise<void>((resolve) =>
      token.onCancellationRequested(() => {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      }),
    );
  }

  /** Runs the scenarios the request names (a step runs its whole scenario: steps depend on the ones before). */
  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const files = new Set<vscode.TestItem>();
    if (request.include) for (const item of request.include) files.add(rootOf(item));
    else this.controller.items.forEach((item) => void files.add(item));
    const excluded = new Set(request.exclude ?? []);
    const run = this.controller.createTestRun(request, undefined, true);
    try {
      for (const file of files) {
        if (token.isCancellationRequested) break;
        if (excluded.has(file)) continue;
        // What the request names, and everything under it, gets a result.
        const wanted = (item: vscode.TestItem) => !request.include || request.include.some((i) => isWithin(item, i));
        run.started(file);
        let result: ScenarioRunResult;
        try {
          result = await this.fetch(file);
        } catch (error) {
          this.report(run, file, "errored", new vscode.TestMessage((error as Error).message));
          continue;
        }
        if (result.transcript) run.appendOutput(result.transcript.replace(/\r?\n/g, "\r\n"), undefined, file);
        const location = (range: vscode.Range) => new vscode.Location(file.uri!, range);
        for (const step of flatten(result.steps)) {
          const item = findStep(file, step.id);
          if (!item || excluded.has(item) || !wanted(item)) continue;
          const r = step.result;
          if (!r) this.report(run, item, "skipped");
          else if (r.passed === false) {
            const message = failureMessage(step);
            message.location = location(this.client.protocol2CodeConverter.asRange(step.expectRange ?? step.range));
            this.report(run, item, "failed", message);
          } else this.report(run, item, "passed");
        }
        if (!wanted(file)) continue;
        if (!result.available || !result.ran) this.report(run, file, "errored", new vscode.TestMessage(result.reason ?? "The scenario cannot run."));
        else if (result.passed) this.report(run, file, "passed");
        else {
          const failed = flatten(result.steps).filter((s) => s.result?.passed === false).length;
          this.report(run, file, "failed", new vscode.TestMessage(`${failed} step${failed === 1 ? "" : "s"} did not meet ${failed === 1 ? "its expectation" : "their expectations"}.`));
        }
      }
    } finally {
      run.end();
    }
  }

  private report(run: vscode.TestRun, item: vscode.TestItem, state: ScenarioTestOutcome["state"], message?: vscode.TestMessage): void {
    if (state === "passed") run.passed(item);
    else if (state === "skipped") run.skipped(item);
    else if (state === "failed") run.failed(item, message!);
    else run.errored(item, message!);
    const text = message ? (typeof message.message === "string" ? message.message : message.message.value) : undefined;
    this.lastOutcomes.set(item.id, {
      state,
      ...(text !== undefined ? { message: text } : {}),
      ...(message?.expectedOutput !== undefined ? { expected: message.expectedOutput } : {}),
      ...(message?.actualOutput !== undefined ? { actual: message.actualOutput } : {}),
    });
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * A failing step's message: where the outcome differs, the expected and the actual outcome side by side (a diff),
 * the actual one with the runtime's answer under it; where only the output check failed, the failure and the output.
 */
function failureMessage(step: ScenarioStepRun): vscode.TestMessage {
  const r = step.result!;
  const failure = r.failure ? `${r.failure[0]!.toUpperCase()}${r.failure.slice(1)}.` : "The step did not meet its expectation.";
  if (r.expected !== undefined && r.expected !== r.outcome) return vscode.TestMessage.diff(failure, r.expected, r.output ? `${r.outcomeText}\n\n${r.output}` : r.outcomeText);
  return new vscode.TestMessage(`${failure}\n\n${r.outcomeText}${r.output ? `\n\n${r.output}` : ""}`);
}

/** The scenario's steps as the item's children, each kept (with its results in the view) while its id stays. */
function syncSteps(controller: vscode.TestController, parent: vscode.TestItem, steps: readonly ScenarioStepRun[], client: LanguageClient): void {
  const items: vscode.TestItem[] = [];
  steps.forEach((step, i) => {
    const id = `${parent.uri!.toString()}#${step.id}`;
    const item = parent.children.get(id) ?? controller.createTestItem(id, "", parent.uri);
    item.label = `${i + 1}. ${step.label}`;
    item.range = client.protocol2CodeConverter.asRange(step.range);
    item.description = step.result ? step.result.outcomeText : undefined;
    syncSteps(controller, item, step.steps ?? [], client);
    items.push(item);
  });
  parent.children.replace(items);
}

function flatten(steps: readonly ScenarioStepRun[]): ScenarioStepRun[] {
  return steps.flatMap((s) => [s, ...flatten(s.steps ?? [])]);
}

function findStep(file: vscode.TestItem, stepId: string): vscode.TestItem | undefined {
  const parts = stepId.split("/");
  let item: vscode.TestItem | undefined = file;
  for (let depth = 1; depth <= parts.length && item; depth++) item = item.children.get(`${file.id}#${parts.slice(0, depth).join("/")}`);
  return item;
}

function rootOf(item: vscode.TestItem): vscode.TestItem {
  let root = item;
  while (root.parent) root = root.parent;
  return root;
}

function isWithin(item: vscode.TestItem, ancestor: vscode.TestItem): boolean {
  for (let at: vscode.TestItem | undefined = item; at; at = at.parent) if (at === ancestor) return true;
  return false;
}
