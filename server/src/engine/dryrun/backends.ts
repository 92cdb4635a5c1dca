import picomatch from "picomatch";
import { byteLength, childrenOf, OverlayTree, textOf, type OverlayDir } from "../workspace/overlay";
import { sharedCache } from "../caches";
import { WorkspaceTooLarge } from "../workspace/source";

/**
 * deepagents-js's backends, restated in memory for the dry run: the same answers, error texts and orderings as
 * `StateBackend`, `FilesystemBackend` (virtual mode, without ripgrep) and `CompositeBackend` of deepagents 1.14.1,
 * over an `OverlayTree` instead of the disk. Where the runtime's message would hold a host path, the backend's
 * `hostPath` names the virtual one instead.
 */
export interface FileInfo {
  path: string;
  is_dir: boolean;
  size: number;
  modified_at: string;
}
export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}
export interface ReadResult {
  error?: string;
  content?: string;
  mimeType?: string;
  totalLines?: number;
  startLine?: number;
  endLine?: number;
  nextOffset?: number;
}

export interface DryBackend {
  /** In words, for reasons: "the state backend". */
  readonly label: string;
  ls(path: string): { files?: FileInfo[]; error?: string };
  read(path: string, offset: number, limit: number): ReadResult;
  write(path: string, content: string): { error?: string; path?: string };
  edit(path: string, oldString: string, newString: string, replaceAll: boolean): { error?: string; occurrences?: number };
  /** Absent for a backend that cannot delete. */
  delete?(path: string): { error?: string; path?: string };
  glob(pattern: string, path: string): { files?: FileInfo[]; error?: string };
  grep(pattern: string, path: string, glob: string | null, maxCount: number | null): { matches?: GrepMatch[]; error?: string; truncated?: boolean };
  /** Every file it holds now, by its path in this backend's own key space (for tests and previews). */
  snapshot(): Map<string, string>;
}

export const EMPTY_CONTENT_WARNING = "System reminder: File exists but has empty contents";

// ---------------------------------------------------------------------------------------------------------------
// Shared helpers (deepagents' utils)
// ---------------------------------------------------------------------------------------------------------------

const MIME_TYPES: Record<string, string> = {
  ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp", ".svg": "image/svg+xml",
  ".heic": "image/heic", ".heif": "image/heif", ".mp3": "audio/mpeg", ".wav": "audio/wav", ".aiff": "audio/aiff", ".aac": "audio/aac",
  ".ogg": "audio/ogg", ".flac": "audio/flac", ".mp4": "video/mp4", ".webm": "video/webm", ".mpeg": "video/mpeg", ".mov": "video/quicktime",
  ".avi": "video/x-msvideo", ".flv": "video/x-flv", ".mpg": "video/mpeg", ".wmv": "video/x-ms-wmv", ".3gpp": "video/3gpp",
  ".pdf": "application/pdf", ".ppt": "application/vnd.ms-powerpoint", ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  ".md": "text/markdown", ".markdown": "text/markdown", ".html": "text/html", ".htm": "text/html", ".css": "text/css", ".csv": "text/csv",
  ".xml": "text/xml", ".json": "application/json", ".js": "application/javascript", ".mjs": "application/javascript", ".cjs": "application/javascript",
};

export function basename(filePath: string): string {
  const normalized = filePath.replace(/\\/g, "/");
  const i = normalized.lastIndexOf("/");
  return i === -1 ? normalized : normalized.slice(i + 1);
}

function extname(filePath: string): string {
  const name = basename(filePath);
  const i = name.lastIndexOf(".");
  return i <= 0 ? "" : name.slice(i);
}

/** Unknown extensions read as text (`getMimeType`). */
export function getMimeType(filePath: string): string {
  const ext = extname(filePath).toLocaleLowerCase();
  return Object.prototype.hasOwnProperty.call(MIME_TYPES, ext) ? MIME_TYPES[ext]! : "text/plain";
}

