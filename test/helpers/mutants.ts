/**
 * The mutation corpus (test/cli/mutatedConfigs.test.ts, and the property test of every fix): a config is mutated at
 * random, value by value (a value replaced by one of another type or a tricky string, keys dropped, misspelt or
 * swapped for another section's, list items dropped or repeated, now and then a syntax error). Seeded.
 */
import { makeRng } from "./random";

/** Strings that stress the engine: globs each runtime reads its own way, paths either refuses, names the format knows. */
const TRICKY = [
  "", "/", "//", "/workspace/**", "**", "*", "/a/{b,c", "/a/[!x]", "/a/[", "../x", "~/x", "/a/./b", "/a/../b", "x".repeat(3000),
  "\u0000", "\\", "/{a,b}{c,d}{e,f}{g,h}", "/a/**/**/b", "read", "write", "deny", "allow", "interrupt", "all", "main",
  "general-purpose", "auditor", "sandbox", "composite", "state", "store", "filesystem", "custom", "fork", "handoff", "execute",
  "delete", "read_file", "task", "./skills", "./nope", "../..", "/memories/", "deepagents-py", "deepagents-js", "🙂", "/é/**",
  "@(a|b)", "/a/+(x)", "!(/a)", "/a|/b",
];

export function mutator(seed: number, keys: readonly string[]) {
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

export function keysOf(value: unknown, into = new Set<string>()): string[] {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, into));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) (into.add(k), keysOf(v, into));
  return [...into];
}

