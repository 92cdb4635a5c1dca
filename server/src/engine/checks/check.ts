import type { ConfigModel } from "../config/model";
import type { JsonNode } from "../config/parse";
import type { Finding, Severity } from "../diagnostics";
import type { Runtime } from "../runtime/runtime";
import type { PatternTable } from "./patternTable";

/**
 * One check = one diagnostic code = one file in this folder = one page in docs/checks/<code>.md.
 * A check reads the model and reports findings; it never formats output or knows its host.
 */
export interface Check {
  readonly code: string;
  readonly severity: Severity;
  /** One line for the docs index and `--list-checks`. */
  readonly summary: string;
  run(context: CheckContext): void;
}

export interface CheckContext {
  readonly model: ConfigModel;
  readonly text: string;
  /** The runtimes whose semantics matter here: `runtime` first, then each `compatibleWith` entry. */
  readonly runtimes: readonly Runtime[];
  /** Whether a file exists, for inputs the config names (`systemPromptFile`, `skills`, `workspace.root`). */
  readonly fileExists: (relativePath: string) => boolean;
  /** Reads such an input (`undefined` when it cannot be read). */
  readonly readFile: (relativePath: string) => string | undefined;
  /** Names of a folder's entries (`skills` folders hold `<name>/SKILL.md`); absent or `undefined`: cannot list. */
  /** Whether the exact rule-order analysis was asked for (it is slow on large configs). */
  readonly analysis?: boolean;
  readonly listDirectory?: (relativePath: string) => string[] | undefined;
  /** Compiled patterns shared by every check of this run (absent: `patternTable` keeps one per model). */
  readonly patterns?: PatternTable;
  report(finding: Omit<Finding, "code" | "severity"> & { severity?: Severity }): void;
}

/** Text of the file between two offsets; checks use it to build edits that keep the user's formatting. */
export function sourceOf(text: string, node: JsonNode): string {
  return text.slice(node.offset, node.offset + node.length);
}

/**
 * The time one check may spend looking for witnesses in one file. Past it the check stops looking: what it has
 * reported is still exact, it just reports no more (design: a check that cannot finish reports nothing wrong).
 * Matching is cheap in deepagents-js; a deepagents-py decision may try every pattern of a long list.
 */
const WITNESS_BUDGET_MS = 750;

export function budget(ms = WITNESS_BUDGET_MS): () => boolean {
  const end = performance.now() + ms;
  return () => performance.now() > end;
}
