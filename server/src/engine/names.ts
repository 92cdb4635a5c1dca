import { closeName } from "./authorization/suggest";

/** How many valid names an "unknown name" message lists: a config can have 10,000 roles or subagents. */
export const LISTED_NAMES = 20;

/**
 * `No role named "admn". Did you mean "admin"? Roles: admin, user, … and 9,998 more.`: the closest name first (when
 * one is close enough to be a typo), then the others in the config's order, at most LISTED_NAMES in all, each name
 * once. The CLI's usage errors and the editor's pickers and previews say it the same way.
 */
export function unknownNameMessage(what: string, plural: string, word: string, names: readonly string[]): string {
  const distinct = [...new Set(names)].filter((n) => n !== "");
  const close = closeName(word, distinct);
  const ordered = close === undefined ? distinct : [close, ...distinct.filter((n) => n !== close)];
  const shown = ordered.slice(0, LISTED_NAMES).map(listedName);
  const more = ordered.length - shown.length;
  const hint = close === undefined ? "" : ` Did you mean ${JSON.stringify(close)}?`;
  const list = `${shown.join(", ")}${more > 0 ? `, … and ${more.toLocaleString("en")} more` : ""}`;
  return `No ${what} named ${JSON.stringify(word)}.${hint} ${plural}: ${list}.`;
}

/** A name in a list of names: as written, or as a JSON string when it could be misread (`admin ` next to `admin`). */
export function listedName(name: string): string {
  return /^[^\s,"]+$/.test(name) ? name : JSON.stringify(name);
}
