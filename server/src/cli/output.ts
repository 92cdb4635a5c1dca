/**
 * Output of the commands whose size grows with the config (`tools` on 10,000 roles prints tens of megabytes of
 * JSON): collected into large batches, so that a run makes a few big writes instead of one system call per line.
 */

/** Characters collected before they are written: large enough that writes are few, small enough to bound memory. */
export const BATCH_CHARS = 1 << 20;

export class BatchedOutput {
  private pieces: string[] = [];
  private size = 0;

  constructor(private readonly write: (text: string) => void) {}

  add(text: string): void {
    this.pieces.push(text);
    this.size += text.length;
    if (this.size >= BATCH_CHARS) this.flush();
  }

  flush(): void {
    if (this.size === 0) return;
    const text = this.pieces.join("");
    this.pieces = [];
    this.size = 0;
    this.write(text);
  }
}

/**
 * `JSON.stringify({ [key]: items }, null, 2) + "\n"`, byte for byte, written in batches: the whole document of a
 * 10,000-role config is over 100 MB, and a single string of it would be built and encoded at once. Each item is
 * stringified alone and indented by the two levels it sits at (JSON strings hold no raw line breaks, so every
 * line break is one of JSON.stringify's own).
 */
export function writeJsonList(out: BatchedOutput, key: string, items: Iterable<unknown>): void {
  let first = true;
  for (const item of items) {
    const text = JSON.stringify(item, null, 2);
    // An item JSON.stringify would print as `null` inside an array (a function, undefined) never occurs here.
    out.add(`${first ? `{\n  ${JSON.stringify(key)}: [\n` : ",\n"}    ${text.replace(/\n/g, "\n    ")}`);
    first = false;
  }
  out.add(first ? `${JSON.stringify({ [key]: [] }, null, 2)}\n` : "\n  ]\n}\n");
  out.flush();
}

/** How many valid names a usage error lists: a config can have 10,000 roles or subagents. */
export const LISTED_NAMES = 20;

/**
 * `No role named "admn". Did you mean "admin"? Roles: admin, user, … and 9,998 more.`: the closest name first (when
 * one is close enough to be a typo), then the others in the config's order, at most LISTED_NAMES in all, each name
 * once.
 */
export function unknownNameMessage(what: string, plural: string, word: string, names: readonly string[]): string {
  const distinct = [...new Set(names)].filter((n) => n !== "");
  // Loaded here, not at the top: the CLI loads no engine module before a command needs one.
  const { closeName } = require("../engine/authorization/suggest") as typeof import("../engine/authorization/suggest");
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
