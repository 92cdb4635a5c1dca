import type { Span } from "../text";

/**
 * A value a front end could not know without running the code (`permissions: loadRules()`, a backend from a helper
 * function, a tool imported from another package). The config model keeps what is known and leaves the dynamic
 * part out (the field undefined, the list without the entry); this list says what was left out, so that no check
 * reads the gap as "none": every check that would need such a field does not run on that model (`blockedChecks`).
 *
 * A JSONC config never has any: only source front ends (server/src/engine/sources/) fill it.
 */
export interface DynamicValue {
  /** What the value is, in the user's words ("permissions", "the backend of subagent reviewer"). */
  what: string;
  field: DynamicField;
  /** The expression, as written (shortened): `loadRules()`. */
  expression: string;
  span: Span;
}

/** The kinds of value whose absence some check would read as a fact. */
export type DynamicField = "options" | "permissions" | "backend" | "filesystem-tools" | "user-tools" | "middleware" | "subagents" | "skills" | "system-prompt" | "name" | "backend-root";

const TOOL_CHECKS = ["read-file-required", "tool-unknown", "tool-unavailable", "tool-duplicate", "subagent-escalation", "permissions-with-sandbox", "permissions-with-sandbox-factory"];
const RULE_CHECKS = [
  "subagent-escalation",
  "dot-segment-bypass",
  "middleware-drops-permissions",
  "permissions-with-sandbox",
  "permissions-with-sandbox-factory",
  "permission-outside-routes",
  "rule-shadowed",
  "rule-redundant",
  "rule-partially-shadowed",
  "runtime-divergence",
  "dotfiles-unprotected",
];
const BACKEND_CHECKS = [
  "tool-unavailable",
  "dot-segment-bypass",
  "permissions-with-sandbox",
  "permissions-with-sandbox-factory",
  "backend-factory-unsupported",
  "permission-outside-routes",
  "route-prefix-without-slash",
  "middleware-drops-backend",
  "subagent-escalation",
];

/**
 * Which checks need which kind of value: a check listed under a field that is dynamic in the model would read the
 * gap as a fact (no rules, a state backend, all eight tools), so it does not run. Coarse on purpose: a dynamic
 * permission list anywhere stops the order analysis everywhere, because a false "nothing is protected" is worse
 * than silence.
 */
const NEEDED_BY: Record<DynamicField, readonly string[]> = {
  permissions: RULE_CHECKS,
  backend: BACKEND_CHECKS,
  "filesystem-tools": TOOL_CHECKS,
  "user-tools": ["tool-name-collision", "tool-unavailable", "subagent-escalation", "skill-tool-unknown"],
  // A middleware the front end cannot see may be a filesystem middleware: it decides tools, rules and backend.
  middleware: [...new Set([...TOOL_CHECKS, ...RULE_CHECKS, ...BACKEND_CHECKS])],
  // A spread of options the front end cannot see (`{ ...defaults }` from a helper): any option may come from it.
  options: [...new Set([...TOOL_CHECKS, ...RULE_CHECKS, ...BACKEND_CHECKS, "tool-name-collision", "subagent-duplicate-name", "skill-tool-unknown", "system-prompt-conflict"])],
  subagents: ["subagent-escalation", "subagent-duplicate-name", "subagent-missing-description", "tool-name-collision"],
  skills: ["skill-tool-unknown", "skill-allowed-tools-string"],
  "system-prompt": ["system-prompt-conflict"],
  // The agent's name only labels it: no check needs it.
  name: [],
  // A filesystem backend's folder and virtual mode: the prompt preview shows them, no check reads them.
  "backend-root": [],
};

/** The codes of the checks that do not run on a model with these dynamic values. */
export function blockedChecks(dynamic: readonly DynamicValue[]): Set<string> {
  const blocked = new Set<string>();
  for (const d of dynamic) for (const code of NEEDED_BY[d.field]) blocked.add(code);
  return blocked;
}
