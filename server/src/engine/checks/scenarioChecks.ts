import { checkConfigText, type CheckResult } from "../checkConfig";
import { findAgent } from "../agents/agents";
import { policyOf } from "../agents/effectiveTools";
import type { JsonNode } from "../config/parse";
import { jsoncFrontEnd } from "../config/jsoncFrontEnd";
import { FixRendering } from "../fixOperations";
import type { Finding } from "../diagnostics";
import { runScenario, type DryRunResult } from "../dryrun/runner";
import { scenarioOf } from "../dryrun/scenario";
import { memoryWorkspace } from "../workspace/source";
import { scenarioAgentUnknown } from "./scenarioAgentUnknown";
import { scenarioArgsInvalid } from "./scenarioArgsInvalid";
import type { ScenarioCheck, ScenarioCheckContext, ScenarioCheckOptions } from "./scenarioCheck";
import { scenarioConfigInvalid } from "./scenarioConfigInvalid";
import { scenarioConfigMissing } from "./scenarioConfigMissing";
import { scenarioExpectationFailed } from "./scenarioExpectationFailed";
import { scenarioRoleUnknown } from "./scenarioRoleUnknown";
import { scenarioToolUnknown } from "./scenarioToolUnknown";

/** The checks of `*.dryrun.jsonc` files beyond syntax and shape, in catalogue order. */
export const SCENARIO_CHECKS: readonly ScenarioCheck[] = [
  scenarioConfigMissing,
  scenarioConfigInvalid,
  scenarioAgentUnknown,
  scenarioRoleUnknown,
  scenarioToolUnknown,
  scenarioArgsInvalid,
  scenarioExpectationFailed,
];

/**
 * Every scenario check on one scenario file. Needs a host that can read the config (`options.readFile`); without
 * one (an unsaved file, a host that reads nothing) only the shape checks apply and this reports nothing.
 */
export function scenarioFindings(root: JsonNode, text: string, options: ScenarioCheckOptions): Finding[] {
  if (!options.readFile) return [];
  const scenario = scenarioOf(root);
  let config: ScenarioCheckContext["config"];
  if (scenario.config !== undefined && scenario.configNode) {
    const configText = options.readFile(scenario.config);
    let result: CheckResult | undefined;
    if (configText !== undefined) result = checkConfigText(configText, options.configAccess?.(scenario.config) ?? {});
    config = { path: scenario.config, node: scenario.configNode, text: configText, result };
  }
  const model = config?.result?.model;
  let ran: DryRunResult | undefined | null = null;
  const findings: Finding[] = [];
  // A scenario file is JSONC: its fixes are rendered by the JSONC front end.
  const rendering = new FixRendering(jsoncFrontEnd.renderer(text));
  for (const check of SCENARIO_CHECKS) {
    const context: ScenarioCheckContext = {
      text,
      root,
      scenario,
      config,
      model,
      run() {
        if (ran === null) {
          ran = undefined;
          // An unknown agent cannot run; an unknown role would only show DeerFlow denying everything (both are errors).
          const roleKnown = scenario.role === null || (model !== undefined && (policyOf(model)?.roles.includes(scenario.role) ?? false));
          if (model && findAgent(model, scenario.agent) && roleKnown && scenario.config !== undefined) {
            const wsRoot = model.workspace?.root?.value;
            const workspace = (wsRoot !== undefined ? options.workspace?.(scenario.config, wsRoot) : undefined) ?? memoryWorkspace({});
            ran = runScenario(model, scenario, workspace);
          }
        }
        return ran;
      },
      report({ fixes, ...f }) {
        findings.push({ ...f, code: check.code, severity: f.severity ?? check.severity, ...(fixes !== undefined ? { fixes: rendering.fixes(fixes) } : {}) });
      },
    };
    try {
      check.run(context);
    } catch (error) {
      // A check that fails says so instead of taking the file's other findings with it.
      findings.push({ code: "internal-error", severity: "error", message: `The ${check.code} check failed.`, detail: (error as Error).message, span: { start: 0, end: 0 } });
    }
  }
  return findings;
}
