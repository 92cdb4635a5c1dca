import { existsSync, writeFileSync } from "node:fs";
import { flag, oneOf, UsageError, type ParsedArgs } from "../args";
import { later } from "../later";
import { configArgument, noteErrors, readOrSay } from "../loadModel";
import { configTarget, pickCall } from "../sourceConfig";
import type { Io } from "../stdio";

/**
 * `agent-sandbox import FILE[:LINE] [--out PATH [--force]]`: the agent-sandbox.jsonc a `createDeepAgent` /
 * `create_deep_agent` call describes, read without running the code, on stdout or into PATH (never over an
 * existing file without --force). Values only running the code would tell become comments saying what could not
 * be read, and are listed once on stderr. A call the checks find errors in is imported as written, with a note and
 * exit code 1, as `export` does with a config.
 */
export function importConfigFile(args: ParsedArgs, io: Io): number {
  const format = oneOf(flag(args, "format"), ["text", "json"] as const, "format", "text");
  const out = outPath(args);
  const target = configTarget(configArgument(args, "import"));
  if (!target.language) throw new UsageError(`import reads a source file (.ts, .tsx, .js, .mjs, .cjs, .py) that calls createDeepAgent or create_deep_agent; ${target.file} is not one`);
  if (out !== undefined && existsSync(out) && !flag(args, "force")) throw new UsageError(`${out} exists; give --force to overwrite it`);
  const read = readOrSay(target.file, io);
  if (typeof read === "string") return 2;
  const { relativeAccess, displayPath } = later.files();
  const picked = pickCall(target, read.text, relativeAccess(target.file));
  const { importConfig, dynamicWords } = require("../../engine/export/importCall") as typeof import("../../engine/export/importCall");
  const { agent } = picked;
  const callee = read.text.slice(agent.call.calleeSpan.start, agent.call.calleeSpan.end);
  const config = importConfig(agent.config.root, agent.config.dynamic, { runtime: agent.model.runtime.id, source: picked.shown, callee });
  const errors = noteErrors(io, picked.shown, picked);
  const dynamic = [...agent.config.dynamic].sort((a, b) => a.span.start - b.span.start);
  if (dynamic.length > 0) io.err(`agent-sandbox: note: ${picked.shown}: ${dynamic.length === 1 ? "one value" : `${dynamic.length} values`} could not be read and ${dynamic.length === 1 ? "is a comment" : "are comments"} in the config: ${dynamic.map(dynamicWords).join("; ")}\n`);
  const json = () => {
    const line = (offset: number) => picked.lines.positionAt(offset);
    const dynamicJson = dynamic.map((d) => ({ what: d.what, expression: d.expression, range: { start: line(d.span.start), end: line(d.span.end) } }));
    return `${JSON.stringify({ source: displayPath(target.file), line: line(agent.call.span.start).line + 1, runtime: agent.model.runtime.id, config, dynamic: dynamicJson }, null, 2)}\n`;
  };
  if (out === undefined) {
    io.out(format === "json" ? json() : config);
    return errors > 0 ? 1 : 0;
  }
  try {
    writeFileSync(out, config);
  } catch (error) {
    io.err(`agent-sandbox: cannot write ${displayPath(out)}: ${later.files().fileErrorWords(error)}\n`);
    return 2;
  }
  if (format === "json") io.out(json());
  io.err(`agent-sandbox: wrote ${displayPath(out)} from ${picked.shown}\n`);
  return errors > 0 ? 1 : 0;
}

/** `--out PATH`, or cli.md's `--write PATH` (one of the two). */
function outPath(args: ParsedArgs): string | undefined {
  const out = flag(args, "out");
  const write = flag(args, "write");
  if (out !== undefined && write !== undefined) throw new UsageError("--out and --write name the same file; give one");
  const path = out ?? write;
  if (path === undefined && flag(args, "force")) throw new UsageError("--force goes with --out PATH (the file to overwrite)");
  return path;
}
