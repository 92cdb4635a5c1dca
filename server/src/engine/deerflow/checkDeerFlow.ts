/**
 * DeerFlow's own files checked in place: `config.yaml` (its authorization block: the authz-* checks) and a skill's
 * `SKILL.md` (its frontmatter's `allowed-tools`: the skill-* checks). The one entry point every host uses for them,
 * as checkConfigText is for agent-sandbox.jsonc; the checks are the same ones, reading a model built from YAML.
 */
import type { CheckContext } from "../checks/check";
import { CHECKS } from "../checks/index";
import { reportAllowedToolsString, allowedToolsItems } from "../checks/skill/skillAllowedToolsString";
import { reportUnknownSkillTools, skillToolNames } from "../checks/skill/skillToolUnknown";
import type { CheckResult } from "../checkConfig";
import type { ConfigModel } from "../config/model";
import type { Finding, Severity, Skipped } from "../diagnostics";
import { FixRendering, replaceWith } from "../fixOperations";
import { compareFindings, IGNORE_MARKER, type SeverityOverrides } from "../suppressions";
import { LineIndex } from "../text";
import { deerFlowConfigOf } from "./configYaml";
import { looksLikeDeerFlowConfig, type DeerFlowFileKind } from "./fileNames";
import { readSkillFile } from "./skillMd";
import { yamlFrontEnd } from "./yamlFrontEnd";
import { withVerifiedYamlFixes } from "./yamlFixes";
import { parseYaml, YAML_SYNTAX } from "./yamlTree";

export * from "./fileNames";

export interface DeerFlowCheckOptions {
  /** Per-code severities (`off` drops the code, and its check does not run). */
  severities?: SeverityOverrides;
  /** Reads a file relative to the checked file's folder: a skill finds its DeerFlow config.yaml above it. */
  readFile?: (relativePath: string) => string | undefined;
  /** How messages name a checked SKILL.md (the path the host shows). Default: `SKILL.md`. */
  fileLabel?: string;
  /** The skill's folder name (default: none known). */
  folder?: string;
  /** Verify the fixes by checking their result. Default: true. */
  verifyFixes?: boolean;
  /** Offer fixes at all (a verification's check of a fixed text needs none). Default: true. */
  fixes?: boolean;
  /**
   * A config.yaml is checked only when it looks like DeerFlow's (`looksLikeDeerFlowConfig`) unless the user named
   * it: another program's config.yaml gets no diagnostic at all. Default: false.
   */
  named?: boolean;
}

/** The authz-* checks, in the catalogue's order: what config.yaml's authorization block gets. */
const AUTHZ_CHECKS = CHECKS.filter((c) => c.code.startsWith("authz-"));

export function checkDeerFlowText(text: string, kind: DeerFlowFileKind, options: DeerFlowCheckOptions = {}): CheckResult {
  return kind === "skill" ? checkSkillText(text, options) : checkDeerFlowConfigText(text, options);
}

export function checkDeerFlowConfigText(text: string, options: DeerFlowCheckOptions = {}): CheckResult {
  const lines = new LineIndex(text);
  if (!options.named && !looksLikeDeerFlowConfig(text)) return { findings: [], model: undefined, lines, skipped: [] };
  const parsed = parseYaml(text);
  const findings: Finding[] = [...parsed.findings];
  const skipped: Skipped[] = [];
  let model: ConfigModel | undefined;
  if (parsed.root?.type === "object") {
    const config = deerFlowConfigOf(parsed.root);
    model = config.model;
    findings.push(...config.findings);
    skipped.push(...config.skipped);
    // The YAML front end built the tree the model is made of: it renders the checks' fixes (none when none are wanted).
    const fixes = options.fixes === false ? undefined : new FixRendering(yamlFrontEnd.renderer(text));
    runChecks(AUTHZ_CHECKS, model, text, options.severities, findings, fixes);
  } else if (parsed.root && !parsed.refused) {
    findings.push({ code: YAML_SYNTAX, severity: "error", message: "A DeerFlow configuration must be a YAML mapping.", detail: "DeerFlow reads its config.yaml as a mapping of sections (models, tools, authorization, …).", span: { start: parsed.root.offset, end: parsed.root.offset + parsed.root.length } });
  }
  let shown = finish(findings, text, lines, options.severities);
  // Every rendered fix is verified by checking its result, unless the host verifies the few it offers (the editor).
  if (options.fixes !== false && options.verifyFixes !== false) shown = withVerifiedYamlFixes(text, shown, verificationCheck(options));
  return { findings: shown, model, lines, skipped };
}

