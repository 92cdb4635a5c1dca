import dryRunSchema from "../../../schemas/dryrun.schema.json";
import { scenarioFindings } from "./checks/scenarioChecks";
import type { ScenarioCheckOptions } from "./checks/scenarioCheck";
import { parseJsonc } from "./config/parse";
import { SchemaValidator, type Schema } from "./config/schemaValidator";
import type { Finding } from "./diagnostics";
import { LineIndex } from "./text";

const validator = new SchemaValidator(dryRunSchema as unknown as Schema);

/**
 * Syntax and shape of a `*.dryrun.jsonc` scenario and, when the host can read the config it names, the scenario
 * checks (checks/scenarioChecks.ts: config, agent, role, tools, arguments, and the run's expectations).
 */
export function checkDryRunText(text: string, options: ScenarioCheckOptions = {}): { findings: Finding[]; lines: LineIndex } {
  const lines = new LineIndex(text);
  const parsed = parseJsonc(text);
  const findings = [...parsed.findings];
  if (parsed.root) findings.push(...validator.validate(parsed.root));
  if (parsed.root && !parsed.findings.some((f) => f.code === "json-syntax")) findings.push(...scenarioFindings(parsed.root, text, options));
  return { findings: findings.sort((a, b) => a.span.start - b.span.start), lines };
}
