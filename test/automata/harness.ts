import { allRuleLists, buildModel, type ConfigModel, type RuleListSpec } from "../../server/src/engine/config/model";
import { parseJsonc } from "../../server/src/engine/config/parse";
import { toolArgumentFor } from "../../server/src/engine/automata/confirm";
import { CompiledRuleList, type PermissionRuleInput } from "../../server/src/engine/permissions/ruleList";
import { OPERATIONS, type CompiledPattern, type Operation, type Runtime } from "../../server/src/engine/runtime/runtime";
import { asTypedPaths, sharedCharacters } from "../../server/src/engine/automata/languages";
import { ModelAnalysis } from "../../server/src/engine/automata/modelAnalysis";
import { deepagentsJs, deepagentsPy } from "../../server/src/engine/runtime";

/**
 * Shared pieces of the automata property tests: a seeded generator of rule lists over a small alphabet of segments,
 * the exhaustive universe of canonical paths those segments make, and brute-force decisions over it.
 */

export { rng } from "../helpers/random";

export const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/**
 * Segments paths are made of: plain names, a dotfile, a `.` segment (kept by deepagents-js), a name with a dot, and
 * an empty one (`//`, a trailing `/`: only deepagents-py's matcher can see those).
 */
export const SEGMENTS = ["a", "b", ".e", ".", "a.t", ""] as const;

/** Glob pieces for one segment of a pattern (each a valid segment under both runtimes' validation). */
const PIECES = ["a", "b", ".e", "a.t", "*", "**", "?", "*.t", "{a,b}", ".*", "[ab]", "[!a]", "[^a]", "!(a)", "{,a}", "b*", "@(a|.e)", "a?t", "{a,**}"] as const;

/** A random pattern of 1–3 pieces, sometimes with a trailing slash or a doubled one. */
export function randomPattern(r: () => number): string {
  const n = 1 + Math.floor(r() * 3);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(pick(r, PIECES));
  let p = `/${parts.join("/")}`;
  const x = r();
  if (x < 0.03) p += "/";
  else if (x < 0.05) p = p.replace("/", "//");
  else if (x < 0.08) p = "/**";
  return p;
}

export interface RandomRule {
  operations: Operation[];
  paths: string[];
  mode?: string;
}

/** Broad patterns, and narrower ones inside them: the `.env`-after-`/workspace/**` shape, in miniature. */
const BROAD = ["/**", "/a/**", "/*", "/a/*", "/{a,b}/**", "/**/*.t"] as const;
const NARROW = ["/a/.e", "/a/b", "/a/a.t", "/.e", "/a/b/.e", "/b/a.t", "/a"] as const;

export function randomRules(r: () => number, modes: readonly string[]): RandomRule[] {
  const count = 1 + Math.floor(r() * 6);
  const rules: RandomRule[] = [];
  const ruleWith = (paths: string[], mode: string | undefined): RandomRule => {
    const operations = pick(r, [["read"], ["write"], ["read", "write"], ["read", "write"]] as Operation[][]);
    return mode === undefined ? { operations, paths } : { operations, paths, mode };
  };
  for (let i = 0; i < count; i++) {
    const paths = Array.from({ length: r() < 0.75 ? 1 : 2 }, () => randomPattern(r));
    rules.push(ruleWith(paths, pick(r, [...modes, undefined])));
  }
  // Often, a broad rule followed (not necessarily next) by a narrower one the other way.
  if (r() < 0.5) {
    const at = Math.floor(r() * (rules.length + 1));
    const broadMode = pick(r, modes);
    rules.splice(at, 0, ruleWith([pick(r, BROAD)], broadMode));
    const later = at + 1 + Math.floor(r() * (rules.length - at));
    rules.splice(later, 0, ruleWith([pick(r, NARROW)], broadMode === "deny" ? pick(r, ["allow", undefined]) : "deny"));
  }
  return rules;
}

const universes = new Map<string, string[]>();

/**
 * Every path of up to `depth` segments, plus `/`, that reaches `runtime`'s matcher as it is, from some tool argument
 * (deepagents-py also makes `/a/`, `/a/./b` and `//a` out of arguments with backslashes, §1.3).
 */
export function universe(runtime: Runtime, segments: readonly string[] = SEGMENTS, depth = 3): string[] {
  const key = `${runtime.id}\u0000${segments.join("/")}\u0000${depth}`;
  const known = universes.get(key);
  if (known) return known;
  const paths = computeUniverse(runtime, segments, depth);
  universes.set(key, paths);
  return paths;
}

