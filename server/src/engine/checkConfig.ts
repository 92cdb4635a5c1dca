import configSchema from "../../../schemas/agent-sandbox.schema.json";
import { exactAnalysis } from "./analysisLoader";
import { ANALYSIS_CHECKS, CHECKS } from "./checks";
import { subagentEscalation } from "./checks/subagent/subagentEscalation";
import type { Check, CheckContext } from "./checks/check";
import { PatternTable } from "./checks/common/patternTable";
import { allRuleLists, buildModel, type ConfigModel } from "./config/model";
import { parseJsonc, spanOf } from "./config/parse";
import { SchemaValidator, type Schema } from "./config/schemaValidator";
import type { Finding, Severity, Skipped } from "./diagnostics";
import type { RuntimeId } from "./runtime";
import { byCodePoints, compareFindings, finishFindings, type SeverityOverrides } from "./suppressions";
import { LineIndex } from "./text";
import { AnalysisCancelled } from "./cancellation";
import { withdrawFailingFixes } from "./fixVerification";
import { listsHeldBack } from "./fixes";
import { FixRendering, type FixRenderer } from "./fixOperations";
import { jsoncFrontEnd } from "./config/jsoncFrontEnd";
import { blockedChecks } from "./config/dynamic";

export interface CheckOptions {
  /** Whether a path relative to the config file's folder exists. Default: nothing exists. */
  fileExists?: (relativePath: string) => boolean;
  /** Reads a file relative to the config file's folder (`undefined` when it cannot be read). Default: none. */
  readFile?: (relativePath: string) => string | undefined;
  /** Lists a folder relative to the config file's folder (entry names; `undefined` when it cannot be listed). */
  listDirectory?: (relativePath: string) => string[] | undefined;
  /**
   * Per-code severity overrides (`off` drops the code, and a check turned off does not run). Applied by the engine,
   * with the file's `agent-sandbox-ignore` comments, to every kind of file: hosts pass them and show what comes back.
   */
  severities?: SeverityOverrides;
  /** The runtime of a config that names none (the editor's `defaultRuntime` setting; default: deepagents-js). */
  defaultRuntime?: RuntimeId;
  /** Also run the exact rule-order analysis (ANALYSIS_CHECKS and the path half of subagent-escalation). */
  analysis?: boolean;
  /**
   * Run the exact analysis only, none of the other checks: for a host that already has their findings for the same
   * text (the editor's second phase, which adds these to its first phase's with `mergeFindings`).
   */
  analysisOnly?: boolean;
  /** Verify the fixes that add to the config by checking the fixed text (fixVerification.ts). Default: true. */
  verifyFixes?: boolean;
  /** The automata work of each check that builds automata of its own, in steps (default `CHECK_AUTOMATA_STEPS`; tests lower it). */
  automataSteps?: number;
  /**
   * A check for a round of fix-all (fixes.ts `applyAllSafeFixes`), which reads nothing but the safe fixes: the
   * checks that never offer one (NO_SAFE_FIXES) do not run, nor rule-redundant where its removals are not safe (a
   * config with compatibleWith), and no fix is verified (a safe fix never is). Its findings are not the file's:
   * report `checkAfterFixRounds` of the last round's text.
   */
  fixRound?: boolean;
}

/**
 * Checks that never offer a safe fix, and take most of a large file's time: fix-all's rounds leave them out (a test,
 * test/fixes/fixRound.test.ts, holds every safe fix of a fix round to the full check's).
 */
const NO_SAFE_FIXES: ReadonlySet<string> = new Set(["subagent-escalation", "rule-shadowed", "rule-partially-shadowed", "runtime-divergence", "dotfiles-unprotected"]);

export interface CheckResult {
  findings: Finding[];
  /** The model, when the file parsed well enough to build one. */
  model: ConfigModel | undefined;
  lines: LineIndex;
  /**
   * What a check did not finish, where it reported nothing: the fast checks' (a work budget ran out) in file
   * order, then, with the analysis, what the exact analysis could not decide.
   */
  skipped: Skipped[];
  /**
   * A fix round's check only (`fixRound`): how many rule lists another safe fix of the round changes (present when
   * some). The round then proves nothing on any list (the exact analysis did not run), and the next round proves
   * them all: it is not the last.
   */
  heldBack?: number;
}

const configValidator = new SchemaValidator(configSchema as unknown as Schema);

