/**
 * Output for the CLI without `process.stdout`: creating that stream loads Node's stream, net and tty machinery,
 * several milliseconds of a run that otherwise takes little more than Node's own start-up (bench/cli.ts).
 */
import { fstatSync, statSync, writeSync } from "node:fs";

/** Where a command writes: stdout, stderr, and whether stdout takes colour. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  color: boolean;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of `text` to `fd`, synchronously, in order with everything written before. */
export function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A non-blocking pipe that is full: give the reader a moment.
      if (code === "EAGAIN") Atomics.wait(pause, 0, 0, 1);
      // The reader is gone (`… | head`): there is no one left to tell.
      else if (code === "EPIPE") return;
      else throw error;
    }
  }
}

/**
 * Whether `fd` is a terminal (for colours). Only a character device other than /dev/null can be one, and only then
 * is `tty` loaded (it loads the stream machinery too).
 */
export function isTerminal(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    if (!stat.isCharacterDevice() || (process.platform !== "win32" && stat.rdev === statSync("/dev/null").rdev)) return false;
    return (require("node:tty") as typeof import("node:tty")).isatty(fd);
  } catch {
    return false;
  }
}
