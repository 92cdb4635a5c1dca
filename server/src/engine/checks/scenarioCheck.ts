import type { CheckOptions, CheckResult } from "../checkConfig";
import type { ConfigModel } from "../config/model";
import type { JsonNode } from "../config/parse";
import type { Finding, Severity } from "../diagnostics";
import type { ModelFix } from "../fixOperations";
import type { DryRunResult } from "../dryrun/runner";
import type { ScenarioFile } from "../dryrun/scenario";
import type { WorkspaceSource } from "../workspace/source";

/** A part of a scenario's check (`ScenarioCheckOptions.phase`). */
export type ScenarioPhase = "static" | "run" | "shape" | "checks" | "checks-and-run";

/** What a host gives the scenario checks: files relative to the scenario, and the sample workspace. */
export interface ScenarioCheckOptions {
  /** Reads a file relative to the scenario's folder (`undefined` when it cannot be read). */
  readFile?: (relativePath: string) => string | undefined;
  /** File access relative to the named config, for the config's own inputs (a prompt file, skills). */
  configAccess?: (configPath: string) => Pick<CheckOptions, "fileExists" | "readFile" | "listDirectory">;
  /** The sample workspace: the config's path (relative to the scenario) and `workspace.root` as written. */
  workspace?: (configPath: string, root: string) => WorkspaceSource | undefined;
  /**
   * Which checks run: all of them (the default, as `check` does), or one part of them, the parts being the file's
   * syntax and shape (`shape`), the scenario checks that do not run it (`checks`), and those that do (`run`,
   * `needsRun`); `static` is `shape` and `checks` together, `checks-and-run` the other two. Each check is in
   * exactly one part, so the parts' findings together are the whole check's. The language server checks a scenario
   * in these parts: a small one `static` at once and its `run` in the worker thread; a large one only its `shape`
   * at once, then its `checks-and-run` in the worker thread (the file parsed and its config checked once there),
   * the static checks' findings shown before the run's (`onStaticChecked`): an edit never waits for a long
   * scenario or a large config.
   */
  phase?: ScenarioPhase;
  /**
   * Where the static checks and the run are done together (the whole check, `checks-and-run`): called once the
   * static checks are done, before the scenario runs, with their findings and whether the scenario can run.
   */
  onStaticChecked?: (findings: Finding[], runnable: boolean) => void;
}

/** One scenario check = one code = one file = one page in docs/checks/<code>.md, like the config checks. */
export interface ScenarioCheck {
  readonly code: string;
  readonly severity: Severity;
  readonly summary: string;
  /** The check runs the scenario (`context.run()`): the language server's second phase, off its main thread. */
  readonly needsRun?: boolean;
  run(context: ScenarioCheckContext): void;
}

export interface ScenarioCheckContext {
  readonly text: string;
  readonly root: JsonNode;
  readonly scenario: ScenarioFile;
  /** The named config: `text` undefined when it cannot be read; `result` its check when it can. */
  readonly config: { path: string; node: JsonNode; text: string | undefined; result: CheckResult | undefined } | undefined;
  readonly model: ConfigModel | undefined;
  /** The scenario's run (once per check pass); `undefined` when it cannot run (no config, an unknown agent). */
  run(): DryRunResult | undefined;
  /** Files a finding; its fixes are operations on the scenario file's values, rendered as the config checks' are. */
  report(finding: Omit<Finding, "code" | "severity" | "fixes"> & { severity?: Severity; fixes?: ModelFix[] }): void;
}
