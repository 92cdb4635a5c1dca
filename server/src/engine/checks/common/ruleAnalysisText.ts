import { allRuleLists, type RuleListSpec, type RuleSpec } from "../../config/model";
import type { Decision } from "../../automata/ruleTables";
import type { Confirm } from "../../automata/confirm";
import { exactAnalysis } from "../../analysisLoader";
import { describeList } from "../../config/describe";
import type { Runtime } from "../../runtime/runtime";
import type { RuleAnswers } from "../../automata/modelAnalysis";
import type { RuleAnalysis, RuleVerdict } from "../../automata/ruleListAnalysis";
import type { CheckContext, ReportedFinding } from "../check";

/**
 * What the exact-analysis checks (rule-shadowed, rule-redundant, rule-partially-shadowed, runtime-divergence) share:
 * the walk over every rule's verdict, and how a rule and a decision are named in a message.
 */

/** One rule whose verdict a check reports, with what the check needs to confirm and describe it. */
export interface VerdictSite<K extends RuleVerdict["kind"]> {
  readonly runtime: Runtime;
  readonly list: RuleListSpec;
  readonly rule: RuleSpec;
  readonly result: RuleAnalysis;
  readonly verdict: Extract<RuleVerdict, { kind: K }>;
  /** The answers about the whole list (for the reorder fix). */
  readonly rules: RuleAnswers;
  /** The list's decisions as the engine computes them: every witness is checked against them first. */
  readonly confirm: Confirm;
}


/**
 * Reports, for every rule of every list whose verdict is `kind`, what `describe` makes of it. `describe` confirms
 * the witness with `site.confirm` and returns the finding, or `{ unconfirmed: path }` when the witness does not
 * confirm: then nothing is reported and the `skipped` list says so (a disagreement is never shown as a finding);
 * `undefined` when the check has decided the verdict is not its to report.
 */
export function reportVerdicts<K extends RuleVerdict["kind"]>(
  context: CheckContext,
  code: string,
  kind: K,
  describe: (site: VerdictSite<K>) => ReportedFinding | { readonly unconfirmed: string } | undefined,
): void {
  const runtime = context.model.runtime;
  const { analysisForCheck, Confirm } = exactAnalysis();
  const analysis = analysisForCheck(context);
  for (const list of allRuleLists(context.model)) {
    const rules = analysis.ruleList(list);
    const confirm = new Confirm(runtime, list);
    for (const rule of list.rules) {
      const result = rules.rule(rule.index);
      if (result.verdict.kind !== kind) continue;
      const out = describe({ runtime, list, rule, result, verdict: result.verdict as Extract<RuleVerdict, { kind: K }>, rules, confirm });
      if (out === undefined) continue;
      if ("unconfirmed" in out) {
        analysis.noteSkip(list, { ruleIndex: rule.index, reason: `the witness ${JSON.stringify(out.unconfirmed)} could not be confirmed; nothing reported`, checks: [code] });
      } else {
        context.report(out);
      }
    }
  }
}

/**
 * How many earlier rules a finding points at in its related information, and names in its message; the rest are
 * counted ("… and 40 more"). In a long list a rule can be overlapped by dozens of earlier ones: every one of
 * them listed made a diagnostic nobody reads, and at 1,000 rules most of what the editor was sent.
 */
export const RELATED_RULES = 8;
export const NAMED_RULES = 3;

/** `0, 2, 5` or `0, 2, 5, … and 40 more`: the first RELATED_RULES indices, then a count. */
export function ruleIndices(indices: readonly number[]): string {
  const shown = indices.slice(0, RELATED_RULES).join(", ");
  return indices.length > RELATED_RULES ? `${shown}, … and ${indices.length - RELATED_RULES} more` : shown;
}

/** The first NAMED_RULES rules by their labels, joined with "and", then a count of the others. */
export function namedRules(list: RuleListSpec, indices: readonly number[]): string {
  const named = indices.slice(0, NAMED_RULES).map((i) => ruleLabel(list, i));
  const more = indices.length - named.length;
  return more > 0 ? `${named.join(", ")} and ${more} more earlier rule${more === 1 ? "" : "s"}` : named.join(" and ");
}

/** `rule 1 (deny "/workspace/.env")`, and which list when it is not the top-level one. */
export function ruleLabel(list: RuleListSpec, index: number): string {
  const rule = list.rules[index];
  const where = list.owner.kind === "top-level" ? "" : ` of ${describeList(list)}`;
  return rule ? `rule ${index} (${ruleText(rule)})${where}` : `rule ${index}${where}`;
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

export type { Confirm };

/** ` (deepagents-py 0.7.8 matches "/a/" for the tool argument "/a\\")` when the path is not typed as it is matched. */
export function argumentNote(runtime: Runtime, path: string): string {
  const argument = exactAnalysis().toolArgumentFor(runtime, path);
  return argument === undefined || argument === path ? "" : ` (${runtime.label} matches "${shown(path)}" for the tool argument ${JSON.stringify(argument)})`;
}

/** `read "/workspace/.env"`: an operation on a path, as messages name a witness. */
export function call(operation: string, path: string): string {
  return `${operation} "${shown(path)}"`;
}

/** "rule 0", "rules 0 and 2", "rules 0, 2 and 5", or "12 earlier rules": few enough words for a message. */
export function fewRules(indices: readonly number[]): string {
  if (indices.length === 1) return `rule ${indices[0]}`;
  if (indices.length > 3) return `${indices.length} earlier rules`;
  return `rules ${indices.slice(0, -1).join(", ")} and ${indices.at(-1)}`;
}

/**
 * A path as a message shows it: characters a person cannot see or type (controls, line separators, lone
 * surrogates) as `\u2028`-style escapes. The finding's `witness` keeps the exact string.
 */
export function shown(path: string): string {
  let out = "";
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < path.length && path.charCodeAt(i + 1) >= 0xdc00 && path.charCodeAt(i + 1) <= 0xdfff;
    if (pair) {
      out += path.slice(i, i + 2);
      i++;
    } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || c === 0xfeff || (c >= 0xd800 && c <= 0xdfff)) {
      out += `\\u${c.toString(16).padStart(4, "0")}`;
    } else {
      out += path[i];
    }
  }
  return out;
}
