import { allRuleLists, type RuleSpec } from "../../config/model";
import { quotedText } from "../../config/describe";
import { spanOf } from "../../config/parse";
import { RUNTIME_IDS, runtimeById, runtimeLabelFor, type CompiledPattern, type Runtime } from "../../runtime";
import type { Check } from "../check";
import { patternTable, probeMatcher } from "../common/patternTable";
import { analysable, type ExampleFill, examplePaths, isCanonical, isStructural, leadingFolders, scanGlob } from "../../runtime/globText";
import { cachesPerOwner } from "../../caches";
import { replaceWith } from "../../fixOperations";

/**
 * docs/reference/globs.md (G28, G34, G37, G100, T27): picomatch compiles a leading `/**\/` to "a slash, one or more segments,
 * a slash", so `/**\/.env` does not match `/.env` at the root, while wcmatch's `**` also matches zero segments.
 * `/{,**\/}name` matches the root in both (G101–G102). Reported only with a root path the runtime's matcher
 * confirms is missed, and that no other pattern of the same rule catches.
 */
export const patternRootGlobstar: Check = {
  code: "pattern-root-globstar",
  severity: "information",
  summary: "A leading `/**/name` does not match `/name` at the root in deepagents-js.",
  run(context) {
    const affected = context.runtimes.filter(needsOneSegment);
    if (affected.length === 0) return;
    const runtime = affected[0]!;
    const who = runtimeLabelFor(runtime, context.model);
    const others = RUNTIME_IDS.map(runtimeById).filter((r) => !needsOneSegment(r));
    const table = patternTable(context);
    // What a pattern alone says: `null` when the check does not apply to it, else the root paths the runtime
    // misses and the repair matches, and (per witness) which other runtimes match it. A pure function of the
    // runtime and the pattern, so kept across runs (the language server checks the same patterns on every edit).
    const known = sharedAnalyses.of(runtime);
    // Asked only of patterns that start with `/**/` (the loop below tests that first: most patterns do not).
    const analyse = (pattern: string): PatternAnalysis | null => {
      let found = known.get(pattern);
      if (found === undefined) {
        found = null;
        if (hasLeadingGlobstar(pattern) && !table.pathProblem(runtime, pattern)) {
          const rest = pattern.slice("/**/".length);
          const fixed = `/{,**/}${rest}`;
          // The original is asked first and is mostly simple enough to answer without compiling (`plainMatcher`).
          const original = table.plainMatcher(runtime, pattern);
          let repaired: CompiledPattern | undefined;
          const gaps = examplePaths(`/${rest}`, ROOT_FILL).filter((p) => isCanonical(runtime, p) && !original(p) && (repaired ??= table.compile(runtime, fixed)).matches(p));
          found = { gaps, fixed, othersMatching: new Map() };
        }
        known.set(pattern, found);
      }
      return found;
    };
    // A sibling whose leading folders are not the witness's cannot match it: only the others are compiled.
    const siblingMatches = (rule: RuleSpec, p: string) => rule.pathNodes.some((n) => analysable(n.value) && p.startsWith(leadingFolders(n.value)) && table.plainMatcher(runtime, n.value)(p));
    for (const list of allRuleLists(context.model)) {
      for (const rule of list.rules) {
        for (const node of rule.pathNodes) {
          if (typeof node.value !== "string" || !node.value.startsWith("/**/") || !analysable(node.value)) continue;
          const pattern = node.value;
          const analysed = analyse(pattern);
          if (!analysed) continue;
          const { fixed } = analysed;
          const witness = analysed.gaps.find((p) => !siblingMatches(rule, p));
          if (!witness) continue;
          let otherMatches = analysed.othersMatching.get(witness);
          if (!otherMatches) {
            otherMatches = others.filter((r) => isCanonical(r, witness) && table.plainMatcher(r, pattern)(witness)).map((r) => r.label);
            analysed.othersMatching.set(witness, otherMatches);
          }
          const also = otherMatches.length > 0 ? ` (${otherMatches.join(", ")} does match it)` : "";
          context.report({
            message: `In ${who}, the pattern ${quotedText(pattern)} does not match ${JSON.stringify(witness)} at the root.`,
            detail: `In ${who}, a leading "/**/" needs at least one folder: this pattern does not match ${JSON.stringify(witness)} at the root${also}. Write ${JSON.stringify(fixed)} to include the root.`,
            span: spanOf(node),
            witness,
            fixes: [{ title: `Include the root: ${JSON.stringify(fixed)}`, operations: [replaceWith(node, fixed)], safe: false }],
          });
        }
      }
    }
  },
};

interface PatternAnalysis {
  readonly gaps: readonly string[];
  readonly fixed: string;
  /** Per witness: the labels of the other runtimes whose matcher matches it with the same pattern. */
  readonly othersMatching: Map<string, readonly string[]>;
}
/** Per runtime, per pattern; emptied when it holds this many. */
const SHARED_ENTRIES = 4096;
const sharedAnalyses = cachesPerOwner<Runtime, string, PatternAnalysis | null>("checks/patternRootGlobstar.sharedAnalyses", { entries: SHARED_ENTRIES });

const ROOT_FILL: ExampleFill = { globstar: ["a", ""], star: ["a", ".env", ""], qmark: ["a"], classChars: ["a", "b", "x", "0", "."] };

function hasLeadingGlobstar(pattern: string): boolean {
  if (!pattern.startsWith("/**/") || pattern.length === 4) return false;
  return scanGlob(pattern).slice(0, 4).every((c) => isStructural(c) && c.braceDepth === 0 && c.parenDepth === 0);
}

/** Asked of the matcher: does `/**\/x` miss `/x`? (picomatch: yes, G34; wcmatch: no.) */
function needsOneSegment(runtime: Runtime): boolean {
  return !probeMatcher(runtime, "/**/x", "/x");
}
