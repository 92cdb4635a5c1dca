import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { CheckOptions } from "../../engine/checkConfig";
import type { Finding, Severity } from "../../engine/diagnostics";
import type { DiagnosticJson } from "../../engine/output";
import { flag, oneOf, UsageError, type ParsedArgs } from "../args";
import { later } from "../later";
import { readOrSay } from "../loadModel";
import { DOCS, VERSION } from "../product";
import type { Io } from "../stdio";
import type { DeerFlowFileKind } from "../../engine/deerflow/fileNames";
import type { SourceLanguage } from "../../engine/sources";
import { textReport } from "../text";
import { scenarioConfigLanguage } from "../sourceConfig";
import { noteInputCharacters, setAnalysisV8Flags } from "../v8Flags";

interface FileReport {
  path: string;
  diagnostics: DiagnosticJson[];
  /**
   * A source file's values that only running the code would tell, for every call (cli.md): where each is written
   * and what could not be read. Present only for source files with such values.
   */
  dynamic?: { range: DiagnosticJson["range"]; reason: string }[];
  /**
   * What the checks left unchecked (a work budget, a construct without an automaton), said once per file: they
   * stayed silent there rather than guess. Present only when something was skipped.
   */
  skipped?: { what: string; why: string; checks: string[]; range: DiagnosticJson["range"] }[];
  /**
   * Why the file was not checked (it could not be read: `diagnostics` is empty) or not fixed (`--fix` could not
   * write it: `diagnostics` are the unfixed text's). Also said on stderr; present only then, and the exit code is 2.
   */
  error?: string;
}

/**
 * `agent-sandbox check [PATH ...]`: every config and dry-run file found, checked (and with --fix, fixed), DeerFlow's
 * config.yaml and SKILL.md files, and every TypeScript, JavaScript and Python file that calls deepagents' `createDeepAgent` / `create_deep_agent` (found in
 * folders: one that never names the package is not parsed, and not reported). Asynchronous only when a source file
 * needs its grammar loaded.
 */
export function check(args: ParsedArgs, io: Io): number | Promise<number> {
  // Usage errors first, before any file is read.
  oneOf(flag(args, "format"), ["text", "json", "sarif"] as const, "format", "text");
  severityOverrides(args);
  const targets = args.positionals.length ? args.positionals : ["."];
  const { findFiles, isConfigFileName, isDirectory, isDryRunFileName } = later.files();
  const { sourceLanguageOf } = later.sources();
  const files: string[] = [];
  // A file named twice (`d d/agent-sandbox.jsonc ./d`, or reached through a link) is checked, fixed and counted
  // once, under the first name that is not a link's, if any.
  const named = new Map<string, number>();
  const add = (file: string) => {
    const key = sameFileKey(file);
    const at = named.get(key);
    if (at === undefined) {
      named.set(key, files.push(file) - 1);
    } else if (resolve(file) === key && resolve(files[at]!) !== key) {
      files[at] = file;
    }
  };
  // DeerFlow's own files (config.yaml, SKILL.md) are checked in place: any YAML file named, and those found in a
  // folder that are DeerFlow's (another program's config.yaml is not ours).
  const deerflow = later.deerflowFiles();
  const deerFlowKindOf = (file: string, named: boolean) => (isConfigFileName(basename(file)) || isDryRunFileName(basename(file)) ? undefined : deerflow.deerFlowKindOf(file, named));
  const onCommandLine = new Set<string>();
  // Source files found in a folder count only when they may call the runtime; a source file named is always checked.
  const sources = new Map<string, SourceFile>();
  for (const target of targets) {
    if (isDirectory(target)) {
      const found = findFiles(target, (n) => isConfigFileName(n) || isDryRunFileName(n) || sourceLanguageOf(n) !== undefined || deerflow.deerFlowKindOf(n) !== undefined);
      for (const file of found) {
        const source = sourceFile(file, false);
        if (source === null) continue;
        if (source) sources.set(file, source);
        else if (deerFlowKindOf(file, false) !== undefined && !deerFlowFileInFolder(file, deerflow)) continue;
        add(file);
      }
    } else {
      const source = sourceFile(target, true);
      if (source) sources.set(target, source);
      add(target);
      onCommandLine.add(target);
    }
  }
  const deerFlowKinds = new Map<string, DeerFlowFileKind>();
  for (const f of files) {
    const kind = sources.has(f) ? undefined : deerFlowKindOf(f, onCommandLine.has(f));
    if (kind) deerFlowKinds.set(f, kind);
  }
  const languages = new Set([...sources.values()].filter((s) => s.text !== undefined && later.sources().mayCallRuntime(s.text)).map((s) => s.language));
  // A scenario whose config is a source file's call needs that file's grammar too.
  for (const f of files) {
    if (!isDryRunFileName(basename(f))) continue;
    try {
      const language = scenarioConfigLanguage(later.files().readTextFile(f).text);
      if (language) languages.add(language);
    } catch {
      // Unreadable: the check says so when it comes to the file.
    }
  }
  if (languages.size === 0) return checkFiles(args, io, files, sources, deerFlowKinds);
  const { loadLanguage } = later.sources();
  return Promise.all([...languages].map((l) => loadLanguage(l, later.grammarFiles().grammarFiles))).then(
    () => checkFiles(args, io, files, sources, deerFlowKinds),
    (error: Error) => {
      io.err(`agent-sandbox: cannot load the parser for source files: ${error.message}\n`);
      return 2;
    },
  );
}

