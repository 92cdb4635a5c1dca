import type { Edit, Finding } from "./diagnostics";

/**
 * Applies the safe fixes of `findings` whose edits do not overlap one another (the first fix wins a conflict;
 * the caller re-checks and applies the rest in the next round). Returns the new text and how many fixes applied.
 */
/** Applies the first safe fix of each finding whose edits touch no edit already chosen; `codes` names each one applied. */
export function applySafeFixes(text: string, findings: readonly Finding[]): { text: string; applied: number; codes: string[] } {
  const chosen: Edit[] = [];
  const codes: string[] = [];
  for (const finding of findings) {
    const fix = finding.fixes?.find((f) => f.safe);
    if (!fix || fix.edits.some((e) => chosen.some((c) => overlaps(c, e)))) continue;
    chosen.push(...fix.edits);
    codes.push(finding.code);
  }
  return { text: applyEdits(text, chosen), applied: codes.length, codes };
}

export function applyEdits(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.span.start - a.span.start || b.span.end - a.span.end)) {
    out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  }
  return out;
}

function overlaps(a: Edit, b: Edit): boolean {
  // Two insertions at one offset would interleave unpredictably; treat touching spans as a conflict too.
  return a.span.start <= b.span.end && b.span.start <= a.span.end;
}
