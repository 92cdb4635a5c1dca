/**
 * Which files are DeerFlow's to check, by name and a look at the text: light on purpose (no YAML parser), so that a
 * host can ask about every file it finds and load the YAML front end only for the ones that are.
 */

export type DeerFlowFileKind = "deerflow-config" | "skill";

/** The file names DeerFlow reads its configuration from (and the editor checks by name). */
export function isDeerFlowConfigName(name: string): boolean {
  return /^config\.ya?ml$/.test(name);
}

export function isSkillFileName(name: string): boolean {
  return name === "SKILL.md";
}

/**
 * Which DeerFlow file a name is: `config.yaml` / `config.yml` and `SKILL.md` by name; any other `.yaml` / `.yml`
 * only when `named` (the user gave it to the CLI), since other programs' YAML is not ours to check.
 */
export function deerFlowKindOf(fileName: string, named = false): DeerFlowFileKind | undefined {
  const base = fileName.split(/[\\/]/).at(-1) ?? fileName;
  if (isSkillFileName(base)) return "skill";
  if (isDeerFlowConfigName(base)) return "deerflow-config";
  if (named && /\.ya?ml$/i.test(base)) return "deerflow-config";
  return undefined;
}

/**
 * Whether a YAML text is a DeerFlow configuration rather than some other tool's `config.yaml`: one of the
 * top-level sections only DeerFlow has, or a class path into `deerflow.`. Read from the text, so that a file that
 * does not parse is still recognised (and its syntax errors shown), and another program's file is left alone.
 */
export function looksLikeDeerFlowConfig(text: string): boolean {
  return /^(authorization|tool_groups|tool_search|guardrails)[ \t]*:/m.test(text) || /\buse:[ \t]*["']?deerflow\./.test(text);
}

/** The frontmatter's span in a SKILL.md (after the opening `---` line, up to the closing `---` or `...`), or `undefined`. */
export function frontmatterSpan(text: string): { start: number; end: number } | undefined {
  const open = /^(?:\uFEFF)?---[ \t]*\r?\n/.exec(text);
  if (!open) return undefined;
  const start = open[0].length;
  const m = /^(?:---|\.\.\.)[ \t]*\r?$/m.exec(text.slice(start));
  // An unclosed frontmatter: DeerFlow finds no frontmatter at all.
  if (!m) return undefined;
  return { start, end: start + m.index };
}

/**
 * Whether a file found in a folder is DeerFlow's to check: a config.yaml that looks like DeerFlow's, a SKILL.md
 * whose frontmatter has `allowed-tools`.
 */
export function isDeerFlowText(fileName: string, text: string): boolean {
  const kind = deerFlowKindOf(fileName);
  if (kind === "deerflow-config") return looksLikeDeerFlowConfig(text);
  if (kind === "skill") {
    const span = frontmatterSpan(text);
    return !!span && /^allowed-tools[ \t]*:/m.test(text.slice(span.start, span.end));
  }
  return false;
}
