import { didYouMean, editDistance } from "../didYouMean";

/**
 * `didYouMean`, held to a stricter distance: role, resource and tool names are short identifiers where the shared
 * threshold (a third of the length) suggests unrelated words (`custom_resource` → `mcp_servers`,
 * `present_files` → `read_file`). A case difference always counts as close.
 */
export function closeName(word: string, candidates: Iterable<string>): string | undefined {
  const suggestion = didYouMean(word, candidates);
  if (suggestion === undefined) return undefined;
  if (suggestion.toLowerCase() === word.toLowerCase()) return suggestion;
  const limit = Math.max(1, Math.floor(Math.min(word.length, suggestion.length) / 4));
  return editDistance(word, suggestion) <= limit ? suggestion : undefined;
}
