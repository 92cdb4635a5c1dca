import type { Edit, Finding, Fix, FixGroup } from "./diagnostics";
import type { Span } from "./text";

/** One fix fix-all applied: its finding's code, and what it did (`Fix.applied`, else its title). */
export interface AppliedFix {
  readonly code: string;
  readonly did: string;
}

/**
 * One round of fix-all: the first safe fix of each finding whose edits touch no edit already chosen (the first fix
 * wins a conflict; the caller re-checks and applies the rest in the next round); `applied` says what each did.
 * A fix proved on a rule list as it stands (`provenOn`) needs that list unchanged by any other fix of the round:
 * a group proved together (`together`) goes whole, first; otherwise one such fix per list. What is left is proved
 * again on the re-checked text, next round.
 */
export function applySafeFixes(text: string, findings: readonly Finding[]): { text: string; codes: string[]; applied: AppliedFix[]; left: number } {
  const safe = safeFixes(findings);
  const proofLists = [...new Map(safe.flatMap((f) => (f.fix.provenOn ? [[spanKey(f.fix.provenOn), f.fix.provenOn] as const] : []))).values()];
  // Lists another fix of this round changes: their proofs wait for the re-check.
  const busy = new Set(listsChangedBy(safe, proofLists).map(spanKey));
  const chosen = new ChosenEdits();
  const applied: AppliedFix[] = [];
  const describe = (code: string, fix: Fix): AppliedFix => ({ code, did: fix.applied ?? fix.title });
  // Groups first: the members' edits go in as the group made them (they may touch one another, never overlap).
  const groups = new Map<FixGroup, { code: string; fix: Fix }[]>();
  for (const f of safe) if (f.fix.together) groups.set(f.fix.together, [...(groups.get(f.fix.together) ?? []), f]);
  const goneWith = new Set<FixGroup>();
  const listsGrouped = new Set<string>();
  for (const [group, members] of groups) {
    const list = spanKey(group.list);
    if (busy.has(list) || group.edits.some((e) => chosen.touches(e))) continue;
    busy.add(list);
    goneWith.add(group);
    listsGrouped.add(list);
    for (const e of group.edits) chosen.add(e);
    for (const did of group.applied) applied.push({ code: members[0]!.code, did });
  }
  // Safe fixes this round leaves for the next one: neither applied nor gone with their group, nor left out of the
  // group of their list (a group takes its list to its fixed point: rule-redundant's groupRemovals).
  let left = 0;
  for (const { code, fix } of safe) {
    if (fix.together && goneWith.has(fix.together)) continue;
    const list = fix.provenOn && spanKey(fix.provenOn);
    if ((list && busy.has(list)) || fix.edits.some((e) => chosen.touches(e))) {
      if (!(list && listsGrouped.has(list))) left++;
      continue;
    }
    if (list) busy.add(list);
    for (const e of fix.edits) chosen.add(e);
    applied.push(describe(code, fix));
  }
  return { text: applyEdits(text, chosen.edits), codes: applied.map((a) => a.code), applied, left };
}

/** The first safe fix of each finding that has one: the fix fix-all would apply. */
function safeFixes(findings: readonly Finding[]): { code: string; fix: Fix }[] {
  return findings.map((f) => ({ code: f.code, fix: f.fixes?.find((x) => x.safe) })).filter((f): f is { code: string; fix: Fix } => f.fix !== undefined);
}

/** Of `lists` (rule lists: they never nest), those an edit of a safe fix not proved on a list (no `provenOn`) falls within. */
function listsChangedBy(safe: readonly { fix: Fix }[], lists: readonly Span[]): Span[] {
  // By start, for a binary search per edit: a file of 10,000 subagents has as many lists, and as many fixes.
  const sorted = [...lists].sort((a, b) => a.start - b.start || a.end - b.end);
  const changed = new Set<Span>();
  for (const { fix } of safe) {
    if (fix.provenOn) continue;
    for (const edit of fix.edits) {
      let low = 0;
      let high = sorted.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (sorted[mid]!.start <= edit.span.start) low = mid + 1;
        else high = mid;
      }
      // Lists that start where the edit does or before it, nearest first (one span may be given twice).
      for (let k = low - 1; k >= 0 && sorted[k]!.end >= edit.span.start; k--) if (edit.span.end <= sorted[k]!.end) changed.add(sorted[k]!);
    }
  }
  return lists.filter((list) => changed.has(list));
}

/**
 * The rule lists (their spans) whose proofs a round of fix-all on `findings` would hold back: lists the safe fixes
 * among `findings` that are not proved on a list change. A round may leave them unproved (checkConfig.ts
 * `fixRound`): whatever safe fix is proved on one of them, `applySafeFixes` leaves it for the next round.
 */
export function listsHeldBack(findings: readonly Finding[], lists: readonly Span[]): Span[] {
  return listsChangedBy(safeFixes(findings), lists);
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
 * Rounds of fix-all (`check --fix`, `source.fixAll`) before it stops with safe fixes left: each round applies what
 * it can and re-checks. Rule removals of one list go together (`Fix.together`), so a config reaches its fixed point
 * in a few rounds; the bound is for a chain of fixes that keeps making work for the next round.
 */
export const FIX_ROUNDS = 100;

/**
 * Every safe fix, round after round, each round re-checked (`recheck`) until none is left (a fixed point): the
 * text, the last check's result, what was applied, and whether the fixed point was reached (`complete`: false when
 * FIX_ROUNDS rounds ran and safe fixes are still offered, or a round broke the file). A round whose text no longer
 * parses (a bug of ours: a fix must never do that) is dropped, and fixing stops there.
 *
 * With `finalCheck` (a host whose rounds check only what offers safe fixes, checkConfig.ts `fixRound`, and which
 * reports a full check of the text they end with): a round that left no safe fix and no unproved list
 * (`heldBack`) for the next one has, as a rule, reached the fixed point, so its text gets the full check at once,
 * instead of a round's check and then the full one. Its safe fixes are a round's (fixRound.test.ts), so a fixed point not reached goes on as before;
 * `finalChecked` says whether `result` is that full check of `text`.
 */
export function applyAllSafeFixes<R extends { findings: readonly Finding[]; heldBack?: number }>(
  text: string,
  checked: R,
  recheck: (text: string) => R,
  rounds = FIX_ROUNDS,
  /** Whether a round broke what the round before it left (a front end's own test; JSONC's: a syntax error). */
  brokeIt: (after: R, before: R) => boolean = (after, before) => broken(after) && !broken(before),
  finalCheck?: (text: string) => R,
): { text: string; result: R; codes: string[]; applied: AppliedFix[]; complete: boolean; rounds: number; finalChecked: boolean } {
  let result = checked;
  let finalChecked = false;
  const applied: AppliedFix[] = [];
  let round = 0;
  for (; ; round++) {
    const next = applySafeFixes(text, result.findings);
    if (next.applied.length === 0) return { text, result, codes: applied.map((a) => a.code), applied, complete: true, rounds: round, finalChecked };
    if (round === rounds) break;
    // Not when the round's check held lists back (checkConfig.ts `fixRound`): their proofs are the next round's.
    const last = finalCheck !== undefined && next.left === 0 && !result.heldBack;
    const after = last ? finalCheck(next.text) : recheck(next.text);
    if (brokeIt(after, result)) break;
    text = next.text;
    result = after;
    finalChecked = last;
    applied.push(...next.applied);
  }
  return { text, result, codes: applied.map((a) => a.code), applied, complete: false, rounds: round, finalChecked };
}

function broken(result: { findings: readonly Finding[] }): boolean {
  return result.findings.some((f) => f.code === "json-syntax");
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
