import type { RuleListSpec } from "./model";

/** Longer text is cut in messages: a pattern of 100,000 characters is still a valid entry, and a message that repeats it whole is unreadable. */
const QUOTED_MAX = 120;

/**
 * Text a person typed (a pattern, a regular expression built from one), quoted for a message: whole when it is short,
 * else its start, an ellipsis and its length, so that the message stays readable and names what it is about.
 */
export function quotedText(text: string): string {
  if (text.length <= QUOTED_MAX) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, QUOTED_MAX - 40))}… (${text.length.toLocaleString("en")} characters)`;
}

/** A rule list in words, for messages and the `skipped` list: "the top-level permissions", "… of subagent "x"". */
export function describeList(list: RuleListSpec): string {
  switch (list.owner.kind) {
    case "top-level":
      return "the top-level permissions";
    case "subagent":
      return `the permissions of subagent ${JSON.stringify(list.owner.subagent)}`;
    case "middleware":
      return list.owner.agent === "main"
        ? `the permissions of middleware #${list.owner.middlewareIndex}`
        : `the permissions of middleware #${list.owner.middlewareIndex} of subagent ${JSON.stringify(list.owner.agent)}`;
  }
}
