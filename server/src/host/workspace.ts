import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import type { ScenarioCheckOptions } from "../engine/checks/scenarioCheck";
import type { WorkspaceEntry, WorkspaceSource } from "../engine/workspace/source";
import { relativeAccess } from "./files";

/** Files larger than this are shown to the dry run as empty rather than read whole. */
const MAX_SAMPLE_FILE_BYTES = 10 * 1024 * 1024;

/**
 * The sample workspace on disk as the engine's read-only `WorkspaceSource`. It reads lazily (a folder when the dry
 * run opens it, a file when a step reads it) and never writes. It refuses what would reach outside the folder:
 * a relative path with `..`, `.` or an empty segment, a host-absolute path, and any symbolic link (or chain of them)
 * whose target lies outside the workspace; such entries are left out of listings. A link loop is left out too, and
 * so is every link to a folder (the tree stays finite).
 */
export function hostWorkspace(root: string): WorkspaceSource | undefined {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
    if (!statSync(realRoot).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  const inside = (real: string) => real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
  /** The real path of a workspace-relative path, when it is one and stays inside. */
  const resolveInside = (rel: string): string | undefined => {
    if (rel !== "" && (rel.startsWith("/") || rel.includes("\\") || rel.split("/").some((p) => p === "" || p === "." || p === ".."))) return undefined;
    try {
      const real = realpathSync(rel === "" ? realRoot : join(realRoot, ...rel.split("/")));
      return inside(real) ? real : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    list(dir: string): readonly WorkspaceEntry[] | undefined {
      const real = resolveInside(dir);
      if (!real) return undefined;
      let names: import("node:fs").Dirent[];
      try {
        names = readdirSync(real, { withFileTypes: true });
      } catch {
        return undefined;
      }
      const entries: WorkspaceEntry[] = [];
      for (const d of names) {
        if (d.isDirectory()) entries.push({ name: d.name, kind: "dir" });
        else if (d.isFile()) entries.push({ name: d.name, kind: "file" });
        else if (d.isSymbolicLink()) {
          try {
            const target = realpathSync(join(real, d.name));
            if (!inside(target)) continue;
            // A link to a file inside is that file. A link to a folder is left out even inside: one pointing up
            // (`a/up -> ..`) would make every walk of the tree endless.
            if (statSync(target).isFile()) entries.push({ name: d.name, kind: "file" });
          } catch {
            // A dangling link or a loop: nothing to show.
          }
        }
      }
      return entries;
    },
    read(file: string): string | undefined {
      const real = resolveInside(file);
      if (!real) return undefined;
      try {
        const st = lstatSync(real);
        if (!st.isFile() || st.size > MAX_SAMPLE_FILE_BYTES) return undefined;
        return readFileSync(real, "utf8");
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * What the scenario checks need from the host, for a scenario at `scenarioPath`: its config (read with `readFile`,
 * relative to the scenario; a host that watches dependencies passes its recording reader), the config's own inputs,
 * and the sample workspace, read through `hostWorkspace`.
 */
export function scenarioCheckOptions(scenarioPath: string, readFile: (relativePath: string) => string | undefined = relativeAccess(scenarioPath).readFile): ScenarioCheckOptions {
  const dir = dirname(resolve(scenarioPath));
  return {
    readFile,
    configAccess: (configPath) => relativeAccess(resolve(dir, configPath)),
    workspace: (configPath, root) => hostWorkspace(resolve(dirname(resolve(dir, configPath)), root)),
  };
}
