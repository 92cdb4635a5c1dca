import { allRuleLists } from "../../config/model";
import { spanOf } from "../../config/parse";
import { RUNTIME_IDS, runtimeById, type Runtime } from "../../runtime";
import type { Check } from "../check";
import { probeMatcher } from "../common/patternTable";
import { analysable, examplePaths, type GlobChar, isCanonical, isStructural, PLAIN_FILL, scanGlob } from "../../runtime/globText";

/**
 * docs/reference/globs.md (G60–G65, G75, G111–G113, T36–T37): picomatch (deepagents-js) reads extglobs `@(…)`, `+(…)`,
 * `!(…)`, `?(…)`, `*(…)`, plain `(…)` groups and `|` as operators; wcmatch is called without `EXTGLOB`, so for
 * deepagents-py they are literal characters. Even in deepagents-js, `delete` treats such a pattern as a literal
 * path, because its wildcard test only looks for `* ? { [` (docs/reference/decisions.md, D19).
 */
export const patternRuntimeSyntax: Check = {
  code: "pattern-runtime-syntax",
  severity: "information",
  summary: "Extglobs, `(…)` groups and `|`: operators in deepagents-js, literal text in deepagents-py.",
  run(context) {
    const runtime = context.model.runtime;
    const all = RUNTIME_IDS.map(runtimeById);
    const operatorRuntimes = all.filter(readsGroupsAsOperators);
    const literalRuntimes = all.filter((r) => !readsGroupsAsOperators(r));
    for (const list of allRuleLists(context.model)) {
      for (const rule of list.rules) {
        for (const node of rule.pathNodes) {
          if (!analysable(node.value)) continue;
          const pattern = node.value;
          if (!/[(|]/.test(pattern) || runtime.permissionPathProblem(pattern)) continue;
          const construct = firstGroupConstruct(pattern);
          if (!construct) continue;
          const asOperator = operatorRuntimes.map((r) => ({ r, c: r.compilePattern(pattern) }));
          const asText = literalRuntimes.map((r) => ({ r, c: r.compilePattern(pattern) }));
          const witness = examplePaths(pattern, PLAIN_FILL).find((p) =>
            asOperator.every(({ r, c }) => isCanonical(r, p) && c.matches(p)) && asText.every(({ r, c }) => isCanonical(r, p) && !c.matches(p)));
          const text = JSON.stringify(construct.text);
          let message: string;
          let detail: string;
          if (readsGroupsAsOperators(runtime)) {
            const example = witness ? ` Here it matches ${JSON.stringify(witness)}, which ${literalRuntimes.map((r) => r.label).join(" and ")} does not.` : "";
            // `delete` reads a pattern without `* ? { [` as a literal path (docs/reference/decisions.md, D19); with one of them it globs.
            const literalForDelete = !/[*?{[]/.test(pattern);
            const textFor = literalForDelete ? "deepagents-py and the delete tool's literal-path check treat it as text" : "deepagents-py treats it as text";
            message = `${text} is ${construct.kind}, an operator only deepagents-js reads.`;
            detail = `${text} is ${construct.kind}, a JS-only operator in ${runtime.label}: ${textFor}.${example}`;
          } else {
            const literal = isCanonical(runtime, pattern) && runtime.compilePattern(pattern).matches(pattern) ? ` (for example ${JSON.stringify(pattern)})` : "";
            const others = operatorRuntimes.map((r) => r.label).join(" and ");
            message = `In ${runtime.label}, ${text} is literal text, not ${construct.kind}.`;
            detail = `In ${runtime.label}, "(", ")" and "|" are literal characters here: ${text} is not ${construct.kind}, and only matches a path that spells it out${literal}. ${others} would read it as an operator${witness ? ` (matching ${JSON.stringify(witness)})` : ""}.`;
          }
          context.report({ message, detail, span: spanOf(node), witness });
        }
      }
    }
  },
};

/** Asked of the matcher: does `/@(a|b)` match `/a`? */
function readsGroupsAsOperators(runtime: Runtime): boolean {
  return probeMatcher(runtime, "/@(a|b)", "/a");
}

function firstGroupConstruct(pattern: string): { text: string; kind: string } | undefined {
  const chars = scanGlob(pattern);
  for (const [k, c] of chars.entries()) {
    if (!isStructural(c)) continue;
    if (c.ch === "(" && c.close !== undefined) {
      const prefix = prefixOf(chars, k);
      const start = prefix ? k - 1 : k;
      return { text: pattern.slice(chars[start]!.index, c.close + 1), kind: prefix ? `an extglob` : "a group" };
    }
    if (c.ch === "|" && c.parenDepth === 0) return { text: "|", kind: "an alternation" };
  }
  return undefined;
}

function prefixOf(chars: readonly GlobChar[], k: number): string | undefined {
  const before = chars[k - 1];
  return before && isStructural(before) && "@?+*!".includes(before.ch) ? before.ch : undefined;
}
