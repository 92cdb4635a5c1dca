import { exactAnalysis } from "../../analysisLoader";
import type { DotfileGap } from "../../automata/dotfileGaps";
import { describeList, quotedText } from "../../config/describe";
import { allRuleLists } from "../../config/model";
import { spanOf } from "../../config/parse";
import { CHECK_AUTOMATA_STEPS, type Check } from "../check";
import { runtimeLabelFor } from "../../runtime/runtime";
import { insertElements } from "../../fixOperations";

/** How many nested hidden names the quick fix reaches; a deny whose gaps all lie deeper is reported as information. */
export const DOTFILE_FIX_DEPTH = 3;

/**
 * deepagents-js matches with `{ dot: true }`; deepagents-py calls wcmatch without `DOTGLOB`, so there `*`, `**`,
 * `?` and classes never take a name that starts with `.`. A deny written with dot matching in mind leaves `.env`
 * and `.git/` open in Python. Decided exactly on automata (automata/dotfileGaps.ts): the paths a deny covers read
 * with dot matching, that the list so read denies, and that deepagents-py's list does not deny, at any depth of
 * hidden folders. No finite list of patterns closes that at every depth in deepagents-py, so the quick fix closes
 * it to `DOTFILE_FIX_DEPTH` hidden names and the finding stays, as information, naming the first path still open.
 */
export const dotfilesUnprotected: Check = {
  code: "dotfiles-unprotected",
  severity: "warning",
  summary: "In deepagents-py a deny's wildcards skip names that start with a dot (.env, .git), unlike deepagents-js.",
  run(context) {
    const runtime = context.runtimes.find((r) => r.wildcardsSkipDotNames);
    if (!runtime) return;
    const who = runtimeLabelFor(runtime, context.model);
    // A list too large for the exact analysis of this file is left out here too (it is listed once under skipped).
    const { dotfileGaps, modelAnalysis, WorkAllowance, DEFAULT_PRODUCT_BUDGET } = exactAnalysis();
    const analysis = modelAnalysis(context.model);
    // The check's own automata work on the whole file, counted across its lists.
    const allowance = new WorkAllowance(context.automataSteps ?? CHECK_AUTOMATA_STEPS);
    for (const list of allRuleLists(context.model)) {
      if (!analysis.reads(list)) continue;
      const { gaps, skipped } = dotfileGaps(runtime, list.rules.map((r) => r.input), DOTFILE_FIX_DEPTH, DEFAULT_PRODUCT_BUDGET, allowance);
      for (const s of skipped) {
        const node = s.byBudget ? list.node : list.rules[s.ruleIndex]!.node;
        context.skip?.({ what: s.byBudget ? describeList(list) : `rule ${s.ruleIndex} of ${describeList(list)}`, why: s.reason, span: spanOf(node) });
      }
      // One finding per deny: a gap the fix can reach before one it cannot, then the shorter witness (then read).
      const byRule = new Map<number, DotfileGap>();
      for (const gap of gaps) {
        const known = byRule.get(gap.ruleIndex);
        if (!known || (gap.shallow && !known.shallow) || (gap.shallow === known.shallow && gap.witness.length < known.witness.length)) byRule.set(gap.ruleIndex, gap);
      }
      for (const gap of byRule.values()) {
        const rule = list.rules[gap.ruleIndex]!;
        const node = rule.pathNodes[gap.pathIndex]!;
        const fix = gap.shallow ? fixFor(node.value as string) : undefined;
        const pattern = quotedText(node.value as string);
        const witness = shownPath(gap.witness);
        context.report({
          message: gap.shallow
            ? `In ${who}, this deny does not cover ${witness}: wildcards skip names starting with a dot.`
            : `In ${who}, this deny still misses hidden names nested more than ${DOTFILE_FIX_DEPTH} deep, such as ${witness}.`,
          detail:
            `Read with dot matching (as deepagents-js reads it), ${pattern} covers ${gap.operation} ${witness} and this list denies it; ` +
            `${runtime.label} matches with wcmatch without DOTGLOB, where *, ** and ? never take a name that starts with ".", and no rule of the list denies it there. ` +
            `No finite list of patterns reaches hidden folders at every depth in ${runtime.label}: ` +
            (gap.shallow
              ? fix?.complete
                ? `here one level is enough, and the quick fix adds ${fix.added.join(", ")}, which covers every hidden name there.`
                : fix
                ? `the quick fix adds patterns for up to ${DOTFILE_FIX_DEPTH} nested hidden names (${fix.added.join(", ")}).`
                : `spell the hidden names out in patterns of their own (for a folder, "<dir>/.*" and "<dir>/**/.*").`
              : `every path with up to ${DOTFILE_FIX_DEPTH} nested hidden names is denied, and ${witness} is the first one still open.`),
          span: spanOf(node),
          witness: gap.witness,
          ...(gap.shallow ? {} : { severity: "information" as const }),
          fixes: fix ? [{ title: fix.title, operations: [insertElements(rule.pathsNode!, gap.pathIndex + 1, fix.added)], safe: false }] : [],
        });
      }
    }
  },
};

/** A witness as messages show it: a path past a hundred characters is cut (the finding's `witness` has it whole). */
function shownPath(path: string): string {
  return path.length <= 100 ? path : `${path.slice(0, 60)}… (${path.length.toLocaleString("en")} characters)`;
}

/** Folder text with no glob syntax in either runtime. */
const LITERAL = /^[^*?[\]{}()!+@|\\]*$/;

/**
 * What spells the hidden names out, for the shapes whose meaning is plain: `<dir>/*` (one level: `<dir>/.*`, all
 * of them) and `<dir>/**` or `<dir>/**\/<name…>` (any depth: patterns for 1 to `DOTFILE_FIX_DEPTH` nested hidden
 * names, each a `.*` between `**`s). `{,/**}` adds "or anything below it": wcmatch's trailing `/**` needs a `/`.
 */
export function fixFor(pattern: string): { readonly title: string; readonly added: readonly string[]; readonly complete: boolean } | undefined {
  if (pattern.endsWith("/*") && LITERAL.test(pattern.slice(0, -2))) {
    const added = [`${pattern.slice(0, -2)}/.*`];
    return { title: `Also deny dotfiles: add ${JSON.stringify(added[0])}`, added, complete: true };
  }
  let added: readonly string[] | undefined;
  if (pattern.endsWith("/**") && LITERAL.test(pattern.slice(0, -3))) {
    const dir = pattern.slice(0, -3);
    added = Array.from({ length: DOTFILE_FIX_DEPTH }, (_, k) => `${dir}/**${"/.*/**".repeat(k)}/.*{,/**}`);
  } else {
    const at = pattern.indexOf("/**/");
    const dir = at < 0 ? "" : pattern.slice(0, at);
    const names = at < 0 ? "" : pattern.slice(at + 4);
    if (at >= 0 && LITERAL.test(dir) && names.length > 0 && LITERAL.test(names)) {
      added = Array.from({ length: DOTFILE_FIX_DEPTH }, (_, k) => `${dir}/**${"/.*/**".repeat(k + 1)}/${names}`);
    }
  }
  if (!added) return undefined;
  return { title: `Also deny dotfiles up to ${DOTFILE_FIX_DEPTH} nested hidden names: add ${added.length} patterns`, added, complete: false };
}
