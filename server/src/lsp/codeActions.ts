/**
 * textDocument/codeAction: each finding's fixes as quick fixes, "Ignore <code> here" (writes the suppression
 * comment the engine honours), and `source.fixAll.agent-sandbox`, which applies only fixes the engine marks safe
 * (so it can run on save), round after round as `check --fix` does.
 */
import { CodeActionKind, type CodeAction, type CodeActionParams, type Diagnostic, type TextEdit } from "vscode-languageserver/node";
import type { Finding } from "../engine/diagnostics";
import { FixVerifier } from "../engine/deerflow/yamlFixes";
import { applyAllSafeFixes } from "../engine/fixes";
import { IGNORE_MARKER } from "../engine/suppressions";
import { findingOf, toDiagnostic } from "./diagnostics";
import { analyze, type Analysis, type AnalysisSettings, type FileKind } from "./engineFacade";

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.agent-sandbox`;
export const CODE_ACTION_KINDS = [CodeActionKind.QuickFix, FIX_ALL_KIND];

/** Codes a comment cannot meaningfully silence: the file does not parse, or the engine itself failed. */
const NOT_IGNORABLE = new Set(["json-syntax", "yaml-syntax", "internal-error"]);

/** The request takes actions of `kind`: no `only`, or an `only` entry that is `kind` or a kind above it (`source`). */
export function asksFor(params: CodeActionParams, kind: string): boolean {
  const only = params.context.only;
  return !only || only.some((o) => kind === o || kind.startsWith(`${o}.`));
}

/** Fix-all is asked for by name (`only`), never offered unasked (a lightbulb would run every fix). */
export function asksForFixAll(params: CodeActionParams): boolean {
  return params.context.only !== undefined && asksFor(params, FIX_ALL_KIND);
}

export function codeActions(
  params: CodeActionParams,
  analysis: Analysis,
  recheck: (text: string) => Analysis,
  /** A source file's fix-all (engine/sources/fixAll.ts): the text with every safe fix applied. */
  fixAllInSource?: () => string,
): CodeAction[] {
  const uri = params.textDocument.uri;
  const wants = (kind: string) => asksFor(params, kind);
  const actions: CodeAction[] = [];

  if (wants(CodeActionKind.QuickFix)) {
    // Diagnostics the client sent back, else every finding under the range (a client may not send them).
    const diagnostics = params.context.diagnostics.length
      ? params.context.diagnostics
      : analysis.findings.filter((f) => overlaps(analysis, f, params)).map((f) => toDiagnostic(f, analysis, uri));
    // One "Ignore" per code and line: the comment silences every finding of that code there.
    const ignoreOffered = new Set<string>();
    // A config.yaml's fixes are verified here, for the findings asked about (engineFacade.ts checks without).
    const verifier = analysis.kind === "deerflow-config" ? new FixVerifier(analysis.text, analysis.findings, (t) => recheck(t).findings) : undefined;
    for (const diagnostic of diagnostics) {
      const finding = findingOf(analysis, diagnostic);
      if (!finding) continue;
      finding.fixes?.filter((fix) => !verifier || verifier.holds(finding, fix)).forEach((fix, i) => {
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: i === 0 && fix.safe,
          edit: { changes: { [uri]: fix.edits.map((e) => ({ range: analysis.lines.rangeOf(e.span), newText: e.newText })) } },
        });
      });
      const ignoreKey = `${finding.code}:${analysis.lines.positionAt(finding.span.start).line}`;
      if (analysis.kind !== "dry-run" && !NOT_IGNORABLE.has(finding.code) && !ignoreOffered.has(ignoreKey)) {
        ignoreOffered.add(ignoreKey);
        actions.push({
          title: `Ignore ${finding.code} here`,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          edit: { changes: { [uri]: [ignoreEdit(analysis, finding)] } },
        });
      }
    }
  }

  if (asksForFixAll(params) && analysis.kind !== "dry-run" && (analysis.kind !== "source" || fixAllInSource)) {
    const edit = analysis.kind === "source" ? changedPart(analysis, fixAllInSource!()) : fixAllEdit(analysis, recheck);
    if (edit) actions.push({ title: "Fix all safe Agent Sandbox problems", kind: FIX_ALL_KIND, edit: { changes: { [uri]: [edit] } } });
  }
  return actions;
}

function overlaps(analysis: Analysis, finding: Finding, params: CodeActionParams): boolean {
  const start = analysis.lines.offsetAt(params.range.start);
  const end = analysis.lines.offsetAt(params.range.end);
  return finding.span.start <= end && start <= finding.span.end;
}

/**
 * `// agent-sandbox-ignore <code>` on its own line above the line the finding starts on (the engine applies it to
 * the next line that holds code), or the code added to such a comment that is already there.
 */
export function ignoreEdit(analysis: Analysis, finding: Finding): TextEdit {
  const { lines, text } = analysis;
  const line = lines.positionAt(finding.span.start).line;
  const lineStart = lines.lineStart(line);
  const indent = /^[ \t]*/.exec(text.slice(lineStart, lineStart + 200))![0];
  if (line > 0) {
    const previousStart = lines.lineStart(line - 1);
    const previous = text.slice(previousStart, lineStart).replace(/\r?\n$/, "");
    const existing = /^([ \t]*(?:\/\/|#)\s*)(agent-sandbox-ignore\b.*?)\s*$/.exec(previous);
    if (existing && existing[2]!.startsWith(IGNORE_MARKER)) {
      const end = previousStart + previous.replace(/\s+$/, "").length;
      return { range: { start: lines.positionAt(end), end: lines.positionAt(end) }, newText: ` ${finding.code}` };
    }
  }
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const at = lines.positionAt(lineStart);
  // JSONC, TypeScript and JavaScript comment with `//`; YAML (DeerFlow's config.yaml, a SKILL.md's frontmatter) and
  // Python with `#`.
  const comment = analysis.kind === "config" || (analysis.kind === "source" && analysis.language !== "python") ? "//" : "#";
  return { range: { start: at, end: at }, newText: `${indent}${comment} ${IGNORE_MARKER} ${finding.code}${eol}` };
}

/** The fixed text as one edit over the part of the file that changed (none when nothing did). */
function changedPart(analysis: Analysis, after: string): TextEdit | undefined {
  return after === analysis.text ? undefined : minimalEdit(analysis, after);
}

/** Every safe fix, applied and re-checked until none is left, as one edit over the part of the file that changed. */
export function fixAllEdit(analysis: Analysis, recheck: (text: string) => Analysis): TextEdit | undefined {
  // The same rounds as `check --fix` (engine/fixes.ts).
  const { text } = applyAllSafeFixes(analysis.text, analysis, recheck);
  if (text === analysis.text) return undefined;
  return minimalEdit(analysis, text);
}

function minimalEdit(analysis: Analysis, after: string): TextEdit {
  const before = analysis.text;
  let start = 0;
  while (start < before.length && start < after.length && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before.charCodeAt(endBefore - 1) === after.charCodeAt(endAfter - 1)) {
    endBefore--;
    endAfter--;
  }
  return { range: analysis.lines.rangeOf({ start, end: endBefore }), newText: after.slice(start, endAfter) };
}

export function recheckerFor(fsPath: string, settings: AnalysisSettings, kind: FileKind = "config"): (text: string) => Analysis {
  return (text) => analyze(fsPath, text, settings, kind);
}

export type { Diagnostic };
