import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export const ROOT = join(__dirname, "..", "..");

/**
 * A fenced code block of a markdown file, with the marker comment on the line right above its opening fence
 * (`<!-- runnable -->`, `<!-- fragment -->`, `<!-- bad-example: code, code -->`), if any.
 */
export interface Block {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  text: string;
  marker?: string;
}

export function blocks(file: string): Block[] {
  const lines = readFileSync(file, "utf8").split("\n");
  const found: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    // A fence may be indented (a block inside a list item); its lines lose that indentation.
    const open = /^( *)```([\w-]*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    let end = i + 1;
    while (end < lines.length && !/^ *```\s*$/.test(lines[end]!)) end++;
    const above = i > 0 ? /^ *<!--\s*(.*?)\s*-->\s*$/.exec(lines[i - 1]!) : null;
    const text = lines.slice(i + 1, end).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join("\n");
    found.push({ file: relative(ROOT, file), line: i + 1, language: open[2]!, text, marker: above?.[1] });
    i = end;
  }
  return found;
}

/** README.md and every markdown file under docs/: what a user reads. */
export function userMarkdown(): string[] {
  const files = [join(ROOT, "README.md")];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".md")) files.push(path);
    }
  };
  walk(join(ROOT, "docs"));
  return files;
}