export function isTextMimeType(mime: string): boolean {
  return mime.startsWith("text/") || mime === "application/json" || mime === "application/javascript" || mime === "image/svg+xml";
}

export function normalizeReadPagination(offset: number, limit: number): { offset: number; limit: number } {
  return {
    offset: Number.isFinite(offset) ? Math.max(0, Math.floor(offset)) : 0,
    limit: Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0,
  };
}

export function performStringReplacement(content: string, oldString: string, newString: string, replaceAll: boolean): [string, number] | string {
  if (content === "" && oldString === "") return [newString, 0];
  if (oldString === "") return "Error: oldString cannot be empty when file has content";
  const occurrences = content.split(oldString).length - 1;
  if (occurrences === 0) return `Error: String not found in file: '${oldString}'`;
  if (occurrences > 1 && !replaceAll) {
    return `Error: String '${oldString}' has multiple occurrences (appears ${occurrences} times) in file. Use replace_all=True to replace all instances, or provide a more specific string with surrounding context.`;
  }
  return [content.split(oldString).join(newString), occurrences];
}

const matchers = sharedCache<string, (s: string) => boolean>("dryrun/backends.matchers", { entries: 1001 });
/** `micromatch.isMatch(s, pattern, options)`: picomatch 2.3.2, which micromatch 4.0.8 hands it to. */
export function micromatchIsMatch(s: string, pattern: string, dot: boolean): boolean {
  const key = `${dot ? 1 : 0}${pattern}`;
  let m = matchers.get(key);
  if (!m) {
    try {
      m = picomatch(pattern, { dot, nobrace: false } as picomatch.PicomatchOptions);
    } catch {
      m = () => false;
    }
    matchers.set(key, m);
  }
  return m(s);
}

function localeCompare(a: { path: string }, b: { path: string }): number {
  return a.path.localeCompare(b.path);
}

export function applyGrepMaxCount<T extends { matches?: GrepMatch[]; error?: string; truncated?: boolean }>(result: T, maxCount: number | null): T {
  if (maxCount == null || result.matches == null || result.matches.length <= maxCount) return result;
  return { ...result, matches: result.matches.slice(0, maxCount), truncated: true };
}

function searchLines(text: string, pattern: string, path: string, out: GrepMatch[]): void {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) if (lines[i]!.includes(pattern)) out.push({ path, line: i + 1, text: lines[i]! });
}

// ---------------------------------------------------------------------------------------------------------------
// StateBackend (and StoreBackend, which keys files the same way): raw string keys
// ---------------------------------------------------------------------------------------------------------------

interface StateFile {
  content: string;
  modified_at: string;
}

/** A clock for `modified_at`: each write later than the one before, as the runtime's `new Date()` is. */
let clock = Date.UTC(2030, 0, 1);
function now(): string {
  return new Date(clock++).toISOString();
}

/** The sample files' `modified_at`: the epoch, before every write of a run (the clock above), as files on disk predate it. */
const SAMPLE_FILES_MODIFIED_AT = new Date(0).toISOString();

export class StateLikeBackend implements DryBackend {
  files = new Map<string, StateFile>();
  constructor(readonly label: string, initial?: Iterable<[string, string]>) {
    // Sample files predate the run; the order they are given in is the state's key order.
    for (const [k, v] of initial ?? []) this.files.set(k, { content: v, modified_at: SAMPLE_FILES_MODIFIED_AT });
  }

  ls(path: string) {
    const infos: FileInfo[] = [];
    const subdirs = new Set<string>();
    const normalizedPath = path.endsWith("/") ? path : `${path}/`;
    for (const [k, fd] of this.files) {
      if (!k.startsWith(normalizedPath)) continue;
      const relative = k.substring(normalizedPath.length);
      if (relative.includes("/")) {
        subdirs.add(`${normalizedPath}${relative.split("/")[0]}/`);
        continue;
      }
      infos.push({ path: k, is_dir: false, size: fd.content.length, modified_at: fd.modified_at });
    }
    for (const subdir of [...subdirs].sort()) infos.push({ path: subdir, is_dir: true, size: 0, modified_at: "" });
    infos.sort(localeCompare);
    return { files: infos };
  }

