import type { Edit, Finding, Fix } from "./diagnostics";
import type { Span } from "./text";

/**
 * One round of fix-all: the first safe fix of each finding whose edits touch no edit already chosen (the first fix
 * wins a conflict; the caller re-checks and applies the rest in the next round); `codes` names each one applied.
 * A fix proved on a rule list as it stands (`provenOn`) goes alone: one per list, and only when no other fix of
 * this round edits that list. What is left is proved again on the re-checked text, next round.
 */
export function applySafeFixes(text: string, findings: readonly Finding[]): { text: string; codes: string[] } {
  const safe = findings.map((f) => ({ code: f.code, fix: f.fixes?.find((x) => x.safe) })).filter((f): f is { code: string; fix: Fix } => f.fix !== undefined);
  const proofLists = [...new Map(safe.flatMap((f) => (f.fix.provenOn ? [[spanKey(f.fix.provenOn), f.fix.provenOn] as const] : []))).values()];
  const within = (list: Span, edit: Edit) => edit.span.start >= list.start && edit.span.end <= list.end;
  // Lists another fix of this round changes: their proofs wait for the re-check.
  const busy = new Set<string>();
  for (const { fix } of safe) {
    if (fix.provenOn) continue;
    for (const list of proofLists) if (fix.edits.some((e) => within(list, e))) busy.add(spanKey(list));
  }
  const chosen = new ChosenEdits();
  const codes: string[] = [];
  for (const { code, fix } of safe) {
    const list = fix.provenOn && spanKey(fix.provenOn);
    if (list && busy.has(list)) continue;
    if (fix.edits.some((e) => chosen.touches(e))) continue;
    if (list) busy.add(list);
    for (const e of fix.edits) chosen.add(e);
    codes.push(code);
  }
  return { text: applyEdits(text, chosen.edits), codes };
}

/**
 * The edits chosen so far, by start offset, for the question "does this one touch any?" in a binary search: asked
 * of every chosen edit in turn, 100,000 duplicate tools took a minute and a half to fix.
 */
class ChosenEdits {
  readonly edits: Edit[] = [];

  /** Overlaps or touches one: two insertions at one offset would interleave unpredictably, so touching counts. */
  touches(edit: Edit): boolean {
    // Chosen edits do not touch one another, so their ends grow with their starts: looking back from the last one
    // that starts at or before this one's end, the first that ends before this one starts settles it.
    for (let k = this.lastStartingBy(edit.span.end); k >= 0; k--) {
      const c = this.edits[k]!;
      if (c.span.end < edit.span.start) return false;
      if (overlaps(c, edit)) return true;
    }
    return false;
  }

  add(edit: Edit): void {
    this.edits.splice(this.lastStartingBy(edit.span.start) + 1, 0, edit);
  }

  /** Index of the last edit whose start is at or before `offset` (-1 when none). */
  private lastStartingBy(offset: number): number {
    let low = 0;
    let high = this.edits.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.edits[mid]!.span.start <= offset) low = mid + 1;
      else high = mid;
    }
    return low - 1;
  }
}

const spanKey = (span: Span) => `${span.start}:${span.end}`;

/**
 * Rounds of fix-all (`check --fix`, `source.fixAll`) before it stops: each applies what it can and re-checks. A
 * proved rule removal goes one per list per round, so a list with many redundant rules takes as many rounds.
 */
export const FIX_ROUNDS = 100;

/**
 * Every safe fix, round after round, each round re-checked (`recheck`) until none is left: the text, the last
 * check's result, and the codes of the fixes applied. A round whose text no longer parses (a bug of ours: a fix
 * must never do that) is dropped, and fixing stops there.
 */
export function applyAllSafeFixes<R extends { findings: readonly Finding[] }>(text: string, checked: R, recheck: (text: string) => R): { text: string; result: R; codes: string[] } {
  let result = checked;
  const codes: string[] = [];
  const broken = (r: R) => r.findings.some((f) => f.code === "json-syntax");
  for (let round = 0; round < FIX_ROUNDS; round++) {
    const next = applySafeFixes(text, result.findings);
    if (next.codes.length === 0) break;
    const after = recheck(next.text);
    if (broken(after) && !broken(result)) break;
    text = next.text;
    result = after;
    codes.push(...next.codes);
  }
  return { text, result, codes };
}

/** The text with non-overlapping `edits` applied, in one pass (100,000 fixes in a large file took minutes one slice at a time). */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  // Edits at one offset land in the order they always did: the last given first (an insertion before a
  // replacement that starts there).
  const sorted = edits.map((e, i) => ({ e, i })).sort((a, b) => a.e.span.start - b.e.span.start || a.e.span.end - b.e.span.end || b.i - a.i).map((x) => x.e);
  const parts: string[] = [];
  let at = 0;
  for (const e of sorted) {
    parts.push(text.slice(at, e.span.start), e.newText);
    at = Math.max(at, e.span.end);
  }
  parts.push(text.slice(at));
  return parts.join("");
}

function overlaps(a: Edit, b: Edit): boolean {
  // Two insertions at one offset would interleave unpredictably; treat touching spans as a conflict too.
  return a.span.start <= b.span.end && b.span.start <= a.span.end;
}
