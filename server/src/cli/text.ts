import type { DiagnosticJson } from "../engine/output";

const CODES = { red: 31, yellow: 33, green: 32, blue: 34, gray: 90, bold: 1 } as const;

export function paint(text: string, colour: keyof typeof CODES, enabled: boolean): string {
  return enabled ? `\u001b[${CODES[colour]}m${text}\u001b[0m` : text;
}

/** `0 tools`, `1 tool`, `2 tools`: a count and its noun, in the plural unless the count is one. */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? singular : plural}`;
}

/** An agent's visible tools as the `tools` command prints them: `2 tools: ls, read_file`, or `no tools`. */
export function toolsWords(names: readonly string[]): string {
  return names.length === 0 ? "no tools" : `${counted(names.length, "tool")}: ${names.join(", ")}`;
}

/**
 * The hidden tools of one `tools` entry, one line per step and reason (`  hidden ls, read_file (allowlist): …`),
 * in the order each reason first comes: a refused middleware hides eight tools for one reason, said once.
 */
export function hiddenToolLines(hidden: readonly { name: string; hiddenBy?: string; reason?: string }[], color: boolean): string {
  const groups = new Map<string, { names: string[]; hiddenBy: string; reason: string }>();
  for (const t of hidden) {
    const hiddenBy = `${t.hiddenBy}`;
    const reason = `${t.reason}`;
    const key = JSON.stringify([hiddenBy, reason]);
    const group = groups.get(key);
    if (group) group.names.push(t.name);
    else groups.set(key, { names: [t.name], hiddenBy, reason });
  }
  let text = "";
  for (const g of groups.values()) text += `  ${paint(`hidden ${g.names.join(", ")}`, "gray", color)} (${g.hiddenBy}): ${g.reason}\n`;
  return text;
}

const SEVERITY_COLOUR = { error: "red", warning: "yellow", information: "blue", hint: "gray" } as const;

/** Characters of a detail's line, after the 22 columns it is indented by (so a line fits 100 columns). */
const DETAIL_WIDTH = 78;

/**
 * A finding's detail in lines of at most `width` characters, broken at spaces (a word longer than that, a long
 * path or pattern, gets a line of its own rather than being cut).
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(" ")) {
      if (word === "") continue;
      if (line !== "" && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line === "" ? word : `${line} ${word}`;
    }
    lines.push(line);
  }
  return lines;
}

/** Human-friendly output, one block per file, in the style linters use (`line:col  severity  message  code`). */
export function textReport(
  files: { path: string; diagnostics: DiagnosticJson[]; skipped?: { what: string; why: string; checks: string[] }[] }[],
  summary: { files: number; errors: number; warnings: number; information: number; hints: number },
  color: boolean,
  /** Files named that could not be read (each already said on stderr): the last line must not say all is well. */
  unreadable = 0,
  /** Files whose fixes `--fix` could not write (also said on stderr). */
  unwritable = 0,
): string {
  let out = "";
  for (const file of files) {
    if (file.diagnostics.length === 0 && !file.skipped) continue;
    out += `${paint(file.path, "bold", color)}\n`;
    for (const s of file.skipped ?? []) {
      out += `  ${paint(`not analysed: ${s.what} (${s.why}); ${s.checks.join(", ")} stayed silent there`, "gray", color)}\n`;
    }
    for (const d of file.diagnostics) {
      // At least one space after the position, even when line:column outgrows its 8 characters (a 100,000-character pattern).
      const where = `${d.range.start.line + 1}:${d.range.start.character + 1} `.padEnd(8);
      out += `  ${where}${paint(d.severity.padEnd(12), SEVERITY_COLOUR[d.severity], color)}${d.message}  ${paint(d.code, "gray", color)}\n`;
      if (d.detail !== undefined) for (const line of wrap(d.detail, DETAIL_WIDTH)) out += line === "" ? "\n" : `  ${"".padEnd(20)}${line}\n`;
      if (d.witness !== undefined) out += `  ${"".padEnd(20)}${paint(`witness: ${d.witness}`, "gray", color)}\n`;
      for (const r of d.related ?? []) out += `  ${"".padEnd(20)}${paint(`${r.range.start.line + 1}:${r.range.start.character + 1} ${r.message}`, "gray", color)}\n`;
    }
    out += "\n";
  }
  const total = summary.errors + summary.warnings + summary.information + summary.hints;
  const counts = `${counted(summary.errors, "error")}, ${counted(summary.warnings, "warning")}, ${summary.information} information, ${counted(summary.hints, "hint")}`;
  const failed = unreadable + unwritable;
  const unread = (unreadable > 0 ? `; ${counted(unreadable, "file")} could not be read` : "") + (unwritable > 0 ? `; ${counted(unwritable, "file")} could not be written` : "");
  out += total === 0
    ? `${paint(failed > 0 ? "✖" : "✔", failed > 0 ? "red" : "green", color)} ${counted(summary.files, "file")} checked, no problems${unread}\n`
    : `${paint("✖", summary.errors || failed ? "red" : "yellow", color)} ${counted(total, "problem")} in ${counted(summary.files, "file")}: ${counts}${unread}\n`;
  return out;
}
