/**
 * The two hand-written replacements of kept libraries, against the library, on what a user waits for: the editor's
 * diagnostics for a config (`checkConfigText`, its first phase, without the exact analysis) on the benchmark's
 * configs (bench/generate.ts, 10 / 100 / 1,000 rules).
 *
 * - config/jsoncTree.ts's `parseJsoncTree` against jsonc-parser's own `parseTree` (same options), alone and with the
 *   guard it would need in its place (`parseTree+guard`): a pass of jsonc-parser's scanner over the text counting
 *   the brackets, so that a file nested too deep is refused before parseTree's recursion overflows the stack (what
 *   parseJsoncTree counts as it parses);
 * - config/schemaValidator.ts's `SchemaValidator.validate` against vscode-json-languageservice's `doValidation` with
 *   the same schema (its JSON document parsed beforehand, untimed: only the validation is compared).
 *
 * Each figure is CPU time (`process.cpuUsage`), every contender run in the same rounds, interleaved, the median of
 * the rounds. The line "what the user waits for" puts the difference next to the whole check: the check's time
 * with the library instead is the check's time plus the library's time minus ours.
 *
 *   node --expose-gc --import tsx bench/libraries.ts [--rounds N]
 */
import { createScanner, parseTree, type ParseOptions } from "jsonc-parser";
import { getLanguageService } from "vscode-json-languageservice";
import { TextDocument } from "vscode-languageserver-textdocument";
import { loadavg } from "node:os";
import configSchema from "../schemas/agent-sandbox.schema.json";
import { checkConfigText } from "../server/src/engine/checkConfig";
import { parseJsoncTree } from "../server/src/engine/config/jsoncTree";
import { parseJsonc } from "../server/src/engine/config/parse";
import { SchemaValidator, type Schema } from "../server/src/engine/config/schemaValidator";
import { Token } from "../server/src/engine/config/tokens";
import { SCHEMA_URI } from "./check";
import { generateConfigText } from "./generate";
import { median } from "./measure";

const OPTIONS: ParseOptions = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };
const gc = (globalThis as { gc?: (o?: { type: "minor" }) => void }).gc;

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** CPU ms per call of each contender: rounds of at least `minMs`, the contenders in rotating order, medians. */
async function interleaved(contenders: Record<string, () => unknown>, rounds: number, minMs = 40): Promise<Record<string, number>> {
  const names = Object.keys(contenders);
  const perCall: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const name of names) for (let i = 0; i < 20; i++) await contenders[name]!(); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!;
      gc?.({ type: "minor" });
      let calls = 0;
      const t0 = cpuMs();
      while (cpuMs() - t0 < minMs) {
        await contenders[name]!();
        calls++;
      }
      perCall[name]!.push((cpuMs() - t0) / calls);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(perCall[n]!)]));
}

/** parseTree after a scan that refuses more than `maxDepth` open brackets (a nesting guard parseTree lacks). */
function guardedParseTree(text: string, maxDepth = 128): ReturnType<typeof parseTree> {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let kind = scanner.scan(); kind !== Token.EOF; kind = scanner.scan()) {
    if (kind === Token.OpenBrace || kind === Token.OpenBracket) {
      if (++depth > maxDepth) return undefined;
    } else if (kind === Token.CloseBrace || kind === Token.CloseBracket) depth = Math.max(0, depth - 1);
  }
  return parseTree(text, [], OPTIONS);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const rounds = Number(argv[argv.indexOf("--rounds") + 1] ?? 0) || 11;
  const service = getLanguageService({});
  service.configure({ validate: true, allowComments: true });
  const ours = new SchemaValidator(configSchema as unknown as Schema);
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(1)).join(" ")}; ${rounds} rounds; CPU ms per call, medians`);
  for (const rules of [10, 100, 1000]) {
    const text = generateConfigText(rules, 1000 + rules, SCHEMA_URI);
    const root = parseJsonc(text).root!;
    const document = TextDocument.create("file:///agent-sandbox.jsonc", "jsonc", 1, text);
    const jsonDocument = service.parseJSONDocument(document);
    const validateWithLibrary = () => service.doValidation(document, jsonDocument, { comments: "ignore", trailingCommas: "ignore", schemaValidation: "error" }, configSchema as never);
    const t = await interleaved(
      {
        check: () => checkConfigText(text).findings.length,
        parseTree: () => parseTree(text, [], OPTIONS),
        "parseTree+guard": () => guardedParseTree(text),
        parseJsoncTree: () => parseJsoncTree(text, [], OPTIONS),
        doValidation: validateWithLibrary,
        SchemaValidator: () => ours.validate(root),
      },
      rounds,
    );
    const felt = (library: number, own: number) => `${(((t.check! + library - own) / t.check!)).toFixed(3)}×`;
    console.log(
      `${String(rules).padStart(5)} rules, ${(text.length / 1024).toFixed(0).padStart(4)} KB: check ${t.check!.toFixed(3)} ms; ` +
        `parseTree ${t.parseTree!.toFixed(3)} / parseJsoncTree ${t.parseJsoncTree!.toFixed(3)} (${(t.parseTree! / t.parseJsoncTree!).toFixed(2)}×; the check with parseTree: ${felt(t.parseTree!, t.parseJsoncTree!)}); ` +
        `parseTree+guard ${t["parseTree+guard"]!.toFixed(3)} (${(t["parseTree+guard"]! / t.parseJsoncTree!).toFixed(2)}×; the check with it: ${felt(t["parseTree+guard"]!, t.parseJsoncTree!)}); ` +
        `doValidation ${t.doValidation!.toFixed(3)} / SchemaValidator ${t.SchemaValidator!.toFixed(3)} (${(t.doValidation! / t.SchemaValidator!).toFixed(2)}×; the check with doValidation: ${felt(t.doValidation!, t.SchemaValidator!)})`,
    );
  }
  console.log(`load average at end: ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
}

void main();