/**
 * The check a fix's verification runs on the fixed text: no fixes, and only what can report an error (a
 * verification counts errors).
 */
function verificationCheck(options: DeerFlowCheckOptions): (text: string) => Finding[] {
  const severities: Record<string, Severity | "off"> = { ...options.severities };
  for (const c of AUTHZ_CHECKS) if ((severities[c.code] ?? c.severity) !== "error" && c.code !== "authz-invalid") severities[c.code] = "off";
  return (t) => checkDeerFlowConfigText(t, { ...options, severities, fixes: false, named: true }).findings;
}

/** How far above a skill its DeerFlow config.yaml is looked for (`skills/custom/<name>/SKILL.md` is three). */
const CONFIG_SEARCH_LEVELS = 5;

export function checkSkillText(text: string, options: DeerFlowCheckOptions = {}): CheckResult {
  const lines = new LineIndex(text);
  const label = options.fileLabel ?? "SKILL.md";
  const file = readSkillFile(text, label, options.folder ?? "");
  const findings: Finding[] = [...file.findings];
  const skipped: Skipped[] = [];
  const skill = file.skill;
  const off = (code: string) => options.severities?.[code] === "off";
  if (skill?.frontmatter.allowedTools) {
    // The frontmatter is YAML: the YAML front end renders fixes on it.
    const rendering = new FixRendering(yamlFrontEnd.renderer(text));
    const reporter = (code: string, severity: Severity): CheckContext["report"] => ({ fixes, ...f }) => {
      findings.push({ ...f, code, severity: f.severity ?? severity, ...(fixes !== undefined ? { fixes: rendering.fixes(fixes) } : {}) });
    };
    if (!off("skill-allowed-tools-string")) {
      const before = findings.length;
      reportAllowedToolsString(skill, reporter("skill-allowed-tools-string", severityOf("skill-allowed-tools-string")));
      const allowed = skill.frontmatter.allowedTools;
      // In its own file the value can be rewritten as the list it was meant to be.
      if (findings.length > before && allowed.kind === "string" && file.allowedToolsNode) {
        const items = allowedToolsItems(allowed.value);
        const fix = { title: `Write a list: [${items.join(", ")}]`, operations: [replaceWith(file.allowedToolsNode, items)], safe: false };
        findings[before]!.fixes = items.length > 0 ? rendering.fixes([fix]) : [];
      }
    }
    if (!off("skill-tool-unknown") && skill.frontmatter.allowedTools.kind === "list") {
      const config = configAbove(options.readFile);
      if (config) {
        reportUnknownSkillTools(skill, skillToolNames(config), reporter("skill-tool-unknown", severityOf("skill-tool-unknown")));
      } else if (file.allowedToolsNode) {
        skipped.push({
          checks: ["skill-tool-unknown"],
          what: "the tool names in allowed-tools",
          why: "no DeerFlow config.yaml was found in this folder or above it, so which tools the agents have is not known",
          span: { start: file.allowedToolsNode.offset, end: file.allowedToolsNode.offset + file.allowedToolsNode.length },
        });
      }
    }
  }
  const shown = finish(findings, text, lines, options.severities);
  return { findings: shown, model: undefined, lines, skipped };
}

