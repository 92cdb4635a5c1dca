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

/** The engine's names.ts, loaded on first use: the CLI loads no engine module before a command needs one. */
function names(): typeof import("../engine/names") {
  return require("../engine/names") as typeof import("../engine/names");
}

/** See engine/names.ts: `No role named "admn". Did you mean "admin"? Roles: admin, user, … and 9,998 more.` */
export function unknownNameMessage(what: string, plural: string, word: string, listed: readonly string[]): string {
  return names().unknownNameMessage(what, plural, word, listed);
}

/** See engine/names.ts. */
export function listedName(name: string): string {
  return names().listedName(name);
}
