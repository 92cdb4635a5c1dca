import type { ConfigModel } from "../config/model";
import type { Finding, Severity, Skipped } from "../diagnostics";
import type { ModelFix } from "../fixOperations";
import type { Runtime } from "../runtime/runtime";
import type { PatternTable } from "./common/patternTable";

/**
 * One check = one diagnostic code = one file, `checks/<first word of the code, singular>/<code in camelCase>.ts`
 * (`path-not-absolute`: checks/path/pathNotAbsolute.ts) = one page in docs/checks/<code>.md = tests in
 * test/checks/<code>.test.ts (ARCHITECTURE.md; test/engine/structure.test.ts holds every code to it).
 * A check reads the model and reports findings; it never formats output or knows its host.
 */
export interface Check {
  readonly code: string;
  readonly severity: Severity;
  /** One line for the docs index and `--list-checks`. */
  readonly summary: string;
  run(context: CheckContext): void;
}

/**
 * A code whose findings are made below the checks, by the parser or the schema validator, which run before there
 * is a model to check: its file holds what every check file holds (code, severity, summary) and says where the
 * findings come from.
 */
export interface ReportedCheck extends Omit<Check, "run"> {
  /** The engine file that makes its findings. */
  readonly reportedBy: string;
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
  readonly listDirectory?: (relativePath: string) => string[] | undefined;
  /** Whether the exact rule-order analysis was asked for (it is slow on large configs). */
  readonly analysis?: boolean;
  /** Only the analysis's findings are wanted (a check with a half of each, subagent-escalation, skips the other). */
  readonly analysisOnly?: boolean;
  /**
   * The steps of work a check that builds or walks automata of its own may do on this file, when not
   * `CHECK_AUTOMATA_STEPS`: give them to a `WorkAllowance` (automata/budget.ts) that the check's every `Budget` charges.
   */
  readonly automataSteps?: number;
  /** Compiled patterns shared by every check of this run (absent: `patternTable` keeps one per model). */
  readonly patterns?: PatternTable;
  /** Files a finding; its fixes are operations on the model (fixOperations.ts), which the file's front end renders. */
  report(finding: ReportedFinding): void;
  /** Says what this check did not finish (absent: the host does not collect it). */
  skip?(note: Omit<Skipped, "checks">): void;
}

/** A finding as a check reports it: its code and default severity are the check's, its fixes are on the model. */
export type ReportedFinding = Omit<Finding, "code" | "severity" | "fixes"> & { severity?: Severity; fixes?: ModelFix[] };

/**
 * The automata work one check of its own (not the exact analysis, which has its file limits: automata/modelAnalysis.ts
 * `DEFAULT_FILE_LIMITS`) may do on one file, in `WorkAllowance` steps: states built, and per state of a walk the
 * automata it steps. Counted, never timed, so what the check finds depends on the file alone; past it the check
 * says what it did not finish (`skip`) and reports nothing it has not decided. About a second of work here.
 */
export const CHECK_AUTOMATA_STEPS = 10_000_000;