/** The model of the DeerFlow config.yaml nearest above a skill, if one is found and reads. */
function configAbove(readFile: DeerFlowCheckOptions["readFile"]): ConfigModel | undefined {
  if (!readFile) return undefined;
  for (let level = 0; level <= CONFIG_SEARCH_LEVELS; level++) {
    for (const name of ["config.yaml", "config.yml"]) {
      const path = `${"../".repeat(level)}${name}`;
      const text = readFile(path);
      if (text === undefined || !looksLikeDeerFlowConfig(text)) continue;
      const parsed = parseYaml(text);
      if (parsed.root?.type === "object") return deerFlowConfigOf(parsed.root).model;
    }
  }
  return undefined;
}

function severityOf(code: string): Severity {
  return CHECKS.find((c) => c.code === code)?.severity ?? "warning";
}

/** The checks on `model`, built from `text` by the YAML front end; `fixes` renders their fixes (`undefined`: none wanted). */
function runChecks(checks: typeof CHECKS, model: ConfigModel, text: string, severities: SeverityOverrides | undefined, out: Finding[], fixes: FixRendering | undefined): void {
  for (const check of checks) {
    if (severities?.[check.code] === "off") continue;
    const context: CheckContext = {
      model,
      text,
      runtimes: [model.runtime],
      fileExists: () => false,
      readFile: () => undefined,
      report: ({ fixes: proposed, ...f }) => {
        const finding: Finding = { ...f, code: check.code, severity: f.severity ?? check.severity };
        if (proposed !== undefined && fixes) finding.fixes = fixes.fixes(proposed);
        out.push(finding);
      },
    };
    try {
      check.run(context);
    } catch (error) {
      // A bug in one check must not hide the others' findings, nor crash the host.
      out.push({ code: "internal-error", severity: "error", message: `The ${check.code} check failed on this file; please report it.`, detail: `It failed with: ${(error as Error).message}`, span: { start: 0, end: 0 } });
    }
  }
}

/**
 * Severities, `# agent-sandbox-ignore <code>` comments (on the element's own line, or alone on the line above
 * it) and file order: what finishFindings does for JSONC, with YAML's comments. (The fixes' line ends are the
 * file's already: the YAML front end writes them so.)
 */
function finish(findings: readonly Finding[], text: string, lines: LineIndex, severities: SeverityOverrides = {}): Finding[] {
  const suppressed = yamlSuppressions(text);
  const out: Finding[] = [];
  for (const f of findings) {
    const override = severities[f.code];
    if (override === "off") continue;
    const codes = suppressed.get(lines.positionAt(f.span.start).line);
    if (codes && f.code !== YAML_SYNTAX && f.code !== "internal-error" && (codes.has(f.code) || codes.has("all"))) continue;
    out.push(override ? { ...f, severity: override } : f);
  }
  return out.sort(compareFindings);
}

/** Line → codes silenced there by YAML comments. */
export function yamlSuppressions(text: string): Map<number, Set<string>> {
  const result = new Map<number, Set<string>>();
  if (!text.includes(IGNORE_MARKER)) return result;
  const textLines = text.split("\n");
  let pending: string[] = [];
  textLines.forEach((line, number) => {
    const hash = commentStart(line);
    const comment = hash >= 0 ? line.slice(hash + 1) : "";
    const code = (hash >= 0 ? line.slice(0, hash) : line).trim();
    const at = comment.indexOf(IGNORE_MARKER);
    const codes = at >= 0 ? comment.slice(at + IGNORE_MARKER.length).split(/[\s,]+/).filter((c) => /^[a-z][a-z0-9-]*$/.test(c)) : [];
    if (code === "" || code === "-") {
      pending.push(...codes);
      return;
    }
    const here = [...codes, ...pending];
    pending = [];
    if (here.length > 0) result.set(number, new Set(here));
  });
  return result;
}

/** Where a line's comment starts (`#` at the start or after white space, outside quotes), or -1. */
function commentStart(line: string): number {
  let quote = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return i;
  }
  return -1;
}
