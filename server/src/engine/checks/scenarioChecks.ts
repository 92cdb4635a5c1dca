import type { CheckResult } from "../checkConfig";
import { checkConfigReference, configReference } from "../configReference";
import { findAgent } from "../agents/agents";
import { policyOf } from "../agents/effectiveTools";
import type { JsonNode } from "../config/parse";
import { jsoncFrontEnd } from "../config/jsoncFrontEnd";
import { FixRendering } from "../fixOperations";
import type { Finding } from "../diagnostics";
import { runScenario, type DryRunResult } from "../dryrun/runner";
import { scenarioOf, type ScenarioFile } from "../dryrun/scenario";
import { AnalysisCancelled, throwIfCancelled } from "../cancellation";
import { memoryWorkspace } from "../workspace/source";
import { scenarioAgentUnknown } from "./scenario/scenarioAgentUnknown";
import { scenarioArgsInvalid } from "./scenario/scenarioArgsInvalid";
import type { ScenarioCheck, ScenarioCheckContext, ScenarioCheckOptions } from "./scenarioCheck";
import { scenarioConfigInvalid } from "./scenario/scenarioConfigInvalid";
import { scenarioConfigMissing } from "./scenario/scenarioConfigMissing";
import { scenarioExpectationFailed } from "./scenario/scenarioExpectationFailed";
import { scenarioRoleUnknown } from "./scenario/scenarioRoleUnknown";
import { scenarioRunStopped } from "./scenario/scenarioRunStopped";
import { scenarioToolUnknown } from "./scenario/scenarioToolUnknown";

/** The checks of `*.dryrun.jsonc` files beyond syntax and shape, in catalogue order. */
export const SCENARIO_CHECKS: readonly ScenarioCheck[] = [
  scenarioConfigMissing,
  scenarioConfigInvalid,
  scenarioAgentUnknown,
  scenarioRoleUnknown,
  scenarioToolUnknown,
  scenarioArgsInvalid,
  scenarioExpectationFailed,
  scenarioRunStopped,
];

/** What the scenario checks found, and what they ran. */
export interface ScenarioCheckOutcome {
  findings: Finding[];
  scenario: ScenarioFile;
  /** The scenario can run: its config reads as a model that has its agent (and its role, when it names one). */
  runnable: boolean;
  /** The run the checks made (only in the `run` part or the whole check, and when the scenario can run). */
  run: DryRunResult | undefined;
}

/**
 * Every scenario check on one scenario file (or one part's, `options.phase`; the `shape` part has none). Needs a host that can read the
 * config (`options.readFile`); without one (an unsaved file, a host that reads nothing) only the shape checks apply
 * and this reports nothing.
 */
export function scenarioFindings(root: JsonNode, text: string, options: ScenarioCheckOptions): ScenarioCheckOutcome {
  const scenario = scenarioOf(root);
  // The shape part is the file's syntax and schema (checkDryRun.ts): it reads no config.
  if (!options.readFile || options.phase === "shape") return { findings: [], scenario, runnable: false, run: undefined };
  let config: ScenarioCheckContext["config"];
  if (scenario.config !== undefined && scenario.configNode) {
    // A source file's call is a config too (`agent.ts`, `agent.ts:12`): its file is read, the call picked.
    const reference = configReference(scenario.config);
    const configText = options.readFile(reference.file);
    let result: CheckResult | undefined;
    if (configText !== undefined) result = checkConfigReference(reference, configText, options.configAccess?.(reference.file) ?? {});
    config = { path: scenario.config, node: scenario.configNode, text: configText, result };
  }
  const model = config?.result?.model;
  // An unknown agent cannot run; an unknown role would only show DeerFlow denying everything (both are errors).
  const roleKnown = scenario.role === null || (model !== undefined && (policyOf(model)?.roles.includes(scenario.role) ?? false));
  const runnable = !!model && !!findAgent(model, scenario.agent) && roleKnown && scenario.config !== undefined;
  // Only the run part runs the scenario (the static parts never do, whatever a check asks).
  const mayRun = options.phase === undefined || options.phase === "run" || options.phase === "checks-and-run";
  let ran: DryRunResult | undefined | null = null;
  const run = (): DryRunResult | undefined => {
    if (ran === null) {
      ran = undefined;
      if (runnable && mayRun) {
        const wsRoot = model!.workspace?.root?.value;
        const workspace = (wsRoot !== undefined ? options.workspace?.(configReference(scenario.config!).file, wsRoot) : undefined) ?? memoryWorkspace({});
        ran = runScenario(model!, scenario, workspace);
      }
    }
    return ran;
  };
  const findings: Finding[] = [];
  // A scenario file is JSONC: its fixes are rendered by the JSONC front end.
  const rendering = new FixRendering(jsoncFrontEnd.renderer(text));
  const statics = options.phase === "run" ? [] : SCENARIO_CHECKS.filter((c) => !c.needsRun);
  const runs = mayRun ? SCENARIO_CHECKS.filter((c) => c.needsRun) : [];
  // The static checks first: a host may show their findings before the run's (`onStaticChecked`).
  for (const check of [...statics, ...runs]) {
    if (check === runs[0]) options.onStaticChecked?.([...findings], runnable);
    // A host that stopped this check (the language server's worker: a newer text came) hears it between checks.
    throwIfCancelled();
    const context: ScenarioCheckContext = {
      text,
      root,
      scenario,
      config,
      model,
      run,
      report({ fixes, ...f }) {
        findings.push({ ...f, code: check.code, severity: f.severity ?? check.severity, ...(fixes !== undefined ? { fixes: rendering.fixes(fixes) } : {}) });
      },
    };
    try {
      check.run(context);
    } catch (error) {
      // A run the host stopped (the language server's worker: a newer text came) ends the whole check.
      if (error instanceof AnalysisCancelled) throw error;
      // A check that fails says so instead of taking the file's other findings with it.
      findings.push({ code: "internal-error", severity: "error", message: `The ${check.code} check failed.`, detail: (error as Error).message, span: { start: 0, end: 0 } });
    }
  }
  return { findings, scenario, runnable, run: mayRun ? run() : undefined };
}
