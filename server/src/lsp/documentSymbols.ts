/** textDocument/documentSymbol: the outline of a config (agents, subagents, rules, roles) or a dry-run scenario. */
import { findNodeAtLocation, type Node } from "jsonc-parser";
import { SymbolKind, type DocumentSymbol } from "vscode-languageserver/node";
import type { MiddlewareSpec, RuleListSpec } from "../engine/config/model";
import { parseJsonc } from "../engine/config/parse";
import { roleNames, type Analysis } from "./engineFacade";
import { valueText } from "../engine/text";

/** `1 rule`, `2 rules`. */
function counted(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun : `${noun}s`}`;
}

export function documentSymbols(analysis: Analysis): DocumentSymbol[] {
  const range = (node: Node) => analysis.lines.rangeOf({ start: node.offset, end: node.offset + node.length });
  const symbol = (name: string, kind: SymbolKind, node: Node, selection: Node, detail?: string, children: DocumentSymbol[] = []): DocumentSymbol => ({
    name: name === "" ? " " : name,
    kind,
    range: range(node),
    selectionRange: range(selection),
    ...(detail ? { detail } : {}),
    children,
  });
  /** The property node around a value (so the symbol's range includes its key). */
  const withKey = (value: Node) => (value.parent?.type === "property" ? value.parent : value);
  const keyOf = (value: Node) => (value.parent?.type === "property" ? value.parent.children![0]! : value);

  if (analysis.kind === "dry-run") {
    const root = parseJsonc(analysis.text).root;
    const steps = root && findNodeAtLocation(root, ["steps"]);
    if (!root || steps?.type !== "array") return [];
    return (steps.children ?? []).map((step, i) => {
      const tool = findNodeAtLocation(step, ["tool"]);
      return symbol(`step ${i + 1}: ${typeof tool?.value === "string" ? tool.value : "?"}`, SymbolKind.Event, step, tool ?? step);
    });
  }

  const model = analysis.model;
  if (!model) return [];
  const rules = (list: RuleListSpec | undefined): DocumentSymbol[] =>
    (list?.rules ?? []).map((r) => {
      const mode = typeof r.input.mode === "string" ? r.input.mode : "allow";
      const paths = Array.isArray(r.input.paths) ? r.input.paths.map(valueText).join(", ") : "";
      return symbol(`rule ${r.index}: ${mode} ${paths}`, SymbolKind.Field, r.node, r.modeNode ?? r.pathsNode ?? r.node, Array.isArray(r.input.operations) ? r.input.operations.map(valueText).join(", ") : undefined);
    });
  const permissions = (list: RuleListSpec | undefined): DocumentSymbol[] =>
    list ? [symbol("permissions", SymbolKind.Array, withKey(list.node), keyOf(list.node), counted(list.rules.length, "rule"), rules(list))] : [];
  const middleware = (list: readonly MiddlewareSpec[]): DocumentSymbol[] =>
    list.map((m) => symbol(m.type === "filesystem" ? "filesystem middleware" : (m.name ?? m.type ?? "middleware"), SymbolKind.Object, m.node, m.node, `middleware #${m.index}`, permissions(m.permissions)));

  const children: DocumentSymbol[] = [...permissions(model.permissions), ...middleware(model.middleware)];
  for (const s of model.subagents) {
    children.push(symbol(s.name ?? `#${s.index}`, SymbolKind.Class, s.node, s.nameNode ?? s.node, "subagent", [
      ...(s.permissions.kind === "list" ? permissions(s.permissions.list) : []),
      ...middleware(s.middleware),
    ]));
  }
  const roles = model.authorization && findNodeAtLocation(model.authorization, ["roles"]);
  if (model.authorization && roles?.type === "object") {
    const declared = new Set(roleNames(model));
    const roleSymbols = (roles.children ?? []).filter((p) => p.children?.[0]).map((p) => {
      const name = String(p.children![0]!.value);
      return symbol(name, SymbolKind.EnumMember, p, p.children![0]!, declared.has(name) ? "role" : "role (not in effect)");
    });
    children.push(symbol("authorization", SymbolKind.Namespace, withKey(model.authorization), keyOf(model.authorization), counted(roleSymbols.length, "role"), roleSymbols));
  }
  const nameNode = findNodeAtLocation(model.root, ["name"]);
  return [symbol(model.name ?? "main", SymbolKind.Module, model.root, nameNode ?? model.root, "main agent", children)];
}
