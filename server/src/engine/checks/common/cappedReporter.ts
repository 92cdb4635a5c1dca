import type { BlockNodes } from "../../authorization/blockNodes";
import { propertyKeyNode, spanOf } from "../../config/parse";
import type { CheckContext, ReportedFinding } from "../check";

/** Most findings one authz check reports per file; a generated role map can hold thousands of the same mistake. */
export const MAX_FINDINGS_PER_CHECK = 100;

/**
 * Reports up to `MAX_FINDINGS_PER_CHECK` findings, then one closing finding on the `roles` key that says how many
 * more there are, so a 10,000-role map gives a readable list rather than 10,000 squiggles.
 */
export class CappedReporter {
  private count = 0;
  constructor(
    private readonly context: CheckContext,
    private readonly block: BlockNodes,
    private readonly what: string,
  ) {}

  /** `finding` may be a function, so that nothing is computed for findings past the cap. */
  report(finding: ReportedFinding | (() => ReportedFinding)): void {
    if (++this.count <= MAX_FINDINGS_PER_CHECK) this.context.report(typeof finding === "function" ? finding() : finding);
  }

  finish(): void {
    const more = this.count - MAX_FINDINGS_PER_CHECK;
    if (more <= 0) return;
    const anchor = (this.block.rolesNode && propertyKeyNode(this.block.rolesNode)) ?? propertyKeyNode(this.block.node) ?? this.block.node;
    this.context.report({
      message: `${more} more ${this.what} in this authorization block ${more === 1 ? "is" : "are"} not listed.`,
      detail: `Only the first ${MAX_FINDINGS_PER_CHECK} are shown.`,
      span: spanOf(anchor),
    });
  }
}
