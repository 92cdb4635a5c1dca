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
import { measureAsyncInterleaved, type Measured, type RoundOptions } from "./measure";

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
  ourFindings: number;
  theirDiagnostics: number;
  ours: Measured;
  vscode: Measured;
}

const VARIANTS = 4;

export async function benchCheck(ruleCount: number, options: RoundOptions): Promise<CheckResultRow> {
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

  // Both must have seen the schema (theirs resolves it on first use) and produced an answer.
  const ourFindings = ours(base);
  const theirDiagnostics = await theirs(base);

  let i = 0;
  let j = 0;
  const measured = await measureAsyncInterleaved(
    [
      { name: "ours", run: () => ours(texts[i++ % VARIANTS]!) },
      { name: "vscode", run: () => theirs(texts[j++ % VARIANTS]!) },
    ],
    options,
  );
  return {
    ruleCount,
    bytes: Buffer.byteLength(base),
    lines: base.split("\n").length,
    ourFindings,
    theirDiagnostics,
    ours: measured.find((m) => m.name === "ours")!,
    vscode: measured.find((m) => m.name === "vscode")!,
  };
}