  read(filePath: string, offset = 0, limit = 500): ReadResult {
    const fd = this.files.get(filePath);
    if (!fd) return { error: `File '${filePath}' not found` };
    const mimeType = getMimeType(filePath);
    if (!isTextMimeType(mimeType)) return { content: fd.content, mimeType };
    const p = normalizeReadPagination(offset, limit);
    const lines = fd.content.split("\n");
    const totalLines = lines[lines.length - 1] === "" ? lines.length - 1 : lines.length;
    const selected = lines.slice(p.offset, p.offset + p.limit);
    if (selected.length === 0 || p.offset >= totalLines || p.limit === 0) return { content: selected.join("\n"), mimeType };
    const endOffset = Math.min(p.offset + selected.length, totalLines);
    return { content: selected.join("\n"), mimeType, totalLines, startLine: p.offset + 1, endLine: endOffset, nextOffset: endOffset < totalLines ? endOffset : undefined };
  }

  write(filePath: string, content: string) {
    const existing = this.files.get(filePath);
    if (existing) {
      existing.content = content;
      existing.modified_at = now();
    } else this.files.set(filePath, { content, modified_at: now() });
    return { path: filePath };
  }

  delete(filePath: string) {
    const base = trimTrailingSlashes(filePath) || "/";
    const prefix = base === "/" ? "/" : `${base}/`;
    const paths = [...this.files.keys()].filter((p) => p === base || p.startsWith(prefix));
    if (paths.length === 0) return { error: `Error: File '${filePath}' not found` };
    for (const p of paths) this.files.delete(p);
    return { path: filePath };
  }

  edit(filePath: string, oldString: string, newString: string, replaceAll: boolean) {
    const fd = this.files.get(filePath);
    if (!fd) return { error: `Error: File '${filePath}' not found` };
    const result = performStringReplacement(fd.content, oldString, newString, replaceAll);
    if (typeof result === "string") return { error: result };
    fd.content = result[0];
    fd.modified_at = now();
    return { occurrences: result[1] };
  }

  grep(pattern: string, path: string | null = "/", glob: string | null = null, maxCount: number | null = null) {
    const matches: GrepMatch[] = [];
    const filtered = this.filterByPath(path);
    if (filtered) {
      for (const [fp, fd] of filtered) {
        if (glob && !micromatchIsMatch(basename(fp), glob, true)) continue;
        if (!isTextMimeType(getMimeType(fp))) continue;
        searchLines(fd.content, pattern, fp, matches);
      }
    }
    return applyGrepMaxCount({ matches }, maxCount);
  }

  glob(pattern: string, path = "/") {
    const filtered = this.filterByPath(path);
    if (!filtered) return { files: [] };
    const normalizedPath = directoryPath(path);
    const found: [string, StateFile][] = [];
    for (const [fp, fd] of filtered) {
      let relative = fp.substring(normalizedPath.length);
      if (relative.startsWith("/")) relative = relative.substring(1);
      if (!relative) {
        const parts = fp.split("/");
        relative = parts[parts.length - 1] || "";
      }
      if (micromatchIsMatch(relative, pattern, true)) found.push([fp, fd]);
    }
    // Most recently modified first (a stable sort: ties keep the state's key order).
    found.sort((a, b) => b[1].modified_at.localeCompare(a[1].modified_at));
    return { files: found.map(([p, fd]) => ({ path: p, is_dir: false, size: fd.content.length, modified_at: fd.modified_at })) };
  }

  snapshot(): Map<string, string> {
    return new Map([...this.files].map(([k, v]) => [k, v.content]));
  }

  /** The state as a subagent starts with it (see `mergeSubagentFiles`). */
  copyFiles(): Map<string, StateFile> {
    return new Map([...this.files].map(([k, v]) => [k, { ...v }]));
  }

