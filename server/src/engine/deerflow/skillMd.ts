/**
 * A skill's `SKILL.md` checked in place: its YAML frontmatter (between the first line `---` and the next `---` or
 * `...`) read with the same YAML reader as config.yaml, `allowed-tools` with the span of each value, so that
 * skill-allowed-tools-string and skill-tool-unknown report on the frontmatter itself, with the words they use
 * when a config names the skill.
 */
import type { AllowedTools, SkillFrontmatter, SkillInfo } from "../agents/skills";
import { property, propertyKeyNode, type JsonNode } from "../config/parse";
import type { Finding } from "../diagnostics";
import { LineIndex } from "../text";
import { frontmatterSpan } from "./fileNames";
import { parseYaml } from "./yamlTree";

export interface SkillFile {
  /** `undefined` when the file has no frontmatter (nothing to check). */
  skill: SkillInfo | undefined;
  /** yaml-syntax findings of the frontmatter. */
  findings: Finding[];
  /** The `allowed-tools` value node, when there is one. */
  allowedToolsNode?: JsonNode;
}

/** `label`: how messages name the file (the path the host shows, else `SKILL.md`). */
export function readSkillFile(text: string, label: string, folder: string): SkillFile {
  const span = frontmatterSpan(text);
  if (!span) return { skill: undefined, findings: [] };
  const parsed = parseYaml(text.slice(span.start, span.end), span.start);
  const lines = new LineIndex(text);
  const frontmatter: SkillFrontmatter = {};
  const root = parsed.root;
  let allowedToolsNode: JsonNode | undefined;
  if (root?.type === "object") {
    const name = property(root, "name");
    if (name?.type === "string") frontmatter.name = name.value as string;
    const description = property(root, "description");
    if (description?.type === "string") frontmatter.description = description.value as string;
    allowedToolsNode = property(root, "allowed-tools");
    if (allowedToolsNode) {
      frontmatter.allowedTools = allowedToolsOf(allowedToolsNode, lines);
      frontmatter.allowedToolsLine = lines.positionAt((propertyKeyNode(allowedToolsNode) ?? allowedToolsNode).offset).line;
    }
  }
  // The skill as a config naming it sees it; `entry` is not reported on here (the values carry their spans).
  const entryNode: JsonNode = { type: "string", value: label, offset: allowedToolsNode?.offset ?? 0, length: allowedToolsNode?.length ?? 0 };
  const skill: SkillInfo = { folder, file: label, entry: { value: label, node: entryNode }, frontmatter };
  return { skill, findings: parsed.findings, ...(allowedToolsNode ? { allowedToolsNode } : {}) };
}

function allowedToolsOf(node: JsonNode, lines: LineIndex): AllowedTools {
  const span = { start: node.offset, end: node.offset + node.length };
  if (node.type === "string") return { kind: "string", value: node.value as string, span };
  if (node.type === "array") {
    const items: { value: string; line: number; span: { start: number; end: number } }[] = [];
    for (const child of node.children ?? []) {
      // Only names are checked: a number or an empty item is another mistake (DeerFlow drops the skill over it too).
      if (child.type === "string" && child.value !== "") {
        items.push({ value: child.value as string, line: lines.positionAt(child.offset).line, span: { start: child.offset, end: child.offset + child.length } });
      }
    }
    return { kind: "list", items };
  }
  return { kind: "other", text: node.type };
}
