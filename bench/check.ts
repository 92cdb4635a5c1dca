/**
 * Section 2: `check` of a whole config, in process, against VS Code's own JSON support on the same text.
 *
 *  ours     `checkConfigText(text)`: JSONC parse with ranges, our schema, the model, every check, suppressions.
 *  vscode   vscode-json-languageservice: `parseJSONDocument` + `doValidation` with our schema associated to the
 *           file (what VS Code does for any JSON file with a schema, and nothing more).
 *
 * Each side gets a few copies of the text that differ only in one digit of the first comment, used in turn, so a
 * cache keyed by the text could not turn the comparison into a lookup on either side.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getLanguageService, TextDocument, type LanguageService } from "vscode-json-languageservice";
import { checkConfigText } from "../server/src/engine/checkConfig";
import { generateConfigText } from "./generate";
import { cpuNowMs, measureAsyncInterleaved, type Measured, type RoundOptions } from "./measure";

const ROOT = join(__dirname, "..");
export const SCHEMA_PATH = join(ROOT, "schemas", "agent-sandbox.schema.json");
export const SCHEMA = JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as { $id?: string };
export const SCHEMA_URI = SCHEMA.$id ?? "https://agent-sandbox.dev/schemas/agent-sandbox.schema.json";
export const CONFIG_URI = "file:///bench/agent-sandbox.jsonc";

export function vscodeJsonService(): LanguageService {
  const service = getLanguageService({
    // The schema is given inline; nothing may be fetched.
    schemaRequestService: (uri) => Promise.reject(new Error(`bench: no schema request expected (${uri})`)),
  });
  service.configure({
    validate: true,
    allowComments: true,
    schemas: [{ uri: SCHEMA_URI, fileMatch: ["*agent-sandbox.jsonc"], schema: SCHEMA as never }],
  });
  return service;
}

export interface CheckResultRow {
  ruleCount: number;
  bytes: number;
  lines: number;
  /** `undefined` when ours was not run at this size (see `oursSkipped`). */
  ourFindings: number | undefined;
  theirDiagnostics: number;
  /** `undefined` when ours was too slow to run at this size at all. */
  ours: Measured | undefined;
  /**
   * Why ours was not timed in rounds: `once` (one cold call, its time in `ms`) or `estimate` (not run; `ms` is a
   * lower bound extrapolated linearly from the previous size).
   */
  oursSkipped?: { kind: "once" | "estimate"; reason: string; ms: number };
  vscode: Measured;
}

/** A single call slower than this is reported as measured once (cold), not repeated in rounds. */
const ONE_CALL_ONLY_MS = 6_000;

const VARIANTS = 4;

/**
 * `skipOursAboveMs`: when the caller's estimate of one call of ours (from the previous size) is above this, ours is
 * not run at this size at all, so a slow engine cannot hold the bench for minutes; the estimate is reported as a
 * lower bound.
 */
export async function benchCheck(ruleCount: number, options: RoundOptions, estimate?: { ms: number; from: string }, skipOursAboveMs = 30_000): Promise<CheckResultRow> {
  const base = generateConfigText(ruleCount, 1000 + ruleCount, SCHEMA_URI);
  const texts = Array.from({ length: VARIANTS }, (_, i) => base.replace("(generated", `(generated ${i}`));
  const service = vscodeJsonService();
  const settings = { comments: "ignore", trailingCommas: "ignore" } as const;

  const theirs = async (text: string) => {
    const document = TextDocument.create(CONFIG_URI, "jsonc", 1, text);
    const json = service.parseJSONDocument(document);
    const diagnostics = await service.doValidation(document, json, settings);
    return diagnostics.length;
  };
  const ours = (text: string) => checkConfigText(text).findings.length;

  const row = { ruleCount, bytes: Buffer.byteLength(base), lines: base.split("\n").length };
  let i = 0;
  let j = 0;
  const oursContender = { name: "ours", run: () => ours(texts[i++ % VARIANTS]!) };
  const vscodeContender = { name: "vscode", run: () => theirs(texts[j++ % VARIANTS]!) };
  // Theirs resolves the schema on first use; and both must produce an answer before anything is timed.
  const theirDiagnostics = await theirs(base);

  if (estimate && estimate.ms > skipOursAboveMs) {
    const [vscode] = await measureAsyncInterleaved([vscodeContender], options);
    const reason = `not run: ${estimate.from}, so one call here would take at least ~${Math.round(estimate.ms / 1000)} s`;
    return { ...row, ourFindings: undefined, theirDiagnostics, ours: undefined, oursSkipped: { kind: "estimate", reason, ms: estimate.ms }, vscode: vscode! };
  }
  const t0 = cpuNowMs();
  const ourFindings = ours(base);
  const firstMs = cpuNowMs() - t0;
  if (firstMs > ONE_CALL_ONLY_MS) {
    const [vscode] = await measureAsyncInterleaved([vscodeContender], options);
    const reason = `one cold call took ${(firstMs / 1000).toFixed(1)} s (CPU): measured once, not in rounds`;
    return { ...row, ourFindings, theirDiagnostics, ours: undefined, oursSkipped: { kind: "once", reason, ms: firstMs }, vscode: vscode! };
  }
  const measured = await measureAsyncInterleaved([oursContender, vscodeContender], options);
  return {
    ...row,
    ourFindings,
    theirDiagnostics,
    ours: measured.find((m) => m.name === "ours")!,
    vscode: measured.find((m) => m.name === "vscode")!,
  };
}