  /**
   * A subagent returns its whole `files` state to the parent, which merges it key by key (`fileDataReducer`):
   * what it wrote or changed arrives, what it deleted comes back from the parent's copy.
   */
  mergeSubagentFiles(atStart: ReadonlyMap<string, StateFile>): void {
    const merged = new Map<string, StateFile>();
    for (const [k, v] of atStart) merged.set(k, this.files.get(k) ?? v);
    for (const [k, v] of this.files) if (!merged.has(k)) merged.set(k, v);
    this.files = merged;
  }

  /** `filterFilesByPath`: an exact file, else the files under the folder; `undefined` for an invalid path. */
  private filterByPath(path: string | null): [string, StateFile][] | undefined {
    const exact = path ? (path.startsWith("/") ? path : `/${path}`) : "/";
    const hit = this.files.get(exact);
    if (hit) return [[exact, hit]];
    const normalized = directoryPath(path);
    if (normalized === undefined) return undefined;
    return [...this.files].filter(([fp]) => fp.startsWith(normalized));
  }
}

/** deepagents' own `validatePath` for folders (utils): `/` added in front and behind; whitespace is invalid. */
function directoryPath(path: string | null): string {
  const s = path || "/";
  if (s.trim() === "") return undefined as unknown as string;
  let n = s.startsWith("/") ? s : `/${s}`;
  if (!n.endsWith("/")) n += "/";
  return n;
}

function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === "/") end--;
  return path.slice(0, end);
}

// ---------------------------------------------------------------------------------------------------------------
// FilesystemBackend in virtual mode (no ripgrep): a real folder tree under a root, here the overlay
// ---------------------------------------------------------------------------------------------------------------

/** The longest name of a file or folder on the host's file systems (NAME_MAX on Linux), in UTF-8 bytes. */
const NAME_MAX = 255;
// (A UTF-16 code unit is at most 3 bytes of UTF-8: short names need no count.)
const nameTooLong = (name: string) => name.length > NAME_MAX || (name.length * 3 > NAME_MAX && byteLength(name) > NAME_MAX);

/**
 * A sample workspace too large to read is no error of the runtime's: it passes every catch that turns a file
 * system error into the runtime's message, up to the runner, which stops the run there.
 */
function passWorkspaceLimit(e: unknown): void {
  if (e instanceof WorkspaceTooLarge) throw e;
}

/** What Node.js's fs would throw, as a message only: no stack is captured (deletes of missing paths are common). */
class FsError {
  constructor(readonly message: string) {}
}

export class FilesystemLikeBackend implements DryBackend {
  readonly tree: OverlayTree;
  /**
   * @param hostPath where the runtime's message would name a host file (`<root>/a/b`), the virtual path that file
   *   has in the agent's view (`/workspace/a/b` when the backend serves the route `/workspace/`).
   */
  constructor(readonly label: string, root: OverlayDir, private readonly hostPath: (parts: readonly string[]) => string) {
    this.tree = new OverlayTree(root);
  }

  /** `resolvePath` in virtual mode: `..` anywhere (even inside a name) or a leading `~` is refused. */
  private resolve(key: string): string[] {
    const vpath = key.startsWith("/") ? key : `/${key}`;
    if (vpath.includes("..") || vpath.startsWith("~")) throw new FsError("Path traversal not allowed");
    const parts = vpath.substring(1).split("/").filter((s) => s !== "" && s !== ".");
    // `path.resolve(root, "/x")` is the host's /x: a path that still starts with a slash leaves the root.
    if (vpath.startsWith("//")) throw new FsError(`Path: /${parts.join("/")} outside root directory: ${this.hostPath([])}`);
    return parts;
  }

