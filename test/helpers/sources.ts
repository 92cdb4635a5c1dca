import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { grammarFiles } from "../../server/src/host/grammarFiles";
import type { CheckOptions } from "../../server/src/engine/checkConfig";
import { checkSourceText, loadLanguage, sourceLanguageOf, type SourceLanguage } from "../../server/src/engine/sources";

/** Loads the three grammars (for a `before` hook: loading is asynchronous, checking is not). */
export async function loadGrammars(): Promise<void> {
  for (const language of ["typescript", "tsx", "python"] as const) await loadLanguage(language, grammarFiles);
}

export const SOURCE_FIXTURES = join(__dirname, "../sources/fixtures");

export interface SourceFixture {
  name: string;
  file: string;
  language: SourceLanguage;
  source: string;
  /** The equivalent agent-sandbox.jsonc. */
  config: string;
  /** Codes only the source can give (`// source only: a, b` on the config's first line). */
  sourceOnly: string[];
}

export function sourceFixtures(folder: "ts" | "py"): SourceFixture[] {
  const dir = join(SOURCE_FIXTURES, folder);
  return readdirSync(dir)
    .filter((f) => sourceLanguageOf(f) !== undefined)
    .sort()
    .map((file) => {
      const name = file.replace(/\.[^.]+$/, "");
      const config = readFileSync(join(dir, `${name}.agent-sandbox.jsonc`), "utf8");
      const sourceOnly = /^\/\/ source only: (.*)$/m.exec(config)?.[1]?.split(/,\s*/) ?? [];
      return { name, file: join(dir, file), language: sourceLanguageOf(file)!, source: readFileSync(join(dir, file), "utf8"), config, sourceOnly };
    });
}

export function checkSource(text: string, language: SourceLanguage, options: CheckOptions = {}) {
  return checkSourceText(text, language, { analysis: true, ...options });
}
