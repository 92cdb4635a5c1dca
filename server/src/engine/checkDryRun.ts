import dryRunSchema from "../../../schemas/dryrun.schema.json";
import type { CheckOptions } from "./checkConfig";
import { scenarioFindings } from "./checks/scenarioChecks";
import type { ScenarioCheckOptions } from "./checks/scenarioCheck";
import { jsoncFrontEnd } from "./config/jsoncFrontEnd";
import { parseJsonc } from "./config/parse";
import { SchemaValidator, type Schema } from "./config/schemaValidator";
import type { Finding } from "./diagnostics";
import { FixRendering } from "./fixOperations";
import type { DryRunResult } from "./dryrun/runner";
import type { ScenarioFile } from "./dryrun/scenario";
import { finishFindings } from "./suppressions";
import { LineIndex } from "./text";

const validator = new SchemaValidator(dryRunSchema as unknown as Schema);

export interface DryRunCheckResult {
  /** Finished as a config's are: severities and `agent-sandbox-ignore` comments applied, in file order. */
  findings: Finding[];
  lines: LineIndex;
  /** The scenario as read (absent when the file does not parse). */
  scenario?: ScenarioFile;
  /**
   * Whether the scenario can run (its config, agent and role exist); hosts that run it in a second phase ask. Not
   * known in the `shape` part, which reads no config (false there).
   */
  runnable: boolean;
  /** The run the checks made, when they ran it (only in the `run` part or the whole check). */
  run?: DryRunResult;
}

/** A config check's options (severities, default runtime) plus what the scenario checks need to run the scenario. */
export type DryRunCheckOptions = Pick<CheckOptions, "severities" | "defaultRuntime"> & ScenarioCheckOptions;

/**
 * Check a `*.dryrun.jsonc` scenario: the one entry point every host uses for this kind of file, as
 * `checkConfigText` is for configs. Its syntax and shape and, when the host can read the config it names, the
 * scenario checks (checks/scenarioChecks.ts: config, agent, role, tools, arguments, and the run's expectations).
 * Severity overrides and `agent-sandbox-ignore` comments are applied here, so no host applies them itself.
 */
export function checkDryRunText(text: string, options: DryRunCheckOptions = {}): DryRunCheckResult {
  const lines = new LineIndex(text);
  const parsed = parseJsonc(text);
  // Syntax and shape are the `shape` part's (in `static` and the whole check too); the `checks` and `run` parts
  // report only what their checks find (the parts together are exactly the whole check, which `check` prints).
  const withShape = options.phase === undefined || options.phase === "static" || options.phase === "shape";
  const findings = withShape ? [...parsed.findings] : [];
  // A scenario file is JSONC: the JSONC front end renders the schema's fixes.
  const fixes = new FixRendering(jsoncFrontEnd.renderer(text));
  if (parsed.root && withShape) for (const f of validator.validate(parsed.root)) findings.push(fixes.finding(f));
  const result: DryRunCheckResult = { findings, lines, runnable: false };
  if (parsed.root && !parsed.findings.some((f) => f.code === "json-syntax")) {
    // The static findings handed on early are finished as the whole list is.
    const onStaticChecked = options.onStaticChecked;
    const checked = scenarioFindings(parsed.root, text, onStaticChecked ? { ...options, onStaticChecked: (found, runnable) => onStaticChecked(finishFindings([...findings, ...found], text, lines, options.severities), runnable) } : options);
    findings.push(...checked.findings);
    result.scenario = checked.scenario;
    result.runnable = checked.runnable;
    if (checked.run) result.run = checked.run;
  }
  result.findings = finishFindings(findings, text, lines, options.severities);
  return result;
}