  /**
   * ENAMETOOLONG where the host's path walk meets a name longer than it allows, before any missing folder does:
   * a name of a 1 MB argument reaches the disk in the real runtime and fails there.
   */
  private checkNameLengths(parts: readonly string[], syscall: string, named: readonly string[] = parts) {
    const k = parts.findIndex(nameTooLong);
    if (k < 0) return;
    const before = this.tree.lookup(parts.slice(0, k));
    if (before && before !== "notdir" && before.kind === "dir") throw new FsError(`ENAMETOOLONG: name too long, ${syscall} '${this.hostPath(named)}'`);
  }

  /** `fs.stat`: the node, or the error Node.js throws. */
  private stat(parts: readonly string[], syscall: "stat" | "lstat" = "stat") {
    this.checkNameLengths(parts, syscall);
    const node = this.tree.lookup(parts);
    if (node === "notdir") throw new FsError(`ENOTDIR: not a directory, ${syscall} '${this.hostPath(parts)}'`);
    if (!node) throw new FsError(`ENOENT: no such file or directory, ${syscall} '${this.hostPath(parts)}'`);
    return node;
  }

  private virtual(parts: readonly string[]): string {
    return `/${parts.join("/")}`;
  }

  ls(dirPath: string) {
    try {
      const parts = this.resolve(dirPath);
      const node = this.stat(parts);
      if (node.kind !== "dir") return { files: [] };
      const results: FileInfo[] = [];
      for (const [name, child] of childrenOf(node)) {
        const path = this.virtual([...parts, name]);
        if (child.kind === "file") results.push({ path, is_dir: false, size: byteLength(textOf(child)), modified_at: "" });
        else results.push({ path: `${path}/`, is_dir: true, size: 0, modified_at: "" });
      }
      results.sort(localeCompare);
      return { files: results };
    } catch (e) {
      passWorkspaceLimit(e);
      return { files: [] };
    }
  }

  read(filePath: string, offset = 0, limit = 500): ReadResult {
    try {
      const parts = this.resolve(filePath);
      const mimeType = getMimeType(filePath);
      const node = this.stat(parts);
      if (node.kind !== "file") return { error: `File '${filePath}' not found` };
      let content = textOf(node);
      if (!isTextMimeType(mimeType)) return { content, mimeType };
      if (content.trim() === "") return { content: EMPTY_CONTENT_WARNING, mimeType };
      const p = normalizeReadPagination(offset, limit);
      const lines = content.split("\n");
      const totalLines = lines[lines.length - 1] === "" ? lines.length - 1 : lines.length;
      const sliceEnd = Math.min(p.offset + p.limit, lines.length);
      const endIdx = Math.min(p.offset + p.limit, totalLines);
      if (p.offset >= totalLines) return { error: `Line offset ${p.offset} exceeds file length (${totalLines} lines)` };
      const selected = lines.slice(p.offset, sliceEnd);
      content = selected.join("\n");
      if (selected.length === 0 || p.limit === 0) return { content, mimeType };
      return { content, mimeType, totalLines, startLine: p.offset + 1, endLine: endIdx, nextOffset: endIdx < totalLines ? endIdx : undefined };
    } catch (e) {
      passWorkspaceLimit(e);
      return { error: `Error reading file '${filePath}': ${(e as Error).message}` };
    }
  }

  write(filePath: string, content: string) {
    try {
      const parts = this.resolve(filePath);
      // `mkdir -p` of the folder: a file in the way is EEXIST when it is the folder itself, else ENOTDIR.
      const dirParts = parts.slice(0, -1);
      for (let i = 0; i < dirParts.length; i++) {
        const node = this.tree.lookup(dirParts.slice(0, i + 1));
        if (node && node !== "notdir" && node.kind === "file") {
          throw new FsError(i === dirParts.length - 1
            ? `EEXIST: file already exists, mkdir '${this.hostPath(dirParts)}'`
            : `ENOTDIR: not a directory, mkdir '${this.hostPath(dirParts)}'`);
        }
      }
      if (parts.length === 0) throw new FsError(`EISDIR: illegal operation on a directory, open '${this.hostPath(parts)}'`);
      // (`mkdir -p` makes the folders before a name too long for it; the dry run makes none of them.)
      this.checkNameLengths(dirParts, "mkdir", dirParts);
      if (nameTooLong(parts[parts.length - 1]!)) {
        // The folders are made first, and stay; then the file's own name is refused.
        this.tree.makeFolders(dirParts);
        throw new FsError(`ENAMETOOLONG: name too long, open '${this.hostPath(parts)}'`);
      }
      const result = this.tree.writeFile(parts, content);
      if (result.error === "isdir") throw new FsError(`EISDIR: illegal operation on a directory, open '${this.hostPath(parts)}'`);
      return { path: filePath };
    } catch (e) {
      passWorkspaceLimit(e);
      return { error: `Error writing file '${filePath}': ${(e as Error).message}` };
    }
  }