interface SourceFile {
  language: SourceLanguage;
  /** Undefined when it could not be read (the check says so, as for any file). */
  text?: string;
  byteOrderMark?: boolean;
}

/**
 * A TypeScript, JavaScript or Python file's language and text; `undefined` for other files, `null` for a source file
 * found in a folder that does not call the runtime (left out, at the cost of one read and a substring search).
 */
function sourceFile(file: string, named: boolean): SourceFile | undefined | null {
  const language = later.sources().sourceLanguageOf(basename(file));
  if (!language) return undefined;
  try {
    const { text, byteOrderMark } = later.files().readTextFile(file);
    if (!named && !later.sources().mayCallRuntime(text)) return null;
    return { language, text, byteOrderMark };
  } catch {
    return named ? { language } : null;
  }
}

function checkFiles(args: ParsedArgs, io: Io, files: readonly string[], sources: ReadonlyMap<string, SourceFile>, deerFlowKinds: ReadonlyMap<string, DeerFlowFileKind>): number {
  const format = oneOf(flag(args, "format"), ["text", "json", "sarif"] as const, "format", "text");
  const fix = !!flag(args, "fix");
  const severities = severityOverrides(args);
  const targets = args.positionals.length ? args.positionals : ["."];
  const { asWritten, displayPath, isDryRunFileName, relativeAccess } = later.files();
  // The analysis bundle is loaded before any file changes V8's flags (the analysis, or a long input, v8Flags.ts):
  // every bundle is then loaded, and its compiled code cached, under the same flags, which V8 stamps on cached code
  // (a cache stamped with other flags is refused by the next run).
  if (analysisWanted(args) && files.some((f) => !isDryRunFileName(basename(f)) && !deerFlowKinds.has(f))) later.analysis();
  const reports: FileReport[] = [];
  let unreadable = 0;
  let unwritable = 0;
  // Files whose --fix stopped at its bound with safe fixes left: exit 1, work is left.
  let unfinished = 0;
  for (const file of files) {
    const source = sources.get(file);
    if (source?.text !== undefined) {
      // Checked as far as the file spells out its options. Its fixes (in its own syntax) are reported, never applied:
      // --fix leaves source files alone.
      const result = later.sources().checkSourceText(source.text, source.language, { ...relativeAccess(file), severities, analysis: analysisWanted(args) });
      const report: FileReport = { path: displayPath(file), diagnostics: result.findings.map((f: Finding) => later.output().toDiagnosticJson(f, result.lines)) };
      const dynamic = result.agents.flatMap((a) => a.config.dynamic).sort((a, b) => a.span.start - b.span.start);
      if (dynamic.length > 0) {
        const { dynamicWords } = require("../../engine/export/importCall") as typeof import("../../engine/export/importCall");
        report.dynamic = dynamic.map((d) => ({ range: { start: result.lines.positionAt(d.span.start), end: result.lines.positionAt(d.span.end) }, reason: dynamicWords(d) }));
      }
      if (result.skipped.length > 0) {
        report.skipped = result.skipped.map((s) => ({ what: s.what, why: s.why, checks: [...s.checks], range: { start: result.lines.positionAt(s.span.start), end: result.lines.positionAt(s.span.end) } }));
      }
      reports.push(report);
      continue;
    }
    const read = readOrSay(file, io);
    if (typeof read === "string") {
      unreadable++;
      reports.push({ path: displayPath(file), diagnostics: [], error: read });
      continue;
    }
    const { text, byteOrderMark } = read;
    const dryRun = isDryRunFileName(basename(file));
    const deerFlowKind = deerFlowKinds.get(file);
    const options: CheckOptions = { ...relativeAccess(file), severities, analysis: analysisWanted(args) };
    // A run of seconds from here on, not of milliseconds: optimised code pays, and the young heap may grow in
    // bigger steps (v8Flags.ts).
    if (options.analysis && !dryRun && !deerFlowKind) setAnalysisV8Flags();
    // With --fix, the rounds read only safe fixes (checkConfigText's `fixRound`), and the text reported is checked
    // in full once, at the end (or as the last round's check, applyAllSafeFixes's `finalCheck`), reusing their analysis.
    const fixRounds = fix && !dryRun && !deerFlowKind;
    let checkedInFull = false;
    const run = (t: string) => {
      noteInputCharacters(t.length);
      if (deerFlowKind) return later.deerflow().checkDeerFlowText(t, deerFlowKind, { ...relativeAccess(file), severities, named: true, fileLabel: displayPath(file) });
      return dryRun ? { ...later.dryRun().checkDryRunText(t, { ...later.workspace().scenarioCheckOptions(file), severities: options.severities }), model: undefined, skipped: [] } : later.checkConfig().checkConfigText(t, fixRounds ? { ...options, fixRound: true } : options);
    };
    let result = run(text);
    let reportedText = text;
    // A file that does not parse is read with error recovery, and an edit worked out on that reading may land
    // anywhere: nothing is fixed until the syntax is (as linters do with a file they cannot parse).
    const syntaxErrors = fix && result.findings.some((f: Finding) => f.code === "json-syntax" || f.code === "yaml-syntax");
    if (syntaxErrors) io.err(`agent-sandbox: ${displayPath(file)}: has ${deerFlowKind ? "YAML" : "JSON"} syntax errors; --fix changes nothing in it until they are fixed\n`);
    let writeError: string | undefined;
    if (fix && !dryRun && !syntaxErrors) {
      const unfixed = result;
      // Fixes can touch the same lines; apply what does not overlap, re-check, repeat (the editor's fix-all too).
      const all = later.fixes().applyAllSafeFixes(text, result, run, undefined, undefined, fixRounds ? (t: string) => {
        noteInputCharacters(t.length);
        return later.checkConfig().checkAfterFixRounds(t, options);
      } : undefined);
      checkedInFull = all.finalChecked;
      const applied = all.applied;
      const fixed = all.text;
      result = all.result;
      reportedText = fixed;
      if (!all.complete) {
        unfinished++;
        io.err(`agent-sandbox: ${displayPath(file)}: stopped after ${all.rounds} rounds of fixes with safe fixes left; run --fix again\n`);
      }
      if (fixed !== text) {
        try {
          writeFileSync(file, asWritten(fixed, byteOrderMark));
          io.err(`agent-sandbox: ${displayPath(file)}: ${applied.length} safe fix${applied.length === 1 ? "" : "es"} applied (${countedCodes(applied.map((a) => a.code))})\n`);
          for (const a of applied) io.err(`  ${a.code}: ${a.did}\n`);
        } catch (error) {
          // The file is as it was: report what it says, and say why it was not fixed (exit 2, like an unreadable file).
          writeError = `cannot write the fixes (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the file is unchanged`;
          io.err(`agent-sandbox: ${displayPath(file)}: ${writeError}\n`);
          result = unfixed;
          reportedText = text;
          checkedInFull = false;
          unwritable++;
        }
      }
    }
    if (fixRounds && !checkedInFull) {
      noteInputCharacters(reportedText.length);
      result = later.checkConfig().checkAfterFixRounds(reportedText, options);
    }
    const report: FileReport = { path: displayPath(file), diagnostics: result.findings.map((f: Finding) => later.output().toDiagnosticJson(f, result.lines)) };
    if (writeError) report.error = writeError;
    if (result.skipped.length > 0) {
      report.skipped = result.skipped.map((s) => ({
        what: s.what,
        why: s.why,
        checks: [...s.checks],
        range: { start: result.lines.positionAt(s.span.start), end: result.lines.positionAt(s.span.end) },
      }));
    }
    reports.push(report);
  }
  if (files.length === 0) {
    io.err(`agent-sandbox: no config, dry-run or agent source files found in ${targets.join(", ")}\n`);
    return 2;
  }
  // `files` counts the files checked; `failed`, present only then, those that could not be read or written.
  const summary: { files: number; errors: number; warnings: number; information: number; hints: number; failed?: number } = {
    files: reports.length - unreadable, errors: 0, warnings: 0, information: 0, hints: 0,
  };
  if (unreadable + unwritable > 0) summary.failed = unreadable + unwritable;
  for (const r of reports) {
    for (const d of r.diagnostics) {
      if (d.severity === "error") summary.errors++;
      else if (d.severity === "warning") summary.warnings++;
      else if (d.severity === "information") summary.information++;
      else summary.hints++;
    }
  }
  if (format === "json") io.out(`${JSON.stringify({ files: reports, summary }, null, 2)}\n`);
  else if (format === "sarif") io.out(`${JSON.stringify(later.sarif().toSarif(reports, VERSION, DOCS), null, 2)}\n`);
  else io.out(textReport(reports, summary, io.color, unreadable, unwritable));
  if (unreadable + unwritable > 0) return 2;
  return summary.errors > 0 || unfinished > 0 ? 1 : 0;
}

