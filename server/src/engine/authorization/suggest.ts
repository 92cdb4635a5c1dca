import { DistanceRows } from "../didYouMean";

const ASCII = /^[\x00-\x7f]*$/;

/**
 * `didYouMean`, held to a stricter distance: role, resource and tool names are short identifiers where the shared
 * threshold (a third of the length) suggests unrelated words (`custom_resource` → `mcp_servers`,
 * `present_files` → `read_file`). A case difference always counts as close.
 *
 * Exactly `didYouMean(word, candidates)` followed by that stricter test (test/authorization/suggest.test.ts holds
 * the two side by side), computed so that it stays cheap against many candidates: a tool-name check asks it about
 * up to 100 names against every tool of 10,000 subagents. Only a candidate within a quarter of the word's length
 * (at least 1) can pass the stricter test, and only such a candidate can beat one that does, so distances are
 * computed up to that bound and no further.
 */
export function closeName(word: string, candidates: Iterable<string>): string | undefined {
  if (word.length > 200) return undefined; // didYouMean's own limit
  const reach = Math.max(1, Math.floor(word.length / 4));
  // Lowercasing maps each unit that becomes ASCII to one unit: for an ASCII word, a case-only difference needs the
  // same length, so a candidate further off in length can be skipped unread.
  const asciiWord = ASCII.test(word);
  const lower = word.toLowerCase();
  const rows = new DistanceRows();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const lengthGap = Math.abs(candidate.length - word.length);
    if (asciiWord && lengthGap > reach) continue;
    if (candidate === word) return undefined;
    let d: number;
    if ((lengthGap === 0 || !asciiWord) && candidate.toLowerCase() === lower) d = 0.5;
    else d = rows.boundedDistance(word, candidate, reach);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  if (best === undefined) return undefined;
  // didYouMean's threshold, then the stricter one (a distance past `reach` fails both as it failed before).
  if (bestDistance > Math.max(1, Math.floor(Math.max(word.length, best.length) / 3))) return undefined;
  if (best.toLowerCase() === lower) return best;
  // `limit` is at most `reach`, and a distance up to `reach` is exact.
  const limit = Math.max(1, Math.floor(Math.min(word.length, best.length) / 4));
  return bestDistance <= limit ? best : undefined;
}
