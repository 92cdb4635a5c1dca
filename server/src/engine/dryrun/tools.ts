import type { RuleSpec } from "../config/model";
import { CompiledRuleList, type RuleDecision } from "../permissions/ruleList";
import type { Operation, Runtime } from "../runtime/runtime";
import { valueText } from "../text";
import { EMPTY_CONTENT_WARNING, getMimeType, isTextMimeType, normalizeReadPagination, type DryBackend, type GrepMatch, type ReadResult } from "./backends";
import { deleteDenyPatterns, deleteTargetMayHaveDescendants } from "./deleteGeometry";
import type { DecidingRule, ToolAnswer } from "./outcomes";

/**
 * The filesystem middleware's tools as the runtime runs them: the path check before the backend (docs/reference/paths.md, docs/reference/decisions.md), the
 * backend call, the result filter (docs/reference/decisions.md) and the exact text the model gets back. deepagents-js's tool bodies are
 * restated from 1.14.1; deepagents-py differs where the spec says it does (validation always, the normalised path
 * handed on, raw entry paths filtered, `No files found`, `grep` checked only with a path).
 */
export interface ToolContext {
  runtime: Runtime;
  rules: readonly RuleSpec[];
  compiled: CompiledRuleList;
  backend: DryBackend;
  /** The answer every `execute` call gets when the runtime refuses it at call time (JS, permissions not route-scoped). */
  executeRefusal?: string;
}

const isPy = (ctx: ToolContext) => ctx.runtime.id === "deepagents-py";

function ruleOf(ctx: ToolContext, d: RuleDecision | undefined): DecidingRule | undefined {
  if (!d || d.ruleIndex < 0) return undefined;
  const rule = ctx.rules[d.ruleIndex];
  if (!rule) return undefined;
  const paths = Array.isArray(rule.input.paths) ? rule.input.paths : [];
  const mode = rule.input.mode === undefined ? "allow" : typeof rule.input.mode === "string" ? rule.input.mode : valueText(rule.input.mode);
  return { index: rule.index, pattern: valueText(paths[d.patternIndex]), mode };
}

type Checked = { ok: true; path: string } | { ok: false; answer: ToolAnswer };

/**
 * The path check before the backend: the path the backend gets (JS: the raw argument; Python: the normalised one),
 * or the tool's error. JS checks only while the agent has rules.
 */
function checkPath(ctx: ToolContext, op: Operation, raw: string): Checked {
  const hasRules = !ctx.compiled.isEmpty;
  if (!isPy(ctx) && !hasRules) return { ok: true, path: raw };
  const canonical = ctx.runtime.canonicalToolPath(raw, hasRules);
  if (!canonical.ok) return { ok: false, answer: { outcome: "error", output: `Error: ${canonical.error}` } };
  if (hasRules) {
    const d = ctx.compiled.decide(op, canonical.path);
    if (d.failure) return { ok: false, answer: { outcome: "error", output: `Error: ${d.failure}`, rule: ruleOf(ctx, d) } };
    if (d.decision === "deny") return { ok: false, answer: { outcome: "permission-denied", output: `Error: permission denied for ${op} on ${canonical.path}`, rule: ruleOf(ctx, d) } };
  }
  return { ok: true, path: isPy(ctx) ? canonical.path : raw };
}

/** `filterByPermissions`: JS canonicalises each entry (keeping the ones it cannot), Python matches the raw path. */
function filterEntries<T>(ctx: ToolContext, entries: readonly T[], pathOf: (e: T) => string): T[] {
  if (ctx.compiled.isEmpty) return [...entries];
  return entries.filter((e) => {
    let path = pathOf(e);
    if (!isPy(ctx)) {
      const canonical = ctx.runtime.canonicalToolPath(path, true);
      if (!canonical.ok) return true;
      path = canonical.path;
    }
    const d = ctx.compiled.decide("read", path);
    return d.failure !== undefined || d.decision !== "deny";
  });
}

