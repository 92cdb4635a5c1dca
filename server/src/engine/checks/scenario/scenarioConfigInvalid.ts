import { spanOf } from "../../config/parse";
import type { ScenarioCheck } from "../scenarioCheck";

/**
 * A config with errors is one the runtime refuses (or one that cannot mean anything): the dry run still runs it as
 * written, so its answers describe an agent that would never be built. Said once, on `config`.
 */
export const scenarioConfigInvalid: ScenarioCheck = {
  code: "scenario-config-invalid",
  severity: "warning",
  summary: "The named config has errors: the dry run uses a config the runtime would refuse.",
  run(context) {
    const config = context.config;
    if (!config?.result) return;
    const errors = config.result.findings.filter((f) => f.severity === "error");
    if (!context.model) {
      context.report({
        message: "The named config is not a configuration the dry run can use.",
        detail: `${config.path}: ${config.result.findings[0]?.message ?? "it has no content"}`,
        span: spanOf(config.node),
      });
      return;
    }
    if (errors.length === 0) return;
    const first = errors[0]!;
    const at = config.result.lines.positionAt(first.span.start);
    context.report({
      message: "The named config has errors; the dry run uses it as written.",
      detail: `${config.path} has ${errors.length} error(s); the first, at line ${at.line + 1}: ${first.message} (${first.code}). The runtime would refuse or misread this config, so the dry run's answers describe an agent that would not be built as written.`,
      span: spanOf(config.node),
    });
  },
};
