import type { Span } from "../text";
import type { SyntaxNode } from "./treeSitter";
import { shortExpression, type Value } from "./values";

/** One `createDeepAgent(...)` / `create_deep_agent(...)` call in a source file. */
export interface AgentCall {
  /** The whole call expression. */
  span: Span;
  /** The callee as written (an alias, `da.createDeepAgent`). */
  calleeSpan: Span;
  /** The options the call passes (JS: its object argument; Python: its keyword arguments), as far as known. */
  options: Value & { kind: "object" };
  /** Parts of the options that are spread from a value the front end cannot see: any option may come from them. */
  unknownSpreads: Value[];
}

/** How deep an expression is evaluated (nested calls, names bound to names): past it, the value is dynamic. */
export const MAX_DEPTH = 64;

export function spanOf(node: SyntaxNode): Span {
  return { start: node.startIndex, end: node.endIndex };
}

/** A dynamic value for `node`: its text, shortened (read from the file's text, never the whole of a huge node). */
export function dynamicOf(node: SyntaxNode, text: string): Value {
  return { kind: "dynamic", expression: shortExpression(text.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 200))), span: spanOf(node) };
}

/** The named children that are not comments. */
export function parts(node: SyntaxNode): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  for (const child of node.namedChildren) if (child && child.type !== "comment") found.push(child);
  return found;
}

/** Decodes the escapes of a JS or Python string literal's body (the common ones; others stay as written). */
export function unescape(body: string): string {
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])/g, (_, e: string) => {
    if (e.startsWith("u{")) return String.fromCodePoint(parseInt(e.slice(2, -1), 16));
    if ((e[0] === "u" && e.length === 5) || (e[0] === "x" && e.length === 3)) return String.fromCharCode(parseInt(e.slice(1), 16));
    const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0", "\n": "", "\r\n": "" };
    return simple[e] ?? e;
  });
}