/** `truncateIfTooLong` for a list of lines. */
function truncateLines(lines: string[]): string[] {
  const total = lines.reduce((n, l) => n + l.length, 0);
  if (total > 80000) return [...lines.slice(0, Math.floor((lines.length * 20000 * 4) / total)), "... [results truncated, try being more specific with your parameters]"];
  return lines;
}

function truncateText(text: string): string {
  return text.length > 80000 ? `${text.substring(0, 80000)}\n... [results truncated, try being more specific with your parameters]` : text;
}

const ok = (output: string): ToolAnswer => ({ outcome: "ok", output });
const error = (output: string): ToolAnswer => ({ outcome: "error", output });

export function runLs(ctx: ToolContext, args: { path?: string }): ToolAnswer {
  const raw = args.path ?? "/";
  const checked = checkPath(ctx, "read", raw);
  if (!checked.ok) return checked.answer;
  const path = isPy(ctx) ? checked.path : raw || "/";
  const result = ctx.backend.ls(path);
  if (result.error) return error(`Error listing files: ${result.error}`);
  const infos = filterEntries(ctx, result.files ?? [], (i) => i.path);
  if (infos.length === 0) return ok(isPy(ctx) ? "No files found" : `No files found in ${path}`);
  return ok(truncateLines(infos.map((i) => (i.is_dir ? `${i.path} (directory)` : `${i.path}${i.size ? ` (${i.size} bytes)` : ""}`))).join("\n"));
}

export function runReadFile(ctx: ToolContext, args: { file_path: string; offset?: number; limit?: number }): ToolAnswer {
  const checked = checkPath(ctx, "read", args.file_path);
  if (!checked.ok) return checked.answer;
  const filePath = checked.path;
  const requestedOffset = args.offset ?? 0;
  const { offset, limit } = normalizeReadPagination(requestedOffset, args.limit ?? 100);
  const result = ctx.backend.read(filePath, offset, limit);
  if (result.error) return error(`Error: ${result.error}`);
  const mime = result.mimeType ?? getMimeType(filePath);
  // Images, audio, video and PDFs come back as a content block, not text.
  if (!isTextMimeType(mime)) return ok(`[${mime.split("/")[0] === "application" ? "file" : mime.split("/")[0]} content block: ${mime}]`);
  let content = result.content ?? "";
  if (content === EMPTY_CONTENT_WARNING) return ok(content);
  const lines = content.split("\n");
  let page: ReadResult = result;
  if (lines.length > limit) {
    content = lines.slice(0, limit).join("\n");
    if (limit > 0 && result.startLine !== undefined && result.endLine !== undefined) {
      const endLine = Math.min(result.startLine + limit - 1, result.endLine, result.totalLines ?? Number.POSITIVE_INFINITY);
      page = { ...result, endLine, nextOffset: endLine };
    }
  }
  const body = sourceBlock(content);
  if (page.startLine === undefined || page.endLine === undefined) {
    const startLine = offset + 1;
    page = { ...page, startLine, endLine: startLine + body.split("\n").length - 1 };
  }
  const notices = requestedOffset < 0 ? [`[Requested offset ${requestedOffset} is before the start of the file; read from line 1 instead.]`] : [];
  return ok(truncatedRead(body, page, filePath, notices));
}

function sourceBlock(content: string): string {
  let lines = content.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines = lines.slice(0, -1);
  return lines.join("\n");
}

function readWindow(r: ReadResult): string[] {
  const { startLine, endLine, nextOffset, totalLines } = r;
  if (startLine === undefined || endLine === undefined || !Number.isSafeInteger(startLine) || !Number.isSafeInteger(endLine) || startLine < 1 || endLine < startLine
    || (totalLines !== undefined && (!Number.isSafeInteger(totalLines) || totalLines < endLine))) return [];
  let span = `lines ${startLine}-${endLine}`;
  if (totalLines !== undefined) span += ` of ${totalLines}`;
  const fields = [span];
  if (nextOffset !== undefined && (totalLines === undefined || endLine < totalLines)) fields.push(`next offset ${nextOffset}`);
  return fields;
}

