import dryRunSchema from "../../../schemas/dryrun.schema.json";
import { parseJsonc } from "./config/parse";
import { SchemaValidator, type Schema } from "./config/schemaValidator";
import type { Finding } from "./diagnostics";
import { LineIndex } from "./text";

const validator = new SchemaValidator(dryRunSchema as unknown as Schema);

/** Syntax and shape of a `*.dryrun.jsonc` scenario (running it is the dry-run engine's job). */
export function checkDryRunText(text: string): { findings: Finding[]; lines: LineIndex } {
  const lines = new LineIndex(text);
  const parsed = parseJsonc(text);
  const findings = [...parsed.findings];
  if (parsed.root) findings.push(...validator.validate(parsed.root));
  return { findings: findings.sort((a, b) => a.span.start - b.span.start), lines };
}
