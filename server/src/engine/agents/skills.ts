import type { ConfigModel, Located } from "../config/model";
import type { Span } from "../text";

/**
 * Skills: folders holding `<name>/SKILL.md` whose YAML frontmatter may restrict tools with `allowed-tools`
 * (deerflow-authorization.md A.3 step 5; DeerFlow `deerflow/skills/parser.py`). DeerFlow requires a YAML *list* of
 * non-empty strings; a string is an error and the whole skill is dropped at load.
 *
 * Only the small frontmatter subset skills use is read here (no YAML dependency): `key: scalar`, flow lists
 * `key: [a, "b"]`, block lists (`key:` then `- a` lines), quotes, comments. Anything else is kept as "other".
 */
export type AllowedTools =
  | { kind: "list"; items: { value: string; line: number; span?: Span }[] }
  | { kind: "string"; value: string; span?: Span }
  | { kind: "other"; text: string };

export interface SkillFrontmatter {
  name?: string;
  description?: string;
  allowedTools?: AllowedTools;
  /** 0-based line of the `allowed-tools` key in SKILL.md. */
  allowedToolsLine?: number;
}

export interface SkillInfo {
  /** The folder name (`<name>` in `<name>/SKILL.md`). */
  folder: string;
  /** Path of SKILL.md relative to the config file. */
  file: string;
  /**
   * The `skills` entry of the config that found it: findings about the skill go on it, unless the skill's own
   * file is the one checked (engine/deerflow/skillMd.ts), whose `allowed-tools` values carry their spans.
   */
  entry: Located<string>;
  frontmatter: SkillFrontmatter;
}

/** How skills reach the disk: relative to the config file's folder. */
export interface SkillFileAccess {
  readFile: (relativePath: string) => string | undefined;
  /** Entries of a folder (names only), `undefined` when it cannot be listed. */
  listDirectory?: (relativePath: string) => string[] | undefined;
}

/** Each skills entry is a skill folder itself (`./skills/review`) or a folder of them (`./skills`). */
export function loadSkills(entries: readonly Located<string>[], access: SkillFileAccess): SkillInfo[] {
  const skills: SkillInfo[] = [];
  for (const entry of entries) {
    const base = entry.value.replace(/\/+$/, "");
    const own = access.readFile(`${base}/SKILL.md`);
    if (own !== undefined) {
      skills.push({ folder: base.split("/").at(-1) ?? base, file: `${base}/SKILL.md`, entry, frontmatter: parseSkillFrontmatter(own) });
      continue;
    }
    for (const child of [...(access.listDirectory?.(base) ?? [])].sort()) {
      const file = `${base}/${child}/SKILL.md`;
      const text = access.readFile(file);
      if (text !== undefined) skills.push({ folder: child, file, entry, frontmatter: parseSkillFrontmatter(text) });
    }
  }
  return skills;
}

/** Every skill the config names: top-level `skills` (main and general-purpose) and each subagent's. */
export function allSkills(model: ConfigModel, access: SkillFileAccess): SkillInfo[] {
  const entries = [...model.skills];
  for (const s of model.subagents) entries.push(...s.skills);
  return loadSkills(entries, access);
}

export function parseSkillFrontmatter(text: string): SkillFrontmatter {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const result: SkillFrontmatter = {};
  if (lines[0]?.trim() !== "---") return result;
  let end = lines.findIndex((l, i) => i > 0 && (l.trim() === "---" || l.trim() === "..."));
  if (end < 0) end = lines.length;
  for (let i = 1; i < end; i++) {
    const line = lines[i]!;
    const match = /^([A-Za-z0-9_-]+)\s*:(.*)$/.exec(line);
    if (!match) continue;
    const key = match[1]!;
    const rest = stripComment(match[2]!).trim();
    let value: AllowedTools;
    if (rest === "" || rest === "|" || rest === ">") {
      // A block list (or a block scalar) on the following, more indented lines.
      const items: { value: string; line: number }[] = [];
      let j = i + 1;
      let sawNonItem = false;
      for (; j < end; j++) {
        const next = lines[j]!;
        if (next.trim() === "" || next.trim().startsWith("#")) continue;
        if (!/^\s/.test(next) && !next.startsWith("-")) break;
        const item = /^\s*-\s*(.*)$/.exec(next);
        if (item) items.push({ value: scalar(stripComment(item[1]!).trim()), line: j });
        else sawNonItem = true;
      }
      value = rest === "" && !sawNonItem && items.length > 0 ? { kind: "list", items } : { kind: "other", text: rest };
      if (rest === "" && items.length === 0 && !sawNonItem) value = { kind: "other", text: "" };
      i = j - 1;
    } else if (rest.startsWith("[")) {
      const inner = rest.endsWith("]") ? rest.slice(1, -1) : rest.slice(1);
      const items = splitFlow(inner)
        .map((v) => v.trim())
        .filter((v) => v !== "")
        .map((v) => ({ value: scalar(v), line: i }));
      value = { kind: "list", items };
    } else {
      value = { kind: "string", value: scalar(rest) };
    }
    if (key === "allowed-tools") {
      result.allowedTools = value;
      result.allowedToolsLine = i;
    } else if (key === "name" && value.kind === "string") result.name = value.value;
    else if (key === "description" && value.kind === "string") result.description = value.value;
  }
  return result;
}

function stripComment(text: string): string {
  // A `#` starts a comment at the start or after whitespace, outside quotes.
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) return text.slice(0, i);
  }
  return text;
}

function scalar(text: string): string {
  if (text.length >= 2 && ((text.startsWith('"') && text.endsWith('"')) || (text.startsWith("'") && text.endsWith("'")))) {
    const inner = text.slice(1, -1);
    return text.startsWith("'") ? inner.replace(/''/g, "'") : inner.replace(/\\"/g, '"').replace(/\\\\/g, "\\");
  }
  return text;
}

function splitFlow(inner: string): string[] {
  const parts: string[] = [];
  let quote = "";
  let current = "";
  for (const c of inner) {
    if (quote) {
      if (c === quote) quote = "";
      current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === ",") {
      parts.push(current);
      current = "";
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/** The tools DeerFlow's skill policy always adds back (`tool_policy.py` L18–25). */
export const SKILL_FRAMEWORK_TOOLS: readonly string[] = ["describe_skill", "read_file", "review_skill_package", "tool_search"];
