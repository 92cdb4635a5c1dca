import { property, propertyKeyNode, spanOf } from "../../config/parse";
import { MAX_RUN_STEPS, MAX_WORKSPACE_ENTRIES, type RunLimit } from "../../dryrun/runner";
import type { ScenarioCheck } from "../scenarioCheck";

const count = (n: number) => n.toLocaleString("en");

/** What each limit says: the message's reason, and the detail's limit and what to do. */
const LIMITS: Record<RunLimit, { reason: string; detail: string }> = {
  steps: {
    reason: `the scenario has more than ${count(MAX_RUN_STEPS)} steps`,
    detail:
      `A dry run takes at most ${count(MAX_RUN_STEPS)} steps, the steps of task calls counted, so that a scenario of any size answers within a second or so. ` +
      `This step and the steps after it did not run: they have no outcome, their expectations are not checked, and the scenario does not pass. ` +
      `Split the scenario into files of at most ${count(MAX_RUN_STEPS)} steps each.`,
  },
  workspace: {
    reason: `the sample workspace has more than ${count(MAX_WORKSPACE_ENTRIES)} files and folders`,
    detail:
      `A dry run lists at most ${count(MAX_WORKSPACE_ENTRIES)} files and folders of the sample workspace (the config's workspace.root), nested folders counted, and reads no more. ` +
      `This step needed more, so it ends with an error; the steps after it did not run, and the scenario does not pass. ` +
      `Point workspace.root at a smaller sample folder (a copy of the files that matter), or give this step a narrower path or pattern.`,
  },
};

/**
 * A run that stopped at one of its limits (too many steps, a sample workspace too large to list) did not check the
 * rest of the scenario: said on the step where it stopped, as `agent-sandbox dry-run` says it, so that the editor
 * does not show such a scenario as clean.
 */
export const scenarioRunStopped: ScenarioCheck = {
  code: "scenario-run-stopped",
  severity: "warning",
  summary: "The dry run stopped at one of its limits before the scenario's last step.",
  needsRun: true,
  run(context) {
    const run = context.run();
    if (!run?.stoppedBy) return;
    const limit = LIMITS[run.stoppedBy];
    // On the step's tool (one line, where the step is named); a step without its node, on the scenario's "steps".
    const stepNode = run.stoppedAt?.node;
    const stepsNode = property(context.root, "steps");
    const at = (stepNode && (property(stepNode, "tool") ?? stepNode)) ?? (stepsNode && (propertyKeyNode(stepsNode) ?? stepsNode));
    context.report({
      message: `The dry run stopped at this step: ${limit.reason}.`,
      detail: limit.detail,
      span: at ? spanOf(at) : { start: 0, end: 0 },
    });
  },
};
