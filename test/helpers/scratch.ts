import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const made: string[] = [];

/**
 * A new empty folder under the system's temporary folder, removed with everything in it when this test file's
 * process exits (node:test runs each file in a process of its own), so a test run leaves nothing behind.
 */
export function scratchDir(name: string): string {
  if (made.length === 0) process.once("exit", () => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const dir = mkdtempSync(join(tmpdir(), `agent-sandbox-${name}-`));
  made.push(dir);
  return dir;
}

/** A hash of every path under a folder (links as links, not followed), each file's content, size and modification time. */
export function treeHash(root: string): string {
  const h = createHash("sha256");
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      h.update(`${relative(root, p)}:${st.isSymbolicLink() ? "link" : st.isDirectory() ? "dir" : "file"}:${st.mtimeMs}:${st.size}\n`);
      if (st.isDirectory() && !st.isSymbolicLink()) walk(p);
      else if (st.isFile()) h.update(readFileSync(p));
    }
  };
  walk(root);
  return h.digest("hex");
}

/**
 * A sample workspace `dir/ws` with the links a dry run must not follow out: a loop (`loop1` ⇄ `loop2`), a link up
 * to the workspace itself (`a/up`) and a link to `dir/outside.txt` (at `linkAt`, relative to `ws`), beside one
 * real file `a/f.txt`. Returns the workspace's folder.
 */
export function linkLoopWorkspace(dir: string, outsideText: string, linkAt = "out.txt"): string {
  const ws = join(dir, "ws");
  mkdirSync(join(ws, "a"), { recursive: true });
  writeFileSync(join(ws, "a", "f.txt"), "in\n");
  writeFileSync(join(dir, "outside.txt"), outsideText);
  symlinkSync(join(ws, "loop1"), join(ws, "loop2"));
  symlinkSync(join(ws, "loop2"), join(ws, "loop1"));
  symlinkSync(ws, join(ws, "a", "up"));
  symlinkSync(join(dir, "outside.txt"), join(ws, linkAt));
  return ws;
}
