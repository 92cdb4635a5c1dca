import type { Span } from "../text";

/**
 * What a source expression evaluates to without running anything: the front ends (typescript.ts, python.ts)
 * evaluate the call's arguments into these, and toConfig.ts maps them onto the config's keys. Every value keeps
 * the span where it is written (a name bound once in the file gives its initializer's span, where a fix belongs).
 */
export type Value =
  | { kind: "string"; value: string; span: Span }
  | { kind: "number"; value: number; span: Span }
  | { kind: "boolean"; value: boolean; span: Span }
  | { kind: "null"; span: Span }
  /** A JS array or Python list; a Python set or tuple (`collection`). */
  | { kind: "list"; items: Value[]; collection?: "set" | "tuple"; span: Span }
  /** A JS object literal, a Python dict, or a call's keyword arguments. */
  | { kind: "object"; entries: Entry[]; span: Span }
  /**
   * A call or `new` of a name the front end recognises: `runtime` is the exported name when it comes from the
   * deepagents package (`FilesystemBackend`, `createFilesystemMiddleware`, `FilesystemMiddleware`); `module`
   * names the package it was imported from, when known.
   */
  | { kind: "call"; callee: string; runtime?: string; module?: string; args: Value[]; keywords: Entry[]; expression: string; span: Span; part?: "sandbox" | "backend" }
  /** `(config) => new StateBackend(config)`, `lambda rt: StateBackend(rt)`: a factory the runtime calls. */
  | { kind: "factory"; returns: Value; span: Span }
  /** A Python function defined in the file (`@tool def web_search(...)`): its name and decorators as written. */
  | { kind: "function"; name: string; decorators: string[]; span: Span }
  /**
   * What an agent-sandbox export's function is given by the application, under the config's name for it
   * (export/parts.ts): a user tool (`parts.tools.web_search`) or a custom middleware (`parts.middleware.Audit`).
   */
  | { kind: "part"; part: "tools" | "middleware"; name: string; span: Span }
  /** Anything that needs running the code: a call to the user's own function, a parameter, an environment read. */
  | { kind: "dynamic"; expression: string; span: Span };

export interface Entry {
  key: string;
  keySpan: Span;
  value: Value;
}

/** An expression as the user wrote it, on one line and short enough for a message. */
export function shortExpression(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length <= 40 ? oneLine : `${oneLine.slice(0, 37)}…`;
}

export function entry(value: Value & { kind: "object" }, ...keys: string[]): Entry | undefined {
  let found: Entry | undefined;
  for (const e of value.entries) if (keys.includes(e.key)) found = e;
  return found;
}
