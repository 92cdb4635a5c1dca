import dryRunSchema from "../../../schemas/dryrun.schema.json";
import type { CheckOptions } from "./checkConfig";
import { parseJsonc } from "./config/parse";
import { SchemaValidator, type Schema } from "./config/schemaValidator";
import type { Finding } from "./diagnostics";
import { finishFindings } from "./suppressions";
import { LineIndex } from "./text";

const validator = new SchemaValidator(dryRunSchema as unknown as Schema);

export interface DryRunCheckResult {
  /** Finished as a config's are: severities and `agent-sandbox-ignore` comments applied, in file order. */
  findings: Finding[];
  lines: LineIndex;
}

/**
 * Check a `*.dryrun.jsonc` scenario: the one entry point every host uses for this kind of file, as
 * `checkConfigText` is for configs. Today its syntax and shape; checks that run the scenario add their findings
 * here, before they are finished. `options` are a config check's: file access relative to the scenario (for the
 * config it names), the severity overrides (applied here, so no host applies them itself) and the default runtime.
 */
export function checkDryRunText(text: string, options: CheckOptions = {}): DryRunCheckResult {
  const lines = new LineIndex(text);
  const parsed = parseJsonc(text);
  const findings = [...parsed.findings];
  if (parsed.root) findings.push(...validator.validate(parsed.root));
  return { findings: finishFindings(findings, text, lines, options.severities), lines };
}
