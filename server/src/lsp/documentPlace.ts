/** What sits at an offset of a parsed document: the node, its JSON path, and whether it is a property key. */
import { findNodeAtOffset, getNodePath, type JSONPath, type Node } from "jsonc-parser";
import type { ConfigModel } from "../engine/config/model";

export interface Place {
  node: Node;
  path: JSONPath;
  isKey: boolean;
}

export function placeAt(root: Node, offset: number): Place | undefined {
  const node = findNodeAtOffset(root, offset, true);
  if (!node) return undefined;
  const parent = node.parent;
  if (parent?.type === "property" && parent.children?.[0] === node && parent.parent) {
    return { node, path: [...getNodePath(parent.parent), String(node.value)], isKey: true };
  }
  if (node.type === "property" && node.children?.[0] && node.parent) {
    return { node: node.children[0], path: [...getNodePath(node.parent), String(node.children[0].value)], isKey: true };
  }
  return { node, path: getNodePath(node), isKey: false };
}

/** The agent a place belongs to: a subagent's name inside `subagents[i]`, else the main agent. */
export function agentOfPath(model: ConfigModel, path: JSONPath): string | undefined {
  if (path[0] === "subagents" && typeof path[1] === "number") return model.subagents.find((s) => s.index === path[1])?.name;
  return "main";
}

/** Whether a path lies inside a middleware entry (`[…, "middleware", i, …]`). */
export function inMiddleware(path: JSONPath): boolean {
  const at = path.lastIndexOf("middleware");
  return at >= 0 && typeof path[at + 1] === "number";
}

export function pathEquals(path: JSONPath, pattern: readonly (string | number | "*" | "#")[]): boolean {
  if (path.length !== pattern.length) return false;
  return pattern.every((p, i) => p === "*" || (p === "#" ? typeof path[i] === "number" : p === path[i]));
}

export function commandLink(title: string, command: string, args: unknown): string {
  return `[${title}](command:${command}?${encodeURIComponent(JSON.stringify([args]))})`;
}
