import { allRuleLists } from "../../config/model";
import { spanOf } from "../../config/parse";
import { deepagentsJs, deepagentsPy, runtimeLabelFor, type Runtime } from "../../runtime";
import type { Check } from "../check";
import { probeMatcher } from "../common/patternTable";
import { analysable, examplePaths, isCanonical, PLAIN_FILL, scanGlob } from "../../runtime/globText";
import { replaceWith } from "../../fixOperations";

/**
 * docs/reference/globs.md, `[!a]` (G54–G55, T33–T35): picomatch 2.3.2 has no `[!…]` negation. It compiles `[!a]` to
 * `(?:\[!a\]|[!a])`: the literal text `[!a]`, or one of `!` and `a`. wcmatch reads `[!a]` as "anything but a".
 * The same rule therefore denies opposite files in the two runtimes. `[^a]` is a negation in both (G56): the fix
 * makes deepagents-js do what the pattern says and leaves deepagents-py unchanged. It is not applied by `--fix`:
 * in deepagents-js it reverses what the rule decides (`/secrets/[!x]key` denies `/secrets/xkey` there, and
 * `[^x]key` allows it), a change the user makes knowingly.
 */
export const patternClassNegation: Check = {
  code: "pattern-class-negation",
  severity: "warning",
  summary: "`[!…]` is a class of `!` and the letters in deepagents-js, a negation in deepagents-py.",
  run(context) {
    const literalRuntimes = context.runtimes.filter(readsBangClassLiterally);
    if (literalRuntimes.length === 0) return;
    for (const list of allRuleLists(context.model)) {
      for (const rule of list.rules) {
        for (const node of rule.pathNodes) {
          if (!analysable(node.value)) continue;
          const pattern = node.value;
          if (!pattern.includes("[!") || context.runtimes.some((r) => r.permissionPathProblem(pattern))) continue;
          // A class holding a `/` is no class in wcmatch (the brackets are then literal text: `/data/[!/]` matches
          // only itself), and `[^/]` would not negate there either: neither the message nor the fix holds for it.
          const bangs = scanGlob(pattern).filter((c, k, all) => c.inClass && c.close !== undefined && all[k + 1]?.ch === "!" && !pattern.slice(c.index, c.close + 1).includes("/"));
          if (bangs.length === 0) continue;
          const first = bangs[0]!;
          const classText = pattern.slice(first.index, first.close! + 1);
          const fixed = bangs.reduceRight((text, c) => `${text.slice(0, c.index + 1)}^${text.slice(c.index + 2)}`, pattern);
          const runtime = literalRuntimes[0]!;
          const who = runtimeLabelFor(runtime, context.model);
          const witnesses = disagreement(pattern);
          const example = witnesses
            ? ` For example, ${deepagentsJs.label} matches ${JSON.stringify(witnesses.jsOnly)} and ${deepagentsPy.label} does not${witnesses.pyOnly ? `, while ${deepagentsPy.label} matches ${JSON.stringify(witnesses.pyOnly)} and ${deepagentsJs.label} does not` : ""}.`
            : "";
          context.report({
            message: `${JSON.stringify(classText)} is not a negation in ${who}: the runtimes decide different files.`,
            detail: `In ${who}, picomatch reads ${JSON.stringify(classText)} as a plain class that also accepts "!" (and the pattern also matches the literal text ${JSON.stringify(classText)}), while ${deepagentsPy.label} reads it as "any character except those listed after !". This rule decides different files in the two runtimes.${example} Write ${JSON.stringify(`[^${classText.slice(2)}`)}, which negates in both.`,
            span: spanOf(node),
            witness: witnesses?.jsOnly,
            fixes: [{ title: `Change to ${JSON.stringify(fixed)}`, operations: [replaceWith(node, fixed)], safe: false }],
          });
        }
      }
    }
  },
};

/** Asked of the matcher: a runtime for which `/[!a]` matches `/a` has no `[!…]` negation. */
function readsBangClassLiterally(runtime: Runtime): boolean {
  return probeMatcher(runtime, "/[!a]", "/a");
}

/** A path only deepagents-js matches (and one only deepagents-py matches), confirmed by both matchers. */
function disagreement(pattern: string): { jsOnly: string; pyOnly?: string } | undefined {
  const js = deepagentsJs.compilePattern(pattern);
  const py = deepagentsPy.compilePattern(pattern);
  const fill = { ...PLAIN_FILL, classChars: ["a", "b", "c", "x", "!", "0", "1", "-", "_"], everyClassChar: true };
  const candidates = examplePaths(pattern, fill).filter((p) => isCanonical(deepagentsJs, p) && isCanonical(deepagentsPy, p));
  const jsOnly = candidates.find((p) => js.matches(p) && !py.matches(p));
  if (!jsOnly) return undefined;
  const pyOnly = candidates.find((p) => py.matches(p) && !js.matches(p));
  return { jsOnly, pyOnly };
}
