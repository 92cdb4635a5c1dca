import type { WorkspaceSource } from "./source";

/**
 * An in-memory folder tree, copy-on-write over a read-only `WorkspaceSource`: folders are read from the source the
 * first time they are opened, file text the first time it is read, and every write, edit and delete changes only
 * this tree. The source is never written; later steps of a run see the changes.
 *
 * Paths are segment lists from the tree's root (`[]` is the root).
 */
export type OverlayNode = OverlayFile | OverlayDir;

export interface OverlayFile {
  kind: "file";
  /** The text, once read or written. */
  text?: string;
  /** Where to read the text from while it is unchanged. */
  source?: { workspace: WorkspaceSource; path: string };
}

export interface OverlayDir {
  kind: "dir";
  children?: Map<string, OverlayNode>;
  source?: { workspace: WorkspaceSource; path: string };
}

export function emptyDir(): OverlayDir {
  return { kind: "dir", children: new Map() };
}

/** A folder whose entries are the workspace's (read when first opened). */
export function workspaceDir(workspace: WorkspaceSource, path = ""): OverlayDir {
  return { kind: "dir", source: { workspace, path } };
}

export function childrenOf(dir: OverlayDir): Map<string, OverlayNode> {
  if (!dir.children) {
    const children = new Map<string, OverlayNode>();
    const src = dir.source;
    for (const entry of (src ? src.workspace.list(src.path) : undefined) ?? []) {
      const path = src!.path ? `${src!.path}/${entry.name}` : entry.name;
      children.set(entry.name, entry.kind === "dir" ? { kind: "dir", source: { workspace: src!.workspace, path } } : { kind: "file", source: { workspace: src!.workspace, path } });
    }
    dir.children = children;
  }
  return dir.children;
}

export function textOf(file: OverlayFile): string {
  if (file.text === undefined) file.text = (file.source ? file.source.workspace.read(file.source.path) : undefined) ?? "";
  return file.text;
}

/** UTF-8 length, as `stat` reports a file's size. */
export function byteLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export class OverlayTree {
  constructor(readonly root: OverlayDir) {}

  /** The node at a path, `undefined` when missing; `"notdir"` when a file sits where a folder is needed. */
  lookup(parts: readonly string[]): OverlayNode | undefined | "notdir" {
    let node: OverlayNode = this.root;
    for (const part of parts) {
      if (node.kind !== "dir") return "notdir";
      const next = childrenOf(node).get(part);
      if (!next) return undefined;
      node = next;
    }
    return node;
  }

  /** Writes a file, creating its folders (`mkdir -p`); the error names what is in the way. */
  writeFile(parts: readonly string[], text: string): { error?: "notdir" | "isdir"; at?: number } {
    let dir = this.root;
    for (let i = 0; i < parts.length - 1; i++) {
      const children = childrenOf(dir);
      const next = children.get(parts[i]!);
      if (!next) {
        const made = emptyDir();
        children.set(parts[i]!, made);
        dir = made;
      } else if (next.kind === "file") return { error: "notdir", at: i };
      else dir = next;
    }
    const children = childrenOf(dir);
    const name = parts[parts.length - 1]!;
    const existing = children.get(name);
    if (existing?.kind === "dir") return { error: "isdir" };
    if (existing) {
      existing.text = text;
      existing.source = undefined;
    } else children.set(name, { kind: "file", text });
    return {};
  }

  /** Makes the folders of a path that are missing (`mkdir -p`); false when a file is in the way. */
  makeFolders(parts: readonly string[]): boolean {
    let dir = this.root;
    for (const part of parts) {
      const children = childrenOf(dir);
      const next = children.get(part);
      if (!next) {
        const made = emptyDir();
        children.set(part, made);
        dir = made;
      } else if (next.kind === "file") return false;
      else dir = next;
    }
    return true;
  }

  /** Removes a file or a folder with everything in it; false when nothing is there. */
  remove(parts: readonly string[]): boolean {
    if (parts.length === 0) {
      childrenOf(this.root).clear();
      return true;
    }
    const parent = this.lookup(parts.slice(0, -1));
    if (!parent || parent === "notdir" || parent.kind !== "dir") return false;
    return childrenOf(parent).delete(parts[parts.length - 1]!);
  }

  /** Every file under a folder, depth first in name order: `[segments, file]`. */
  *files(parts: readonly string[] = []): Generator<[string[], OverlayFile]> {
    const node = this.lookup(parts);
    if (!node || node === "notdir") return;
    if (node.kind === "file") {
      yield [[...parts], node];
      return;
    }
    const walk = function* (dir: OverlayDir, at: string[]): Generator<[string[], OverlayFile]> {
      for (const [name, child] of [...childrenOf(dir)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const path = [...at, name];
        if (child.kind === "file") yield [path, child];
        else yield* walk(child, path);
      }
    };
    yield* walk(node, [...parts]);
  }
}
