import { policyOf } from "../../agents/effectiveTools";
import { spanOf } from "../../config/parse";
import { didYouMean } from "../../didYouMean";
import type { ScenarioCheck } from "../scenarioCheck";
import { replaceWith } from "../../fixOperations";

/**
 * A `role` must be a role of the config's enabled `authorization`. DeerFlow's provider raises for an unknown role
 * at request time, and with `fail_closed` every call is denied: the scenario would test nothing but that.
 */
export const scenarioRoleUnknown: ScenarioCheck = {
  code: "scenario-role-unknown",
  severity: "error",
  summary: "A scenario's role is not a role of the config's authorization.",
  run(context) {
    const model = context.model;
    const node = context.scenario.roleNode;
    if (!model || node?.type !== "string") return;
    const policy = policyOf(model);
    if (policy?.roles.includes(node.value)) return;
    const near = policy ? didYouMean(node.value, policy.roles) : undefined;
    context.report({
      message: policy ? `The config has no role named ${JSON.stringify(node.value)}.` : "The config has no enabled authorization, so no roles.",
      detail: policy
        ? `Roles: ${policy.roles.join(", ")}. DeerFlow's provider raises for an unknown role; with fail_closed ${policy.failClosed ? "true" : "false"} every call is ${policy.failClosed ? "denied" : "let through"}.${near ? ` Did you mean ${JSON.stringify(near)}?` : ""}`
        : "A role only means something with an enabled authorization block in the config; without one the scenario runs with no authorization.",
      span: spanOf(node),
      fixes: near ? [{ title: `Change to ${JSON.stringify(near)}`, operations: [replaceWith(node, near)], safe: false }] : undefined,
    });
  },
};
