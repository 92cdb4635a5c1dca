/**
 * Robustness of every command on configs that are wrong in ways no one wrote a test for: a config using every
 * section of the format (fixtures/every-section) is mutated at random, value by value (a value replaced by one of
 * another type or a tricky string, keys dropped, misspelt or swapped for another section's, list items dropped or
 * repeated, now and then a syntax error), and each mutant goes through `check` (JSON and SARIF, sometimes with the
 * exact analysis), `explain`, `tools` and `prompt`, in this process, through the CLI's own `main`. None may throw,
 * report an internal error (a check that failed: `internal-error`, "Please report it"; a command that failed:
 * "internal error"), or print anything but JSON when asked for JSON. Seeded: a failure names its mutant, which
 * `MUTANT=<n>` writes out (next to this file). Before this test, 2,300 mutants from other seeds found nothing; this keeps
 * it so.
 */
import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parse } from "jsonc-parser";
import { main } from "../../server/src/cli/main";
import { keysOf, mutator } from "../helpers/mutants";
import { envInt } from "../helpers/random";
import { scratchDir } from "../helpers/scratch";

/** `MUTANTS=5000 npm test -- mutatedConfigs` for a longer hunt. */
const MUTANTS = envInt("MUTANTS", 300);
const FIXTURE = join(__dirname, "fixtures", "every-section");

test(`${MUTANTS} mutants of a config with every section: no command throws, fails inside, or breaks its JSON`, () => {
  const dir = scratchDir("mutants");
  cpSync(FIXTURE, dir, { recursive: true });
  const file = join(dir, "agent-sandbox.jsonc");
  const seedConfig = parse(readFileSync(file, "utf8"));
  const { mutant, commands } = mutator(20261205, keysOf(seedConfig));
  const codes = new Set<string>();
  const exits = new Set<number>();
  for (let n = 0; n < MUTANTS; n++) {
    const text = mutant(seedConfig);
    if (process.env.MUTANT === String(n)) writeFileSync(join(__dirname, `mutant-${n}.jsonc`), text);
    writeFileSync(file, text);
    for (const argv of commands(file)) {
      let out = "";
      let err = "";
      const what = `mutant ${n} (MUTANT=${n} writes it out): agent-sandbox ${argv.join(" ")}`;
      // A JSONC file: main() answers synchronously.
      const code = main(argv, { out: (s: string) => void (out += s), err: (s: string) => void (err += s), color: false }) as number;
      exits.add(code);
      assert.doesNotMatch(out + err, /internal error|internal-error|Please report/, what);
      if (argv.includes("--format") && argv[argv.indexOf("--format") + 1] !== "text" && code !== 2) {
        // SARIF is parsed for its validity only; the codes are counted from `--format json`.
        const printed = JSON.parse(out) as { files?: { diagnostics?: { code: string }[] }[] };
        for (const f of printed.files ?? []) for (const d of f.diagnostics ?? []) codes.add(d.code);
      }
    }
  }
  // The mutants must reach far into the engine, not stop at the parser: many checks speak, and the commands end in
  // both ways a bad config ends a command (1: findings at error level, as the seed already has; 2: a file the command
  // cannot read as a config).
  assert.ok(codes.size >= 30, `only ${codes.size} diagnostic codes were reported: ${[...codes].sort().join(", ")}`);
  assert.ok(exits.has(1) && exits.has(2), `exit codes seen: ${[...exits].sort().join(", ")}`);
});