  delete(filePath: string) {
    try {
      const parts = this.resolve(filePath);
      if (parts.length === 0) {
        this.tree.remove([]);
        return { path: filePath };
      }
      // Every folder on the way is looked at (lstat); the last one need not exist.
      for (let i = 0; i < parts.length - 1; i++) this.stat(parts.slice(0, i + 1), "lstat");
      const node = this.tree.lookup(parts);
      if (!node || node === "notdir") return { error: `Error: '${filePath}' not found` };
      this.tree.remove(parts);
      return { path: filePath };
    } catch (e) {
      passWorkspaceLimit(e);
      return { error: `Error deleting '${filePath}': ${(e as Error).message}` };
    }
  }

  edit(filePath: string, oldString: string, newString: string, replaceAll: boolean) {
    try {
      const parts = this.resolve(filePath);
      const node = this.stat(parts);
      if (node.kind !== "file") return { error: `Error: File '${filePath}' not found` };
      const result = performStringReplacement(textOf(node), oldString, newString, replaceAll);
      if (typeof result === "string") return { error: result };
      node.text = result[0];
      node.source = undefined;
      return { occurrences: result[1] };
    } catch (e) {
      passWorkspaceLimit(e);
      return { error: `Error editing file '${filePath}': ${(e as Error).message}` };
    }
  }

  grep(pattern: string, dirPath: string | null = "/", glob: string | null = null, maxCount: number | null = null) {
    let parts: string[];
    let node;
    try {
      parts = this.resolve(dirPath || ".");
      node = this.stat(parts);
    } catch (e) {
      passWorkspaceLimit(e);
      return { matches: [] };
    }
    // Without ripgrep: every file under the folder, or under the file's folder when a file is named.
    const root = node.kind === "dir" ? parts : parts.slice(0, -1);
    const matches: GrepMatch[] = [];
    for (const [fileParts, file] of this.tree.files(root)) {
      const name = fileParts[fileParts.length - 1]!;
      if (!isTextMimeType(getMimeType(name))) continue;
      if (glob && !micromatchIsMatch(name, glob, false)) continue;
      searchLines(textOf(file), pattern, this.virtual(fileParts), matches);
    }
    return applyGrepMaxCount({ matches }, maxCount);
  }

  snapshot(): Map<string, string> {
    return new Map([...this.tree.files()].map(([parts, file]) => [this.virtual(parts), textOf(file)]));
  }

