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
  /**
   * The rule list (its span) whose decisions, as they stand, prove this fix safe (removing a rule that "changes no
   * decision"). Any other edit of that list can void the proof (two copies of one deny are each redundant; both
   * removed, the path is open), so fix-all applies one such fix per list per round, and none in a round where
   * another fix changes that list; the re-check then proves the next one on the list as it has become.
   */
  provenOn?: Span;
  /**
   * Fixes proved safe together (rule removals of one list: all of them at once change none of its decisions, proved
   * on the list as it stands). Each one alone is safe as well, but a part of the group need not be (two copies of
   * one deny), so fix-all applies the group whole, with its own edits, or none of it that round.
   */
  together?: FixGroup;
  /** What applying it did, for fix-all's listing ("removed rule 12 (allow "/a/**"): decided the same way without it"). */
  applied?: string;
}

/** See `Fix.together`: the group's fixes share this object. */
export interface FixGroup {
  /** The list the group's proof is about. */
  readonly list: Span;
  /** The edits of every fix of the group, made to be applied together (no two overlap). */
  readonly edits: readonly Edit[];
  /**
   * What the edits do, one entry per change, for fix-all's listing. A group may do more than its fixes: rules that
   * become removable once the others are gone go with them (what the next rounds would otherwise find one by one).
   */
  readonly applied: readonly string[];
}

export interface Related {
  message: string;
  span: Span;
}

/** A finding of one check, before it is placed in a file's lines. */
export interface Finding {
  code: string;
  severity: Severity;
  /**
   * What is wrong, in one short plain-text sentence (under 20 words, no markdown: editors show it as plain text in
   * the Problems panel). The runtime's quote, the witness's story and the reasoning go into `detail`.
   */
  message: string;
  /** The longer explanation (plain text, may span sentences): shown in hovers, the CLI's text output and JSON. */
  detail?: string;
  span: Span;
  related?: Related[];
  witness?: string;
  fixes?: Fix[];
  /** LSP tags: `unnecessary` greys the text out. */
  tags?: "unnecessary"[];
}

/**
 * Something a check did not finish, so it stayed silent there rather than guess (design: a check that cannot
 * finish reports nothing wrong, and says so once). Hosts show these beside the findings: `check --format json`'s
 * `skipped` list, the text output's "not analysed" line, the editor's language status.
 */
export interface Skipped {
  /** The checks that stayed silent because of it. */
  readonly checks: readonly string[];
  /** What was not checked, in words: "rules 812 to 999 of the top-level permissions". */
  readonly what: string;
  /** Why: a work budget ran out, a construct has no automaton, … */
  readonly why: string;
  readonly span: Span;
}
