import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { BYTE_ORDER_MARK, withoutByteOrderMark } from "../engine/text";

/** File names the product owns (config-format.md). */
export function isConfigFileName(name: string): boolean {
  return /^(.+\.)?agent-sandbox\.jsonc?$/.test(name);
}
export function isDryRunFileName(name: string): boolean {
  return /\.dryrun\.jsonc?$/.test(name);
}

const SKIPPED_FOLDERS = new Set(["node_modules", ".git", "dist", "out", ".vscode-test"]);

/**
 * Config and dry-run files under a folder (sorted, so output is stable). Symbolic links are followed, to files
 * and to folders (a folder already searched, by any path, is not searched again, so a link cycle ends); build
 * output and dependencies (`SKIPPED_FOLDERS`, said in `--help`) are not searched.
 */
export function findFiles(root: string, accept: (name: string) => boolean): string[] {
  const found: string[] = [];
  const searched = new Set<string>();
  const walk = (dir: string, depth: number) => {
    if (depth > 32) return;
    let real: string;
    let entries: import("node:fs").Dirent[];
    try {
      real = realpathSync(dir);
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (searched.has(real)) return;
    searched.add(real);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const target = statSync(path);
          isDirectory = target.isDirectory();
          isFile = target.isFile();
        } catch {
          continue; // a dangling link
        }
      }
      if (isDirectory) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(path, depth + 1);
      } else if (isFile && accept(entry.name)) found.push(path);
    }
  };
  walk(root, 0);
  return found;
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The path as shown to the user: relative to the working directory, with `/`. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), resolve(path));
  return (rel === "" ? "." : rel.startsWith("..") ? resolve(path) : rel).split(sep).join("/");
}

/**
 * A config or dry-run file as the editor shows it: its text without a byte order mark, and whether it had one, so
 * that `--fix` writes it back as it was. Throws what `readFileSync` throws.
 */
export function readTextFile(path: string): { text: string; byteOrderMark: boolean } {
  const raw = readFileSync(path, "utf8");
  const text = withoutByteOrderMark(raw);
  return { text, byteOrderMark: text !== raw };
}

/**
 * Why a file could not be read or written, in words: `ENOENT` and `EISDIR` mean nothing to most people. A code
 * not listed here is said as Node says it.
 */
export function fileErrorWords(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EISDIR":
      return "it is a folder, not a file";
    case "ENOTDIR":
      return "a part of its path is a file, not a folder";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ELOOP":
      return "too many levels of symbolic links";
    case "EROFS":
      return "the file system is read-only";
    case "ENAMETOOLONG":
      return "the name is too long";
    default:
      return code ?? (error as Error).message;
  }
}

/** `text` as `readTextFile` found it: with its byte order mark if it had one. */
export function asWritten(text: string, byteOrderMark: boolean): string {
  return byteOrderMark ? BYTE_ORDER_MARK + text : text;
}

/** File access relative to a config file's folder, for inputs the config names. */
export interface RelativeAccess {
  /** A file (not a folder) is there. */
  fileExists: (p: string) => boolean;
  readFile: (p: string) => string | undefined;
  /**
   * A folder's entry names, `undefined` when it cannot be listed: a `skills` entry that is a folder of skills
   * (`./skills` holding `<name>/SKILL.md`, config-format.md), and the sample workspace's files offered as witnesses.
   */
  listDirectory: (p: string) => string[] | undefined;
}

export function relativeAccess(configPath: string): RelativeAccess {
  const base = dirname(resolve(configPath));
  return {
    // A file: a prompt file that names a folder cannot be read either.
    fileExists: (p) => {
      try {
        return statSync(resolve(base, p)).isFile();
      } catch {
        return false;
      }
    },
    // A regular file only: reading `/dev/zero` or a named pipe never ends (`check` said "not a file" while
    // `prompt` read it forever).
    readFile: (p) => {
      try {
        const file = resolve(base, p);
        if (!statSync(file).isFile()) return undefined;
        return withoutByteOrderMark(readFileSync(file, "utf8"));
      } catch {
        return undefined;
      }
    },
    listDirectory: (p) => {
      try {
        return readdirSync(resolve(base, p));
      } catch {
        return undefined;
      }
    },
  };
}
