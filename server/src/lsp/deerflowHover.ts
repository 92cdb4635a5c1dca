/**
 * Hovers in a DeerFlow config.yaml: on a role's name under `provider.config.roles`, and on `default_role`, the
 * tools that role keeps, as the JSONC file's role hover shows them (the engine decides: deerflow/roleTools.ts).
 */
import { property, type JsonNode } from "../engine/config/parse";
import type { ConfigModel } from "../engine/config/model";
import { deerFlowRoleTools } from "../engine/deerflow/roleTools";

/** The markdown and the span it is about, or `undefined` when the caret is on no role. */
export function deerFlowHover(model: ConfigModel, offset: number): { markdown: string; span: { start: number; end: number } } | undefined {
  const block = model.authorization;
  if (block?.type !== "object") return undefined;
  const inside = (n: JsonNode | undefined) => !!n && n.offset <= offset && offset <= n.offset + n.length;
  const roles = property(block, "roles");
  const names = roles?.type === "object" ? (roles.children ?? []).map((p) => p.children?.[0]).filter((k): k is JsonNode => typeof k?.value === "string") : [];
  let role: string | undefined;
  let on: JsonNode | undefined;
  const key = names.find(inside);
  const defaultRole = property(block, "default_role");
  if (key) [role, on] = [String(key.value), key];
  else if (defaultRole?.type === "string" && inside(defaultRole)) [role, on] = [String(defaultRole.value), defaultRole];
  if (role === undefined || !on) return undefined;
  const span = { start: on.offset, end: on.offset + on.length };
  const declared = names.map((k) => String(k.value));
  if (!declared.includes(role)) {
    return { markdown: `Role \`${role}\` is not declared under \`provider.config.roles\`${declared.length ? ` (roles: ${declared.map((r) => `\`${r}\``).join(", ")})` : ""}.`, span };
  }
  const result = deerFlowRoleTools(model, role);
  if (!result) return { markdown: `### Role \`${role}\`\n\nThe authorization block is not enabled: DeerFlow filters no tool.`, span };
  const visible = result.tools.filter((t) => t.visible);
  const hidden = result.tools.filter((t) => !t.visible);
  const out = [`### Role \`${role}\``, "", `**${visible.length} of ${result.tools.length} tools kept** (the config's tools and DeerFlow's built-ins)`, ""];
  if (visible.length > 0) {
    out.push("| visible tool | kind |", "| --- | --- |");
    for (const t of visible) out.push(`| \`${t.name}\` | ${t.kind} |`);
  } else out.push("No tool is visible.");
  if (hidden.length > 0) {
    out.push("", "Hidden:", "");
    for (const t of hidden) out.push(`- \`${t.name}\` (authorization): ${escapeMarkdown(t.reason ?? "")}`);
  }
  out.push("", "MCP tools and the built-ins that depend on other settings (task, view_image, …) are decided the same way and not listed.");
  return { markdown: out.join("\n"), span };
}

function escapeMarkdown(text: string): string {
  return text.replace(/\r?\n/g, " ").replace(/[\\`*_[\]<>|#]/g, (c) => `\\${c}`);
}
