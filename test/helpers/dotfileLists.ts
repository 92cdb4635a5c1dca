/**
 * Seeded deepagents-py rule lists and every path of a small world, for the exhaustive tests of dotfiles-unprotected
 * (test/checks/dotfiles-unprotected.exhaustive.test.ts): patterns made of plain and hidden names, `*`, `**`, `.*`,
 * `?`, classes and braces; paths of up to five names, hidden ones included.
 */
import { makeRng } from "./random";
import type { PermissionRuleInput } from "../../server/src/engine/permissions/ruleList";

/** The names paths are made of: two plain, two hidden. */
export const NAMES = ["a", "b", ".h", ".g"] as const;
export const MAX_DEPTH = 5;

/** Every path of 1 to `MAX_DEPTH` names. */
export function worldPaths(): string[] {
  const out: string[] = [];
  let level = [""];
  for (let depth = 1; depth <= MAX_DEPTH; depth++) {
    level = level.flatMap((prefix) => NAMES.map((n) => `${prefix}/${n}`));
    out.push(...level);
  }
  return out;
}

const SEGMENTS = ["a", "b", ".h", "*", "*", "**", "**", "**", ".*", "?", "*a", "a*", "[.a]", "{a,.h}", "{.g,b}*"] as const;

export interface GeneratedList {
  readonly seed: number;
  readonly rules: PermissionRuleInput[];
  /** The config text, and where each rule's object starts and ends in it. */
  readonly text: string;
  readonly ruleSpans: readonly { start: number; end: number }[];
}

export function generatedList(seed: number): GeneratedList {
  const r = makeRng(seed);
  const count = 1 + r.int(4);
  const rules: PermissionRuleInput[] = [];
  for (let i = 0; i < count; i++) {
    const patterns: string[] = [];
    const patternCount = 1 + r.int(2);
    for (let k = 0; k < patternCount; k++) {
      const depth = 1 + r.int(3);
      patterns.push(`/${Array.from({ length: depth }, () => r.pick(SEGMENTS)).join("/")}`);
    }
    const operations = r.weighted([[3, ["read", "write"]], [1, ["read"]], [1, ["write"]]] as const);
    rules.push({ operations: [...operations], paths: patterns, mode: r.chance(0.7) ? "deny" : "allow" });
  }
  let text = `{\n  "version": 1,\n  "runtime": "deepagents-py",\n  "permissions": [\n`;
  const ruleSpans: { start: number; end: number }[] = [];
  rules.forEach((rule, i) => {
    text += "    ";
    const start = text.length;
    text += JSON.stringify(rule);
    ruleSpans.push({ start, end: text.length });
    text += i < rules.length - 1 ? ",\n" : "\n";
  });
  text += "  ]\n}\n";
  return { seed, rules, text, ruleSpans };
}

/** Names that start with `.` in a path (`..` apart). */
export function hiddenNames(path: string): number {
  return path.split("/").filter((s) => s.startsWith(".") && s !== "..").length;
}