function computeUniverse(runtime: Runtime, segments: readonly string[], depth: number): string[] {
  const out = new Set<string>(["/"]);
  let layer = [""];
  for (let d = 1; d <= depth; d++) {
    const nextLayer: string[] = [];
    for (const prefix of layer) for (const s of segments) nextLayer.push(`${prefix}/${s}`);
    for (const p of nextLayer) out.add(p);
    layer = nextLayer;
  }
  return [...out].filter((p) => toolArgumentFor(runtime, p) !== undefined);
}

export function configText(runtime: Runtime, rules: readonly RandomRule[], extra = ""): string {
  return JSON.stringify({ version: 1, runtime: runtime.id, permissions: rules }, null, 2).replace(/\n}$/, `${extra}\n}`);
}

/** The config model of a text, without running the checks. */
export function modelOf(text: string): ConfigModel {
  const root = parseJsonc(text).root;
  if (!root) throw new Error("no model");
  return buildModel(root);
}

export function topList(model: ConfigModel): RuleListSpec {
  return allRuleLists(model)[0]!;
}

export function inputsOf(list: RuleListSpec): PermissionRuleInput[] {
  return list.rules.map((r) => r.input);
}

/** Decisions of a list over the universe, as a map "op path" → decision. */
export function decisions(runtime: Runtime, inputs: readonly PermissionRuleInput[], paths: readonly string[]): Map<string, { decision: string; ruleIndex: number }> {
  const compiled = new CompiledRuleList(runtime, inputs);
  const out = new Map<string, { decision: string; ruleIndex: number }>();
  for (const op of OPERATIONS) {
    for (const p of paths) {
      const d = compiled.decide(op, p);
      out.set(`${op} ${p}`, { decision: d.failure ? "error" : d.decision, ruleIndex: d.ruleIndex });
    }
  }
  return out;
}

const compiledPatterns = new Map<Runtime, Map<string, CompiledPattern>>();
function compiled(runtime: Runtime, pattern: string): CompiledPattern {
  let byPattern = compiledPatterns.get(runtime);
  if (!byPattern) compiledPatterns.set(runtime, (byPattern = new Map()));
  let c = byPattern.get(pattern);
  if (!c) byPattern.set(pattern, (c = runtime.compilePattern(pattern)));
  return c;
}

/** `matches[i].get(op + " " + path)`: does rule i match? Computed once per list. */
export function matchMatrix(runtime: Runtime, inputs: readonly PermissionRuleInput[], paths: readonly string[]): Set<string>[] {
  return inputs.map((input) => {
    const hits = new Set<string>();
    for (const op of OPERATIONS) {
      if (!runtime.operationsCover(input.operations, op) || !Array.isArray(input.paths)) continue;
      const patterns = input.paths.filter((p): p is string => typeof p === "string" && p.length > 0).map((p) => compiled(runtime, p));
      for (const path of paths) if (patterns.some((c) => c.matches(path))) hits.add(`${op} ${path}`);
    }
    return hits;
  });
}

/** Does rule `input` match `path` for `op` under `runtime`? */
export function ruleMatches(runtime: Runtime, input: PermissionRuleInput, op: Operation, path: string): boolean {
  if (!runtime.operationsCover(input.operations, op) || !Array.isArray(input.paths)) return false;
  return input.paths.some((p) => typeof p === "string" && p.length > 0 && compiled(runtime, p).matches(path));
}

/**
 * What the runtime-divergence walk gets for one top-level list under deepagents-js with deepagents-py in
 * compatibleWith: the analysis, both runtimes' tables of the list, and the languages every path must be in.
 */
export function divergenceWalkInputs(permissions: unknown) {
  const model = modelOf(JSON.stringify({ version: 1, runtime: "deepagents-js", compatibleWith: ["deepagents-py"], permissions }));
  const list = allRuleLists(model)[0]!;
  const analysis = new ModelAnalysis(model, [deepagentsJs, deepagentsPy]);
  const lists = [
    { list, tables: analysis.tablesOf(list, deepagentsJs) },
    { list, tables: analysis.tablesOf(list, deepagentsPy) },
  ];
  const required = [analysis.space.table(asTypedPaths(deepagentsJs)), analysis.space.table(asTypedPaths(deepagentsPy)), analysis.space.table(sharedCharacters())];
  return { model, list, analysis, lists, required };
}
