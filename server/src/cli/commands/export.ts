import { flag, oneOf, UsageError, type ParsedArgs } from "../args";
import { later } from "../later";
import { loadModel } from "../loadModel";
import type { Io } from "../stdio";

const LANGUAGES = ["ts", "py"] as const;
/** What people write for the two languages, each taken as a likely slip for its short name. */
const LANGUAGE_WORDS: Record<string, (typeof LANGUAGES)[number]> = { typescript: "ts", javascript: "ts", js: "ts", tsx: "ts", mjs: "ts", python: "py", python3: "py" };

/**
 * `agent-sandbox export CONFIG --to ts|py`: the `createDeepAgent` / `create_deep_agent` call the config describes,
 * with its imports, on stdout. A config with errors is still exported as written (the exported code then fails
 * or behaves as the runtime would with that config); a note on stderr and exit code 1 say so, as for `tools`.
 */
export function exportCode(args: ParsedArgs, io: Io): number {
  const format = oneOf(flag(args, "format"), ["text", "json"] as const, "format", "text");
  const to = languageOf(flag(args, "to"));
  const loaded = loadModel(args, io, "export");
  if (!loaded) return 2;
  const { exportConfig } = require("../../engine/export/exportConfig") as typeof import("../../engine/export/exportConfig");
  const { displayPath } = later.files();
  const code = exportConfig(loaded.model, { to, source: displayPath(args.positionals[0]!), readFile: loaded.readFile });
  io.out(format === "json" ? `${JSON.stringify({ to, code }, null, 2)}\n` : code);
  return loaded.exitCode;
}

function languageOf(value: string | undefined): (typeof LANGUAGES)[number] {
  if (value === undefined) throw new UsageError("export needs --to ts or --to py (the language of the code to print)");
  if ((LANGUAGES as readonly string[]).includes(value)) return value as (typeof LANGUAGES)[number];
  const near = LANGUAGE_WORDS[value.toLowerCase()] ?? later.didYouMean().didYouMean(value, LANGUAGES);
  throw new UsageError(`--to must be one of ${LANGUAGES.join(", ")} (got "${value}")${near ? `; did you mean "${near}"?` : ""}`);
}
