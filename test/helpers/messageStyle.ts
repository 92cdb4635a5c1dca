import type { Finding } from "../../server/src/engine/diagnostics";

/**
 * The codes whose messages are rewritten on their own branches (dotfiles-unprotected, dot-segment-bypass,
 * subagent-escalation): exempt here until those branches are merged, when this list is emptied.
 */
export const STYLE_EXEMPT_CODES: ReadonlySet<string> = new Set([]);

/** The most words a message may have (a quoted name, `"/workspace/my file.txt"`, counts as one). */
export const MAX_MESSAGE_WORDS = 19;

/**
 * What is wrong with a finding's wording, by the house style: the message is one plain-text sentence of under 20
 * words that ends with a period (editors show it as plain text, so no backticks; users have no spec, so no "§");
 * the detail, when there is one, is plain text too; fix titles have no backticks. Empty when all is well.
 */
export function styleProblems(finding: Pick<Finding, "code" | "message" | "detail" | "fixes" | "related">): string[] {
  const problems: string[] = [];
  const { message } = finding;
  const say = (what: string) => problems.push(`${finding.code}: ${what}: ${JSON.stringify(message)}`);
  if (message.includes("`")) say("a backtick in the message");
  if (message.includes("§")) say("a § reference in the message");
  if (!message.endsWith(".")) say("the message does not end with a period");
  // Quoted names are one word each, and their text is not read for sentence ends.
  const unquoted = message.replace(/"(?:[^"\\]|\\.)*"/g, "Q");
  const words = unquoted.split(/\s+/).filter((w) => w !== "");
  if (words.length > MAX_MESSAGE_WORDS) say(`${words.length} words in the message`);
  if (/[.!?]\s/.test(unquoted.slice(0, -1))) say("more than one sentence in the message");
  if (finding.detail !== undefined) {
    if (finding.detail.includes("`")) say(`a backtick in the detail ${JSON.stringify(finding.detail)}`);
    if (finding.detail.includes("§")) say(`a § reference in the detail ${JSON.stringify(finding.detail)}`);
    if (finding.detail.trim() === "") say("an empty detail");
  }
  for (const fix of finding.fixes ?? []) if (fix.title.includes("`")) say(`a backtick in the fix title ${JSON.stringify(fix.title)}`);
  for (const r of finding.related ?? []) if (r.message.includes("`") || r.message.includes("§")) say(`a backtick or § in related information ${JSON.stringify(r.message)}`);
  return problems;
}