function assemble(body: string, fields: string[], notices: string[]): string {
  return [...notices, `@@ ${fields.join(" | ")} @@`, body].join("\n");
}

const READ_TRUNCATION = "[Output was truncated due to size limits. The file content is very large. Consider reformatting the file to make it easier to navigate. For example, if this is JSON, use execute(command='jq . {file_path}') to pretty-print it with line breaks. For other formats, you can use appropriate formatting tools to split long lines.]";
const READ_THRESHOLD = 4 * 20000;

/** `truncatePaginatedRead` with the middleware's default token limit (20,000). */
function truncatedRead(body: string, r: ReadResult, filePath: string, notices: string[]): string {
  const result = assemble(body, readWindow(r), notices);
  if (result.length < READ_THRESHOLD) return result;
  const msg = READ_TRUNCATION.replace("{file_path}", filePath);
  if (r.startLine !== undefined && r.endLine !== undefined) {
    const rows = body.split("\n");
    let position = 0;
    const bounds: { endOffset: number; endLine: number }[] = [];
    for (let i = 0; i < rows.length; i++) {
      const sourceLine = r.startLine + i;
      if (sourceLine > r.endLine) break;
      position += rows[i]!.length;
      bounds.push({ endOffset: position, endLine: sourceLine });
      position += 1;
    }
    for (let i = bounds.length - 1; i >= 0; i--) {
      const { endOffset, endLine } = bounds[i]!;
      const candidate = assemble(body.slice(0, endOffset), [...readWindow({ totalLines: r.totalLines, startLine: r.startLine, endLine, nextOffset: endLine }), "truncated due to size"], [...notices, msg]);
      if (candidate.length <= READ_THRESHOLD) return candidate;
    }
  }
  const newline = body.indexOf("\n");
  const oversized = newline === -1 ? body.length : newline;
  const clipped: ReadResult = { totalLines: r.totalLines, startLine: r.startLine, endLine: r.startLine };
  const fieldsFor = (shown: number) => [...readWindow(clipped), "truncated mid-line", `${shown} of ${oversized} chars`];
  const reserved = assemble("", fieldsFor(oversized), [...notices, msg]).length;
  const shown = Math.max(0, Math.min(oversized, READ_THRESHOLD - reserved));
  return assemble(body.slice(0, shown), fieldsFor(shown), [...notices, msg]);
}

export function runWriteFile(ctx: ToolContext, args: { file_path: string; content: string }): ToolAnswer {
  const checked = checkPath(ctx, "write", args.file_path);
  if (!checked.ok) return checked.answer;
  const result = ctx.backend.write(checked.path, args.content);
  if (result.error) return error(result.error);
  return ok(`Successfully wrote to '${checked.path}'`);
}

export function runEditFile(ctx: ToolContext, args: { file_path: string; old_string: string; new_string: string; replace_all?: boolean }): ToolAnswer {
  const checked = checkPath(ctx, "write", args.file_path);
  if (!checked.ok) return checked.answer;
  const result = ctx.backend.edit(checked.path, args.old_string, args.new_string, args.replace_all ?? false);
  if (result.error) return error(result.error);
  return ok(`Successfully replaced ${result.occurrences} occurrence(s) in '${checked.path}'`);
}