function severityOverrides(args: ParsedArgs): Record<string, Severity | "off"> {
  const overrides: Record<string, Severity | "off"> = {};
  const entries = args.flags.get("severity") ?? [];
  const codes = entries.length > 0 ? later.checks().knownCodes() : [];
  for (const entry of entries) {
    const [code, level, ...extra] = entry.split("=");
    const levels: string[] = [...later.diagnostics().SEVERITIES, "off"];
    if (!code || !level || extra.length > 0 || !levels.includes(level)) {
      throw new UsageError(`--severity takes CODE=LEVEL with LEVEL one of ${levels.join(", ")} (got "${entry}")`);
    }
    if (!codes.includes(code)) {
      // A misspelt code would otherwise change nothing, silently: the user believes a check is off that still runs.
      const near = later.didYouMean().didYouMean(code, codes);
      throw new UsageError(`--severity: no check has the code "${code}"${near ? `; did you mean "${near}"?` : ` (every code has a page in ${DOCS}/checks)`}`);
    }
    overrides[code] = level as Severity | "off";
  }
  return overrides;
}

/** The file a path names, for telling two spellings of one file apart: its real path when it exists. */
function sameFileKey(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

/** `rule-empty, path-not-absolute ×2`: the codes of the fixes applied, each once, in the order first applied. */
function countedCodes(codes: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const c of codes) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts].map(([code, n]) => (n === 1 ? code : `${code} ×${n}`)).join(", ");
}

/**
 * The exact rule-order analysis runs unless `--no-analysis` says otherwise: the findings it gives (a deny after a
 * broader allow that never fires) are the ones this product exists for, and cli.md's own `check` example is one.
 * `--analysis`, its opt-in spelling from before it was the default, is still accepted and changes nothing.
 */
function analysisWanted(args: ParsedArgs): boolean {
  return !flag(args, "no-analysis");
}

/** A config.yaml or SKILL.md found in a folder is checked when it is DeerFlow's (another program's YAML is not ours). */
function deerFlowFileInFolder(file: string, deerflow: ReturnType<typeof later.deerflowFiles>): boolean {
  try {
    return deerflow.isDeerFlowText(file, readFileSync(file, "utf8"));
  } catch {
    return false;
  }
}
