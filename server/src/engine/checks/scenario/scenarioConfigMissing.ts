import { spanOf } from "../../config/parse";
import type { ScenarioCheck } from "../scenarioCheck";

/** A scenario runs against the config it names: without one nothing can run, and nothing it expects is checked. */
export const scenarioConfigMissing: ScenarioCheck = {
  code: "scenario-config-missing",
  severity: "error",
  summary: "The config a scenario names cannot be read: the scenario cannot run.",
  run(context) {
    const config = context.config;
    if (!config || config.text !== undefined) return;
    context.report({
      message: "The config this scenario names cannot be read.",
      detail: `No readable file at ${JSON.stringify(config.path)}, relative to this scenario. The scenario cannot run, and none of its expectations is checked.`,
      span: spanOf(config.node),
    });
  },
};