export function runDelete(ctx: ToolContext, args: { file_path: string }): ToolAnswer {
  // Validated even with no rules (docs/reference/decisions.md step 0).
  const canonical = ctx.runtime.canonicalToolPath(args.file_path, true);
  if (!canonical.ok) return error(`Error: ${canonical.error}`);
  const target = canonical.path;
  const inputs = ctx.rules.map((r) => r.input);
  const subtree = deleteTargetMayHaveDescendants(ctx.backend, target, inputs.length > 0);
  const denying = deleteDenyPatterns(ctx.runtime, inputs, target, subtree);
  if (denying.length > 0) {
    const first = ctx.rules.find((r) => r.input.mode === "deny" && Array.isArray(r.input.paths) && r.input.paths.includes(denying[0]))
      ?? ctx.rules.find((r) => Array.isArray(r.input.paths) && r.input.paths.includes(denying[0]));
    return {
      outcome: "permission-denied",
      output: `Error: permission denied for write on ${target} (matches deny rule(s): ${denying.join(", ")})`,
      rule: first ? { index: first.index, pattern: denying[0]!, mode: typeof first.input.mode === "string" ? first.input.mode : "allow" } : undefined,
      denyPatterns: denying,
    };
  }
  if (!ctx.backend.delete) return error(`Error: deletion is not available for '${target}'.`);
  const result = ctx.backend.delete(target);
  if (result.error) return error(result.error);
  return ok(`Deleted ${target}`);
}

export function runGlob(ctx: ToolContext, args: { pattern: string; path?: string }): ToolAnswer {
  const checked = checkPath(ctx, "read", args.path ?? "/");
  if (!checked.ok) return checked.answer;
  const path = isPy(ctx) ? checked.path : args.path;
  const result = ctx.backend.glob(args.pattern, path ?? "/");
  if (result.error) return error(`Error finding files: ${result.error}`);
  const infos = filterEntries(ctx, result.files ?? [], (i) => i.path);
  if (infos.length === 0) return ok(isPy(ctx) ? "No files found" : `No files found matching pattern '${args.pattern}'`);
  return ok(truncateLines(infos.map((i) => i.path)).join("\n"));
}

export function runGrep(ctx: ToolContext, args: { pattern: string; path?: string; glob?: string | null; output_mode?: string; max_count?: number | null }): ToolAnswer {
  let path = args.path ?? "/";
  // deepagents-py checks grep's path only when one is given (docs/reference/decisions.md).
  if (!isPy(ctx) || args.path !== undefined) {
    const checked = checkPath(ctx, "read", path);
    if (!checked.ok) return checked.answer;
    path = checked.path;
  }
  const result = ctx.backend.grep(args.pattern, path, args.glob ?? null, args.max_count ?? 1000);
  if (result.error) return error(result.error);
  const matches = filterEntries(ctx, result.matches ?? [], (m) => m.path);
  if (matches.length === 0) return ok(isPy(ctx) ? "No files found" : `No matches found for pattern '${args.pattern}'`);
  let content = truncateText(formatGrep(matches, args.output_mode ?? "content"));
  if (result.truncated) content += "\n\nNote: the search stopped early because it hit the maximum match count. The matches above are valid but incomplete. Narrow the search (a more specific pattern or a narrower path), or raise max_count, to see the rest.";
  return ok(content);
}

function formatGrep(matches: readonly GrepMatch[], mode: string): string {
  const grouped = new Map<string, [number, string][]>();
  for (const m of matches) {
    let list = grouped.get(m.path);
    if (!list) grouped.set(m.path, (list = []));
    list.push([m.line, m.text]);
  }
  const paths = [...grouped.keys()].sort();
  if (mode === "files_with_matches") return paths.join("\n");
  if (mode === "count") return paths.map((p) => `${p}: ${grouped.get(p)!.length}`).join("\n");
  const lines: string[] = [];
  for (const p of paths) {
    lines.push(`${p}:`);
    for (const [n, text] of grouped.get(p)!) lines.push(`  ${n}: ${text}`);
  }
  return lines.join("\n");
}

export function runExecute(ctx: ToolContext, args: { command: string }): ToolAnswer {
  if (ctx.executeRefusal) return error(ctx.executeRefusal);
  // The dry run never starts a process: it says what the runtime would do.
  return { outcome: "ok", output: `[dry run] the sandbox would run: ${args.command}`, reason: "execute is available; the dry run does not run commands" };
}
