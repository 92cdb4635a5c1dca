import type { RuleListSpec, RuleSpec } from "../config/model";
import type { Decision } from "../automata/ruleTables";
import { CompiledRuleList } from "../permissions/ruleList";
import type { Operation, Runtime } from "../runtime/runtime";

/**
 * Words and checks shared by the exact-analysis checks (rule-shadowed, rule-redundant, rule-partially-shadowed,
 * runtime-divergence): how a rule is named in a message, and the last-line confirmation of every witness against
 * the engine's own decision function before anything is reported.
 */

/** `rule 1 (deny "/workspace/.env")`. */
export function ruleLabel(list: RuleListSpec, index: number): string {
  const rule = list.rules[index];
  return rule ? `rule ${index} (${ruleText(rule)})` : `rule ${index}`;
}

export function ruleText(rule: RuleSpec): string {
  const mode = rule.input.mode === undefined ? "allow" : typeof rule.input.mode === "string" ? rule.input.mode : JSON.stringify(rule.input.mode);
  const paths = Array.isArray(rule.input.paths) ? rule.input.paths : [];
  const shown = paths.length === 1 ? JSON.stringify(paths[0]) : JSON.stringify(paths).replace(/","/g, '", "');
  return `${mode} ${shown}`;
}

/** "allowed", "denied", "sent for approval (interrupt)". */
export function decided(decision: Decision | "error"): string {
  switch (decision) {
    case "allow":
      return "allowed";
    case "deny":
      return "denied";
    case "interrupt":
      return "sent for approval (interrupt)";
    case "error":
      return "an error";
  }
}

/** "allows", "denies", "sends for approval (interrupt)", "fails on". */
export function verb(decision: Decision | "error"): string {
  switch (decision) {
    case "allow":
      return "allows";
    case "deny":
      return "denies";
    case "interrupt":
      return "sends for approval (interrupt)";
    case "error":
      return "fails on";
  }
}

/** Who decides: "rule 0 (allow \"/workspace/**\")" or "the permissive default". */
export function decider(list: RuleListSpec, index: number): string {
  return index >= 0 ? ruleLabel(list, index) : "the permissive default";
}

/** Decisions of a list as the runtime computes them (permissions/ruleList.ts), for confirming witnesses. */
export class Confirm {
  private readonly compiled: CompiledRuleList;
  constructor(readonly runtime: Runtime, readonly list: RuleListSpec) {
    this.compiled = new CompiledRuleList(runtime, list.rules.map((r) => r.input));
  }

  /** The path is a canonical tool path: the runtime hands it to the matcher unchanged. */
  canonical(path: string): boolean {
    const c = this.runtime.canonicalToolPath(path, true);
    return c.ok && c.path === path;
  }

  decide(op: Operation, path: string): { decision: Decision | "error"; ruleIndex: number } {
    const d = this.compiled.decide(op, path);
    return { decision: d.failure ? "error" : d.decision, ruleIndex: d.ruleIndex };
  }

  /** Does rule `index` match `path` for `op` (its operations cover `op` and one of its patterns matches)? */
  ruleMatches(index: number, op: Operation, path: string): boolean {
    const rule = this.list.rules[index]?.input;
    if (!rule || !this.runtime.operationsCover(rule.operations, op) || !Array.isArray(rule.paths)) return false;
    return rule.paths.some((p) => typeof p === "string" && p.length > 0 && this.runtime.compilePattern(p).matches(path));
  }

  /** The decision with rule `index` removed from the list (rule numbers as in the full list). */
  decideWithout(index: number, op: Operation, path: string): { decision: Decision | "error"; ruleIndex: number } {
    const kept = this.list.rules.filter((r) => r.index !== index);
    const d = new CompiledRuleList(this.runtime, kept.map((r) => r.input)).decide(op, path);
    return { decision: d.failure ? "error" : d.decision, ruleIndex: d.ruleIndex >= 0 ? kept[d.ruleIndex]!.index : -1 };
  }
}