/** Parse, validate against the schema, and run every check: the one entry point every host uses. */
export function checkConfigText(text: string, options: CheckOptions = {}): CheckResult {
  const lines = new LineIndex(text);
  const parsed = parseJsonc(text);
  // With `analysisOnly`, the syntax and schema findings are the other phase's too.
  const whole = !options.analysisOnly;
  const findings: Finding[] = whole ? [...parsed.findings] : [];
  let model: ConfigModel | undefined;
  const skipped: Skipped[] = [];
  let heldBack = 0;
  // The JSONC front end built the tree the schema and the model read: it renders their fixes.
  const fixes = new FixRendering(jsoncFrontEnd.renderer(text));
  if (parsed.root) {
    if (parsed.root.type !== "object") {
      if (whole) findings.push({ code: "schema", severity: "error", message: "A configuration must be a JSON object.", detail: 'For example: { "version": 1 }', span: { start: parsed.root.offset, end: parsed.root.offset + parsed.root.length } });
    } else {
      if (whole) for (const f of configValidator.validate(parsed.root)) findings.push(fixes.finding(f));
      model = buildModel(parsed.root, options.defaultRuntime);
      heldBack = runChecks(model, text, options, findings, skipped, fixes);
    }
  }
  skipped.sort((a, b) => a.span.start - b.span.start || byCodePoints(a.what, b.what));
  // Then what the exact analysis could not decide, in its own order: every host shows the two lists as one.
  if ((options.analysis || options.analysisOnly) && model) skipped.push(...exactAnalysis().skippedAnalyses(model));
  let shown = finishFindings(findings, text, lines, options.severities);
  if (options.verifyFixes !== false && !options.fixRound && model) {
    // Only what can report an error (the verification counts errors), without the exact analysis (no fix verified
    // here can add one of its findings): a check below error level is not run at all.
    const severities: Record<string, Severity | "off"> = { ...options.severities };
    for (const c of CHECKS) if ((severities[c.code] ?? c.severity) !== "error") severities[c.code] = "off";
    const recheck = (t: string) => checkConfigText(t, { ...options, analysis: false, analysisOnly: false, verifyFixes: false, severities }).findings;
    shown = withdrawFailingFixes(text, shown, recheck);
  }
  return heldBack > 0 ? { findings: shown, model, lines, skipped, heldBack } : { findings: shown, model, lines, skipped };
}

/**
 * `checkConfigText` of a text fix-all's rounds (`fixRound`) checked last: the analysis they did for its rules is
 * reused. Unless the analysis ran out of the file's work allowance (modelAnalysis.ts `FileLimits`): what it left
 * undecided then depends on which checks asked first, so the text is checked again from scratch, as on its own.
 */
export function checkAfterFixRounds(text: string, options: CheckOptions = {}): CheckResult {
  const result = checkConfigText(text, options);
  if (!(options.analysis || options.analysisOnly) || !result.model || !exactAnalysis().analysisWorkExhausted(result.model)) return result;
  exactAnalysis().clearAnalysisResults();
  return checkConfigText(text, options);
}

/**
 * Every check of the run on `model`, built from `text` by a front end; `fixes` renders the checks' fixes (operations
 * on the model) into edits of `text` in that front end's syntax. Returns how many rule lists a fix round held back.
 */