  glob(pattern: string, searchPath = "/") {
    if (pattern.startsWith("/")) pattern = pattern.substring(1);
    let parts: string[];
    try {
      parts = searchPath === "/" ? [] : this.resolve(searchPath);
      const node = this.stat(parts);
      if (node.kind !== "dir") return { files: [] };
    } catch (e) {
      passWorkspaceLimit(e);
      return { files: [] };
    }
    // fast-glob would leave the folder for a pattern with `..`; the dry run never does.
    if (pattern.split("/").includes("..")) return { files: [] };
    const results: FileInfo[] = [];
    for (const [fileParts, file] of this.tree.files(parts)) {
      const relative = fileParts.slice(parts.length).join("/");
      if (micromatchIsMatch(relative, pattern, true)) results.push({ path: this.virtual(fileParts), is_dir: false, size: byteLength(textOf(file)), modified_at: "" });
    }
    results.sort(localeCompare);
    return { files: results };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// CompositeBackend
// ---------------------------------------------------------------------------------------------------------------

export class CompositeLikeBackend implements DryBackend {
  readonly label: string;
  private readonly sortedRoutes: [string, DryBackend][];
  constructor(readonly defaultBackend: DryBackend, readonly routes: [string, DryBackend][]) {
    this.label = `a composite whose default is ${defaultBackend.label}`;
    this.sortedRoutes = [...routes].sort((a, b) => b[0].length - a[0].length);
  }

  private backendAndKey(key: string): [DryBackend, string] {
    for (const [prefix, backend] of this.sortedRoutes) {
      if (key === prefix.slice(0, -1) || key.startsWith(prefix)) {
        const suffix = key.substring(prefix.length);
        return [backend, suffix ? `/${suffix}` : "/"];
      }
    }
    return [this.defaultBackend, key];
  }

  private withinRoute(path: string, routePrefix: string): boolean {
    const normalized = routePrefix.endsWith("/") ? routePrefix : `${routePrefix}/`;
    return path === normalized.slice(0, -1) || path.startsWith(normalized);
  }

  private routeUnder(routePrefix: string, path: string): boolean {
    if (path === "/") return true;
    const normalizedPath = path.endsWith("/") ? path : `${path}/`;
    return (routePrefix.endsWith("/") ? routePrefix : `${routePrefix}/`).startsWith(normalizedPath);
  }

  ls(path: string) {
    for (const [routePrefix, backend] of this.sortedRoutes) {
      if (this.withinRoute(path, routePrefix)) {
        const suffix = path.substring(routePrefix.length);
        const result = backend.ls(suffix ? `/${suffix}` : "/");
        if (result.error) return result;
        return { files: (result.files ?? []).map((fi) => ({ ...fi, path: routePrefix.slice(0, -1) + fi.path })) };
      }
    }
    if (path === "/") {
      const result = this.defaultBackend.ls(path);
      if (result.error) return result;
      const files = [...(result.files ?? [])];
      for (const [routePrefix] of this.sortedRoutes) files.push({ path: routePrefix, is_dir: true, size: 0, modified_at: "" });
      files.sort(localeCompare);
      return { files };
    }
    return this.defaultBackend.ls(path);
  }

  read(filePath: string, offset: number, limit: number) {
    const [backend, key] = this.backendAndKey(filePath);
    return backend.read(key, offset, limit);
  }

  write(filePath: string, content: string) {
    const [backend, key] = this.backendAndKey(filePath);
    return backend.write(key, content);
  }

  edit(filePath: string, oldString: string, newString: string, replaceAll: boolean) {
    const [backend, key] = this.backendAndKey(filePath);
    return backend.edit(key, oldString, newString, replaceAll);
  }

  grep(pattern: string, path: string | null = "/", glob: string | null = null, maxCount: number | null = null) {
    const searchPath = path || "/";
    for (const [routePrefix, backend] of this.sortedRoutes) {
      if (this.withinRoute(searchPath, routePrefix)) {
        const raw = backend.grep(pattern, searchPath.substring(routePrefix.length - 1) || "/", glob, maxCount);
        if (raw.error) return raw;
        return applyGrepMaxCount({ matches: (raw.matches ?? []).map((m) => ({ ...m, path: routePrefix.slice(0, -1) + m.path })), truncated: raw.truncated }, maxCount);
      }
    }
    const all: GrepMatch[] = [];
    let truncated = false;
    const rawDefault = this.defaultBackend.grep(pattern, searchPath, glob, maxCount);
    if (rawDefault.error) return rawDefault;
    all.push(...(rawDefault.matches ?? []));
    truncated = truncated || rawDefault.truncated === true;
    for (const [routePrefix, backend] of this.routes) {
      if (!this.routeUnder(routePrefix, searchPath)) continue;
      const remaining = maxCount == null ? null : Math.max(maxCount - all.length, 0);
      if (remaining === 0) {
        truncated = true;
        break;
      }
      const raw = backend.grep(pattern, "/", glob, remaining);
      if (raw.error) return raw;
      for (const m of raw.matches ?? []) all.push({ ...m, path: routePrefix.slice(0, -1) + m.path });
      truncated = truncated || raw.truncated === true;
    }
    return applyGrepMaxCount({ matches: all, truncated }, maxCount);
  }

  glob(pattern: string, path = "/") {
    for (const [routePrefix, backend] of this.sortedRoutes) {
      if (this.withinRoute(path, routePrefix)) {
        const result = backend.glob(pattern, path.substring(routePrefix.length - 1) || "/");
        if (result.error) return result;
        return { files: (result.files ?? []).map((fi) => ({ ...fi, path: routePrefix.slice(0, -1) + fi.path })) };
      }
    }
    const result = this.defaultBackend.glob(pattern, path);
    if (result.error) return result;
    const files = [...(result.files ?? [])];
    for (const [routePrefix, backend] of this.routes) {
      if (!this.routeUnder(routePrefix, path)) continue;
      const r = backend.glob(pattern, "/");
      if (r.error) continue;
      for (const fi of r.files ?? []) files.push({ ...fi, path: routePrefix.slice(0, -1) + fi.path });
    }
    files.sort(localeCompare);
    return { files };
  }

  snapshot(): Map<string, string> {
    const all = new Map(this.defaultBackend.snapshot());
    for (const [prefix, backend] of this.routes) for (const [k, v] of backend.snapshot()) all.set(prefix.replace(/\/$/, "") + k, v);
    return all;
  }

  delete(filePath: string) {
    const [baseBackend, baseKey] = this.backendAndKey(filePath);
    const baseRoute = this.sortedRoutes.find(([p]) => this.withinRoute(filePath, p))?.[0];
    const targets: { backend: DryBackend; key: string; routePrefix?: string }[] = [{ backend: baseBackend, key: baseKey, routePrefix: baseRoute }];
    for (const [routePrefix, backend] of this.sortedRoutes) {
      if (routePrefix !== baseRoute && this.routeUnder(routePrefix, filePath)) targets.push({ backend, key: "/", routePrefix });
    }
    for (const t of targets) {
      if (!t.backend.delete) return { error: `Error: deletion is not available for '${filePath}' on ${t.routePrefix ? `mounted route '${t.routePrefix}'` : "default backend"}.` };
    }
    if (targets.length === 1) {
      const result = targets[0]!.backend.delete!(targets[0]!.key);
      return result.error ? result : { path: filePath };
    }
    let completed = 0;
    let firstNotFound: { error?: string } | undefined;
    for (const t of targets) {
      const result = t.backend.delete!(t.key);
      if (result.error) {
        if (/not found/i.test(result.error)) {
          firstNotFound ??= result;
          continue;
        }
        return { error: `Error deleting '${filePath}': ${result.error}. Deletion may be partial; ${completed} earlier backend(s) completed and remaining backends were not attempted.` };
      }
      completed++;
    }
    if (completed === 0) return firstNotFound ?? { error: `Error: File '${filePath}' not found` };
    return { path: filePath };
  }
}

/** A backend without `delete` (a custom one that declares none): the same answers otherwise. */
export function withoutDelete(backend: DryBackend): DryBackend {
  return {
    label: backend.label,
    ls: (p) => backend.ls(p),
    read: (p, o, l) => backend.read(p, o, l),
    write: (p, c) => backend.write(p, c),
    edit: (p, a, b, r) => backend.edit(p, a, b, r),
    glob: (p, d) => backend.glob(p, d),
    grep: (p, d, g, m) => backend.grep(p, d, g, m),
    snapshot: () => backend.snapshot(),
  };
}
