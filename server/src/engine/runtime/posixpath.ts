/**
 * Python's `posixpath.normpath`, ported exactly: deepagents-py's `validate_path` runs it on every tool
 * path (docs/reference/paths.md). POSIX keeps exactly two leading slashes (`//x` stays `//x`, C3).
 */
export function posixNormpath(path: string): string {
  if (path === "") return ".";
  let initialSlashes = path.startsWith("/") ? 1 : 0;
  if (initialSlashes && path.startsWith("//") && !path.startsWith("///")) initialSlashes = 2;
  const kept: string[] = [];
  for (const comp of path.split("/")) {
    if (comp === "" || comp === ".") continue;
    if (comp !== ".." || (!initialSlashes && kept.length === 0) || (kept.length > 0 && kept[kept.length - 1] === "..")) {
      kept.push(comp);
    } else if (kept.length > 0) {
      kept.pop();
    }
  }
  const joined = kept.join("/");
  const result = "/".repeat(initialSlashes) + joined;
  return result || ".";
}

/** `PurePosixPath(p).parts` contains `..` exactly when some `/`-separated component is `..`. */
export function hasParentSegment(path: string): boolean {
  return path.split("/").includes("..");
}
