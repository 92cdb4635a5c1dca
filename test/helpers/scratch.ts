import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
