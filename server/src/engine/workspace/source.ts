/**
 * The sample workspace as the host hands it to the engine: a read-only view, asked by relative path ("" is the
 * workspace's root, "a/b.txt" a file in it; never a leading `/`, never `.` or `..`). The engine never reads the
 * disk itself: the CLI and the language server implement this over the real folder (refusing symbolic links that
 * leave it), tests over a plain object. Nothing here can write.
 */
export interface WorkspaceSource {
  /** The entries of a folder, or `undefined` when it is no folder. */
  list(dir: string): readonly WorkspaceEntry[] | undefined;
  /** A file's text, or `undefined` when it is no readable file. */
  read(file: string): string | undefined;
}

export interface WorkspaceEntry {
  name: string;
  kind: "file" | "dir";
}

/** A workspace held in memory: `{ "README.md": "...", "src/a.ts": "..." }` (folders implied by the paths). */
export function memoryWorkspace(files: Readonly<Record<string, string>>): WorkspaceSource {
  const folders = new Map<string, Map<string, WorkspaceEntry>>([["", new Map()]]);
  for (const path of Object.keys(files)) {
    const parts = path.split("/").filter((p) => p !== "");
    let dir = "";
    parts.forEach((name, i) => {
      const kind = i === parts.length - 1 ? "file" : "dir";
      const entries = folders.get(dir)!;
      if (!entries.has(name)) entries.set(name, { name, kind });
      dir = dir ? `${dir}/${name}` : name;
      if (kind === "dir" && !folders.has(dir)) folders.set(dir, new Map());
    });
  }
  const normalized = new Map(Object.entries(files).map(([k, v]) => [k.split("/").filter((p) => p !== "").join("/"), v]));
  return {
    list: (dir) => {
      const entries = folders.get(dir);
      return entries ? [...entries.values()] : undefined;
    },
    read: (file) => normalized.get(file),
  };
}

/** Thrown by a `limitedWorkspace` once its listings have held more entries than it allows. */
export class WorkspaceTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the sample workspace has more than ${limit.toLocaleString("en")} files and folders`);
  }
}

/**
 * The same workspace, but one that stops listing once the folders read through it have held more than `limit`
 * entries in all (`WorkspaceTooLarge`): a workspace of a million files gives a clear answer after a bounded
 * amount of work instead of a listing that takes the process's memory.
 */
export function limitedWorkspace(source: WorkspaceSource, limit: number): WorkspaceSource {
  let seen = 0;
  return {
    list(dir) {
      const entries = source.list(dir);
      if (entries) {
        seen += entries.length;
        if (seen > limit) throw new WorkspaceTooLarge(limit);
      }
      return entries;
    },
    read: (file) => source.read(file),
  };
}