function runChecks(model: ConfigModel, text: string, options: CheckOptions, out: Finding[], skipped: Skipped[], fixes: FixRendering): number {
  const runtimes = [...new Set([model.runtime, ...model.compatibleWith.map((c) => c.value).filter((r) => r !== model.runtime)])];
  // One table for the whole run: the checks ask about the same patterns, and each is compiled once.
  const patterns = new PatternTable();
  // One context for every check of the run (a check runs synchronously, start to end): `report` and `skip` file
  // what they are given under the check that is running. Forty-odd contexts, each with its own closures, were a
  // fifth of what a small file's check allocated.
  let check: Check = CHECKS[0]!;
  // A round of fix-all proves nothing on a list another safe fix of the round changes (`applySafeFixes` would leave
  // the proof for the next round): the other checks' safe fixes are known before the analysis runs (the rule lists
  // they change are counted here), and then it does not run this round. A proof on the text as given was a walk over
  // every rule, thrown away.
  let heldBack = 0;
  const context: CheckContext = {
    model,
    text,
    runtimes,
    patterns,
    fileExists: options.fileExists ?? (() => false),
    readFile: options.readFile ?? (() => undefined),
    listDirectory: options.listDirectory,
    analysis: !!(options.analysis || options.analysisOnly),
    analysisOnly: !!options.analysisOnly,
    ...(options.automataSteps !== undefined ? { automataSteps: options.automataSteps } : {}),
    report: (f) => {
      // Built field by field rather than spread: every check reports objects of its own shape, and a spread of
      // so many shapes takes V8's slow path.
      const finding: Finding = { code: check.code, severity: f.severity ?? check.severity, message: f.message, span: f.span };
      if (f.detail !== undefined) finding.detail = f.detail;
      if (f.related !== undefined) finding.related = f.related;
      if (f.witness !== undefined) finding.witness = f.witness;
      if (f.fixes !== undefined) finding.fixes = fixes.fixes(f.fixes);
      if (f.tags !== undefined) finding.tags = f.tags;
      out.push(finding);
    },
    // (A check turned off in the settings does not run, so it never says what it did not finish.)
    skip: (note) => {
      skipped.push({ ...note, checks: [check.code] });
    },
  };
  const checks = options.analysisOnly ? [subagentEscalation, ...ANALYSIS_CHECKS] : options.analysis ? [...CHECKS, ...ANALYSIS_CHECKS] : CHECKS;
  let proving = false;
  // A check that would need a value the front end could not read would take its absence for a fact: it does not run.
  const blocked = model.dynamic?.length ? blockedChecks(model.dynamic) : undefined;
  for (check of checks) {
    if (blocked?.has(check.code)) continue;
    // A check turned off is not run at all: its findings would all be dropped, and some checks are the slowest part
    // of a large file (dotfiles-unprotected's witness search, the exact analysis).
    if (options.severities?.[check.code] === "off") continue;
    if (options.fixRound && (NO_SAFE_FIXES.has(check.code) || (check.code === "rule-redundant" && runtimes.length > 1))) continue;
    if (options.fixRound && !proving && ANALYSIS_CODES.has(check.code)) {
      // The analysis checks run last: every other safe fix of the round is known.
      proving = true;
      const lists = allRuleLists(model);
      const spans = lists.map((list) => spanOf(list.node));
      const held = new Set(listsHeldBack(finishFindings(out, text, new LineIndex(text), options.severities), spans));
      // With one list held back the round is not the last, and the next reads every list again (the primary walk is
      // one walk over all of them): proving the others now would be that work twice. The round applies the other
      // checks' fixes alone, and the analysis runs once, on the next round's text, with nothing held back.
      if (held.size > 0) {
        heldBack = held.size;
        break;
      }
    }
    try {
      check.run(context);
    } catch (error) {
      // A host that stopped the analysis wants nothing of this run (cancellation.ts).
      if (error instanceof AnalysisCancelled) throw error;
      // A bug in one check must not hide the others' findings, nor crash the host.
      out.push({
        code: "internal-error",
        severity: "error",
        message: `The ${check.code} check failed on this file; please report it.`,
        detail: `It failed with: ${(error as Error).message}`,
        span: { start: 0, end: 0 },
      });
    }
  }
  return heldBack;
}

const ANALYSIS_CODES: ReadonlySet<string> = new Set(ANALYSIS_CHECKS.map((c) => c.code));

/**
 * Every check on a model a front end other than the JSONC parser built (server/src/engine/sources/): no syntax or
 * schema findings, no fix verification (that re-checks JSONC). The checks' fixes are rendered by `renderer`, the
 * front end's own (by default none are offered). Findings unfinished: the caller finishes them with the whole
 * file's text.
 */
/** A front end that renders no fix: every fix is left out. */
const NO_FIXES: FixRenderer = { render: () => [] };

export function checkBuiltModel(model: ConfigModel, text: string, options: CheckOptions = {}, renderer: FixRenderer = NO_FIXES): { findings: Finding[]; skipped: Skipped[] } {
  const findings: Finding[] = [];
  const skipped: Skipped[] = [];
  runChecks(model, text, options, findings, skipped, new FixRendering(renderer));
  skipped.sort((a, b) => a.span.start - b.span.start || byCodePoints(a.what, b.what));
  if ((options.analysis || options.analysisOnly) && model) skipped.push(...exactAnalysis().skippedAnalyses(model));
  return { findings: onceAtEachPlace(findings), skipped };
}

/**
 * In source, one value can stand in two places of the model (`const rules = [...]` given as `permissions` and
 * again to a subagent): a check then finds the same thing twice at the one span the value has. Said once.
 */
function onceAtEachPlace(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.code}\u0000${f.span.start}\u0000${f.span.end}\u0000${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export { compareFindings, usesCrlf } from "./suppressions";

/**
 * The findings of a whole check from those of a check without the analysis (`first`) and an `analysisOnly` one
 * (`analysed`) of the same text and options: exactly `checkConfigText` with `analysis`. Both lists are finished
 * (sorted, suppressions and severities applied); a stable sort of the two keeps the whole check's order, in which
 * the only findings of one code at one place from both are subagent-escalation's (tool half first, as its check
 * reports them).
 */
export function mergeFindings(first: readonly Finding[], analysed: readonly Finding[]): Finding[] {
  return [...first, ...analysed].sort(compareFindings);
}
