import type { Span } from "./text";

export type Severity = "error" | "warning" | "information" | "hint";
export const SEVERITIES: readonly Severity[] = ["error", "warning", "information", "hint"];

/** A text edit on the checked file, in offsets (hosts turn it into ranges). */
export interface Edit {
  span: Span;
  newText: string;
}

export interface Fix {
  title: string;
  edits: Edit[];
  /** Safe fixes are applied by `check --fix` and `source.fixAll`: they only ever do what the message promises. */
  safe: boolean;
}

export interface Related {
  message: string;
  span: Span;
}

/** A finding of one check, before it is placed in a file's lines. */
export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  span: Span;
  related?: Related[];
  witness?: string;
  fixes?: Fix[];
  /** LSP tags: `unnecessary` greys the text out. */
  tags?: "unnecessary"[];
}
