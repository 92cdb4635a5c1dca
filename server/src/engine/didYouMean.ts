/** Optimal-string-alignment distance (Damerau–Levenshtein with adjacent swaps), for did-you-mean suggestions. */
export function editDistance(a: string, b: string): number {
  return new DistanceRows().boundedDistance(a, b, Infinity);
}

/** The closest candidate, if it is close enough to be a likely typo (case differences count as close). */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  if (word.length > 200) return undefined;
  // A candidate whose length differs by more than the limit cannot be within it (the distance is at least the
  // difference), so it is not measured; everything else is measured exactly up to the limit (a distance past it
  // only needs to be known as past it), ties going to the first.
  const rows = new DistanceRows();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === word) return undefined;
    const limit = limitFor(word, candidate);
    const d = candidate.toLowerCase() === word.toLowerCase() ? 0.5 : Math.abs(word.length - candidate.length) > limit ? Infinity : rows.boundedDistance(word, candidate, limit);
    if (d > limit) continue;
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}

/** How many edits still read as a typo: a third of the longer word, at least one. */
function limitFor(word: string, candidate: string): number {
  return Math.max(1, Math.floor(Math.max(word.length, candidate.length) / 3));
}

/**
 * Three rows of the distance table, grown as needed and reused from one candidate to the next: the one edit
 * distance of the engine (didYouMean here, closeName in authorization/suggest.ts).
 */
export class DistanceRows {
  private prev2: number[] = [];
  private prev: number[] = [];
  private cur: number[] = [];

  /**
   * The optimal-string-alignment distance when it is at most `bound`, else some number above `bound`:
   * one row at a time, stopping as soon as a whole row is past the bound (no later row can come back under it: a
   * cell is at least its row's neighbours' minimum, and a swap reaches back two rows only through a cell that the
   * row in between bounds too).
   */
  boundedDistance(a: string, b: string, bound: number): number {
    const n = a.length;
    const m = b.length;
    let { prev2, prev, cur } = this;
    for (let j = 0; j <= m; j++) prev[j] = j;
    for (let i = 1; i <= n; i++) {
      cur[0] = i;
      let rowMin = i;
      for (let j = 1; j <= m; j++) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
        cur[j] = v;
        if (v < rowMin) rowMin = v;
      }
      [prev2, prev, cur] = [prev, cur, prev2]; // the same three buffers, in new roles
      if (rowMin > bound) return bound + 1;
    }
    return prev[m]!;
  }
}
