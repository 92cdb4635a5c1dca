import { createHash } from "node:crypto";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
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
