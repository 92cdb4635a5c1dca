/** Optimal-string-alignment distance (Damerau–Levenshtein with adjacent swaps), for did-you-mean suggestions. */
export function editDistance(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > 3) return Math.abs(n - m);
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
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === word) return undefined;
    const d = candidate.toLowerCase() === word.toLowerCase() ? 0.5 : editDistance(word, candidate);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  const limit = Math.max(1, Math.floor(Math.max(word.length, best?.length ?? 0) / 3));
  return bestDistance <= limit ? best : undefined;
}
