import type { CheckOptions } from "../checkConfig";
import type { Finding } from "../diagnostics";
import { applyAllSafeFixes, type AppliedFix } from "../fixes";
import { checkSourceText, type SourceCheckResult } from "./index";
import { withTree, type SourceLanguage } from "./treeSitter";

/** A source file checked, with what its parse says of its syntax (fix-all's rounds compare it). */
interface Checked extends SourceCheckResult {
  /** Nodes tree-sitter could not read as the language (`ERROR` and `MISSING` ones), counted when first asked. */
  syntaxErrors: () => number;
}

/**
 * Fix-all in a TypeScript, JavaScript or Python file (the editor's `source.fixAll`): every safe fix the source
 * renderer can write there (fixRenderer.ts; one it cannot write is not offered at all), round after round as in a
 * config, each round checked again. A round is kept only when the file still reads as it did: as many agent calls,
 * no syntax error more, no value that became dynamic, and no more errors than before; the first round that fails
 * this ends fix-all with the rounds before it. (`check --fix` writes no source file: only the editor applies this,
 * as an edit the user sees and can undo.)
 */
export function fixAllInSource(text: string, language: SourceLanguage, options: CheckOptions = {}): { text: string; applied: AppliedFix[]; complete: boolean } {
  const check = (t: string): Checked => {
    let counted: number | undefined;
    return { ...checkSourceText(t, language, options), syntaxErrors: () => (counted ??= syntaxErrors(t, language)) };
  };
  const first = check(text);
  // A file without a call (most files a save's fix-all is asked about) has nothing to fix: not parsed again.
  if (first.agents.length === 0) return { text, applied: [], complete: true };
  const all = applyAllSafeFixes(text, first, check, undefined, (after, before) => brokeIt(after, before));
  return { text: all.text, applied: all.applied, complete: all.complete };
}

function brokeIt(after: Checked, before: Checked): boolean {
  if (after.agents.length !== before.agents.length || after.syntaxErrors() > before.syntaxErrors()) return true;
  if (count(after.findings, (f) => f.code === "source-dynamic") > count(before.findings, (f) => f.code === "source-dynamic")) return true;
  const dynamic = (r: Checked) => r.agents.reduce((n, a) => n + (a.model.dynamic?.length ?? 0), 0);
  if (dynamic(after) > dynamic(before)) return true;
  return count(after.findings, (f) => f.severity === "error") > count(before.findings, (f) => f.severity === "error");
}

function count(findings: readonly Finding[], which: (f: Finding) => boolean): number {
  let n = 0;
  for (const f of findings) if (which(f)) n++;
  return n;
}

function syntaxErrors(text: string, language: SourceLanguage): number {
  return (
    withTree(language, text, (tree) => {
      if (!tree.rootNode.hasError) return 0;
      let n = 0;
      const cursor = tree.walk();
      try {
        // Every ERROR and MISSING node, depth first (a cursor: no node objects for the rest of the tree).
        for (;;) {
          if (cursor.nodeIsMissing || cursor.nodeType === "ERROR") n++;
          if (cursor.gotoFirstChild()) continue;
          while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return n;
        }
      } finally {
        cursor.delete();
      }
    }) ?? Number.MAX_SAFE_INTEGER
  );
}
