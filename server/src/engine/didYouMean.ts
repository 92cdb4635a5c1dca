/** Optimal-string-alignment distance (Damerau–Levenshtein with adjacent swaps), for did-you-mean suggestions. */
export function editDistance(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  let prev2: number[] = [];
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  for (let i = 1; i <= n; i++) {
    const cur = [i];
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur.push(v);
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[m]!;
}

/** The closest candidate, if it is close enough to be a likely typo (case differences count as close). */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  if (word.length > 200) return undefined;
  // A candidate whose length differs by more than the limit cannot be within it (the distance is at least the
  // difference), so it is not measured; everything else gets its exact distance, ties going to the first.
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === word) return undefined;
    const limit = limitFor(word, candidate);
    const d = candidate.toLowerCase() === word.toLowerCase() ? 0.5 : Math.abs(word.length - candidate.length) > limit ? Infinity : editDistance(word, candidate);
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
