import { allRuleLists } from "../../config/model";
import type { Check } from "../check";
import { patternTable } from "../common/patternTable";
import { runtimeLabel } from "../../runtime/runtime";

/**
 * A pattern the runtime's matcher refuses at call time: picomatch throws for patterns over 65,536 characters,
 * and wcmatch raises when brace expansion yields more patterns than its limit. The config builds, but every tool
 * call that reaches the rule fails with that error, so the agent cannot use the filesystem past it.
 */
export const patternTooComplex: Check = {
  code: "pattern-too-complex",
  severity: "error",
  summary: "The runtime's glob matcher refuses this pattern: every tool call that reaches the rule fails.",
  run(context) {
    const table = patternTable(context);
    for (const list of allRuleLists(context.model)) {
      for (const rule of list.rules) {
        for (const node of rule.pathNodes) {
          const pattern = node.value;
          if (typeof pattern !== "string" || pattern === "") continue;
          for (let r = 0; r < context.runtimes.length; r++) {
            const runtime = context.runtimes[r]!;
            // Only a pattern the matcher could refuse is compiled (compiling every pattern dominates `check`).
            const error = runtime.mayRefusePattern(pattern) ? table.compile(runtime, pattern).unusable : undefined;
            if (!error) continue;
            const length = pattern.length > 1000 ? ` (${pattern.length.toLocaleString("en")} characters)` : "";
            context.report({
              message: `${runtimeLabel(runtime, r === 0)} cannot use this pattern: every tool call reaching its rule fails.`,
              detail: `The runtime's glob matcher refuses the pattern${length}: every tool call that reaches this rule fails with "${error}".`,
              span: { start: node.offset, end: Math.min(node.offset + node.length, node.offset + 200) },
            });
          }
        }
      }
    }
  },
};

