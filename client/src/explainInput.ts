/**
 * What Explain Decision asks, as plain data (no VS Code API, so that node:test checks it): the operation picker,
 * which says the tools behind each operation, and the path input box.
 */
import type { EffectiveToolRow } from "../../server/src/protocol";

export type Operation = "read" | "write";
const OPERATIONS: readonly Operation[] = ["read", "write"];

/** A quick pick item (vscode.QuickPickItem's fields) for one operation. */
export interface OperationItem {
  label: Operation;
  description: string;
}

/**
 * One item per operation, saying which of the agent's tools path rules decide as that operation, or that the agent
 * has none: the rules still decide the operation, but no tool of this agent asks for it.
 */
export function operationItems(tools: readonly EffectiveToolRow[]): OperationItem[] {
  return OPERATIONS.map((operation) => {
    const names = tools.filter((t) => t.visible && t.operation === operation).map((t) => t.name);
    return { label: operation, description: names.length > 0 ? `by ${names.join(", ")}` : `this agent has no ${operation} tool` };
  });
}

/** vscode.InputBoxOptions for the path, pre-filled with the sample workspace's mount point. */
export interface PathInputOptions {
  title: string;
  prompt: string;
  value: string;
  valueSelection: [number, number];
}

/**
 * The pre-filled folder is selected, so that typing a whole path replaces it (with the caret after it, typing
 * /workspace/a.txt gave /workspace//workspace/a.txt), while the arrow keys keep it to type the rest.
 */
export function pathInputOptions(agent: string, operation: Operation, mountAt: string | undefined): PathInputOptions {
  const value = mountAt ? `${mountAt.replace(/\/+$/, "")}/` : "/";
  return { title: `Explain: ${operation} by ${agent}`, prompt: "The path the tool is called with", value, valueSelection: [0, value.length] };
}
