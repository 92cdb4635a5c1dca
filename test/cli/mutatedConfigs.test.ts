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
import { envInt, makeRng } from "../helpers/random";
import { scratchDir } from "../helpers/scratch";

/** `MUTANTS=5000 npm test -- mutatedConfigs` for a longer hunt. */
const MUTANTS = envInt("MUTANTS", 300);
const FIXTURE = join(__dirname, "fixtures", "every-section");

/** Strings that stress the engine: globs each runtime reads its own way, paths either refuses, names the format knows. */
const TRICKY = [
  "", "/", "//", "/workspace/**", "**", "*", "/a/{b,c", "/a/[!x]", "/a/[", "../x", "~/x", "/a/./b", "/a/../b", "x".repeat(3000),
  "\u0000", "\\", "/{a,b}{c,d}{e,f}{g,h}", "/a/**/**/b", "read", "write", "deny", "allow", "interrupt", "all", "main",
  "general-purpose", "auditor", "sandbox", "composite", "state", "store", "filesystem", "custom", "fork", "handoff", "execute",
  "delete", "read_file", "task", "./skills", "./nope", "../..", "/memories/", "deepagents-py", "deepagents-js", "🙂", "/é/**",
  "@(a|b)", "/a/+(x)", "!(/a)", "/a|/b",
];

function mutator(seed: number, keys: readonly string[]) {
  const r = makeRng(seed);
  const { pick, chance } = r;
  const randomValue = (depth = 0): unknown => {
    const k = r.next();
    if (k < 0.1) return null;
    if (k < 0.2) return chance(0.5);
    if (k < 0.3) return pick([0, -1, 1, 1.5, 1e300, 2 ** 53 + 1]);
    if (k < 0.65) return pick(TRICKY);
    if (k < 0.82 || depth > 3) return Array.from({ length: r.int(4) }, () => randomValue(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = r.int(4); i > 0; i--) o[pick(keys)] = randomValue(depth + 1);
    return o;
  };
  const mutate = (v: unknown, rate: number): unknown => {
    if (chance(rate)) {
      const k = r.next();
      if (k < 0.5) return randomValue();
      if (Array.isArray(v) && k < 0.7) return [...v, ...v.slice(0, 1)];
    }
    if (Array.isArray(v)) return v.filter(() => !chance(rate / 2)).map((x) => mutate(x, rate));
    if (v && typeof v === "object") {
      const o: Record<string, unknown> = {};
      for (const [key, x] of Object.entries(v)) {
        if (chance(rate / 2)) continue;
        const name = chance(rate / 3) ? pick(keys) : chance(rate / 4) ? key.slice(0, -1) : key;
        o[name] = mutate(x, rate);
      }
      if (chance(rate)) o[pick(keys)] = randomValue();
      return o;
    }
    return v;
  };
  return {
    mutant(seedConfig: unknown): string {
      const text = JSON.stringify(mutate(seedConfig, 0.04 + r.next() * 0.2), null, 2);
      if (!chance(0.1)) return text;
      const at = r.int(text.length);
      return text.slice(0, at) + pick(["", "{", "]", ",", "//", "/*", '"', "\u0000"]) + text.slice(at + 1);
    },
    commands(file: string): string[][] {
      const agent = () => pick(["main", "auditor", "writer", "general-purpose", "nobody"]);
      return [
        ["check", file, "--format", "json", ...(chance(0.2) ? [] : ["--no-analysis"])],
        ["check", file, "--format", "sarif", "--no-analysis"],
        ["explain", file, "--op", pick(["read", "write"]), "--path", pick(["/workspace/.env", "/workspace/a/b.txt", "/memories/x", "/x/../y", "rel", "/workspace/./.env", "//a"]), "--agent", agent(), ...(chance(0.3) ? ["--role", pick(["admin", "guest", "user"])] : []), "--format", pick(["text", "json"])],
        ["tools", file, "--format", pick(["text", "json"]), ...(chance(0.3) ? ["--agent", agent()] : [])],
        ["prompt", file, ...(chance(0.5) ? ["--agent", agent()] : []), ...(chance(0.3) ? ["--role", pick(["admin", "guest"])] : [])],
      ];
    },
  };
}

function keysOf(value: unknown, into = new Set<string>()): string[] {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, into));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) (into.add(k), keysOf(v, into));
  return [...into];
}

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
      const code = main(argv, { out: (s: string) => void (out += s), err: (s: string) => void (err += s), color: false });
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
