/**
 * The two runtimes this product models, as data and small strategies in one place (design.md). Checks and
 * decisions ask the `Runtime`; nothing else says `if (runtime === ...)`.
 */
export type RuntimeId = "deepagents-js" | "deepagents-py";
export const RUNTIME_IDS: readonly RuntimeId[] = ["deepagents-js", "deepagents-py"];

export type Operation = "read" | "write";
export const OPERATIONS: readonly Operation[] = ["read", "write"];

/** One brace range as a matcher that does not expand it wrote it (`Runtime.braceRangeReplacements`). */
export interface BraceRangeReplacement {
  /** The range's parts as the matcher was given them (`["1", "10", "2"]` for `{1..10..2}`). */
  readonly parts: readonly string[];
  /** What the matcher wrote in the range's place (`[1-10-2]`). */
  readonly output: string;
}

/** What a glob pattern compiles to under one runtime's matcher. */
export interface CompiledPattern {
  readonly pattern: string;
  matches(canonicalPath: string): boolean;
  /**
   * Set when the runtime's matcher cannot use this pattern at all (picomatch's length limit, wcmatch's
   * brace-expansion limit): every tool call that reaches the rule fails with this error.
   */
  readonly unusable?: string;
  /** Longest literal text every matching path starts with (used to index rules; never wider than the truth). */
  readonly literalPrefix: string;
  /**
   * Optional, finer, and in folders: texts one of which every matching path starts with and then ends or goes on
   * with a `/` (`/w/{dist,.cache}/**`: `/w/dist` and `/w/.cache`, where `literalPrefix` is `/w`; `""` for any path).
   * A rule list's index files the pattern under each (permissions/ruleList.ts `FolderIndex`).
   */
  readonly literalPrefixes?: readonly string[];
  /**
   * Optional: `matches` restated as a plain regular expression that gives the same answer on every *plain path*
   * (see `PlainPathRegex`), so a rule list can combine many patterns into one automaton. Absent when the runtime
   * cannot restate this pattern exactly; the rule list then calls `matches`.
   */
  readonly plainPathRegex?: PlainPathRegex;
}

/**
 * A regular expression over UTF-16 code units with no assertion except end-of-input, standing for a pattern's
 * matcher on *plain paths* only: strings that start with `/`, whose `/`-separated segments after that first `/`
 * are all non-empty and neither `.` nor `..`, and that hold no line terminator (`\n`, `\r`, U+2028, U+2029).
 * Every other string (`/`, `//x`, `/a/`, `/a/./b`, …) must be decided by `matches`. Plain paths are what most tool
 * paths look like; on them the matchers' look-around assertions (picomatch's "no `.`/`..` segment", "not empty")
 * are known in advance, which is what lets them be dropped.
 *
 * `set.set` has 129 entries: one per ASCII code unit, then one shared by every code unit ≥ 128 (1 = member).
 */
export type PlainPathRegex =
  | { readonly kind: "set"; readonly set: Uint8Array }
  | { readonly kind: "seq"; readonly items: readonly PlainPathRegex[] }
  | { readonly kind: "alt"; readonly items: readonly PlainPathRegex[] }
  | { readonly kind: "star"; readonly item: PlainPathRegex }
  | { readonly kind: "end" };

export type CanonicalToolPath = { ok: true; path: string } | { ok: false; error: string };

/** Why a permission path is refused when the rule is constructed (docs/reference/paths.md). */
export type PathProblemKind = "not-absolute" | "empty" | "parent-segment" | "tilde-segment" | "not-a-string";
export interface PathProblem {
  kind: PathProblemKind;
  /** The runtime's exception, word for word, including its class (`Error: …`, `ValueError: …`). */
  message: string;
}

/** The eight built-in filesystem tools, in the runtimes' registration order (docs/reference/tools-and-backends.md: `FILESYSTEM_TOOL_NAMES`). */
export const FILESYSTEM_TOOLS = ["ls", "read_file", "write_file", "edit_file", "delete", "glob", "grep", "execute"] as const;

/** The filesystem tools through which an agent performs each operation (docs/reference/decisions.md). */
export const TOOLS_BY_OPERATION: Record<Operation, readonly (typeof FILESYSTEM_TOOLS)[number][]> = {
  read: ["ls", "read_file", "glob", "grep"],
  write: ["write_file", "edit_file", "delete"],
};

/** The operation a filesystem tool's path rules are asked about (`undefined` for `execute` and non-filesystem tools). */
export function toolOperation(tool: string): Operation | undefined {
  return OPERATIONS.find((op) => (TOOLS_BY_OPERATION[op] as readonly string[]).includes(tool));
}
export type FilesystemToolName = (typeof FILESYSTEM_TOOLS)[number];

export function isFilesystemToolName(name: unknown): name is FilesystemToolName {
  return typeof name === "string" && (FILESYSTEM_TOOLS as readonly string[]).includes(name);
}

// Regular expressions rather than loops over the characters: the checks ask these of thousands of paths in a CLI
// run of a few hundred milliseconds, where a loop runs in V8's interpreter (about 0.1 µs a character) and a
// regular expression runs as machine code.
const PLAIN_PATH = /^(?:\/(?!\.\.?(?:\/|$))[^/\n\r\u2028\u2029]+)+$/;
/** `PLAIN_PATH`, with no backslash and no `~` segment. */
const SETTLED_TOOL_PATH = /^(?:\/(?!\.\.?(?:\/|$)|~(?:\/|$))[^/\\\n\r\u2028\u2029]+)+$/;

/** A plain path (see `PlainPathRegex`): starts with `/`, no empty, `.` or `..` segment, no trailing `/`, no line terminator. */
export function isPlainPath(path: string): boolean {
  return PLAIN_PATH.test(path);
}

/**
 * A tool path both runtimes leave exactly as it is (docs/reference/paths.md): a plain path without a `~` segment or a backslash.
 * Each runtime's `canonicalToolPath` answers such a path at once (most paths the checks ask about are of this
 * kind) and goes through the full canonicalisation otherwise; a test holds the shortcut to the full path on random
 * paths.
 */
export function isSettledToolPath(path: string): boolean {
  return SETTLED_TOOL_PATH.test(path);
}

/**
 * What the capability and route-scoping predicates need to know about a backend (config/model.ts `BackendSpec`
 * has this shape; a structural type keeps the runtime folder free of the config model).
 */
export interface BackendShape {
  readonly type: string | undefined;
  /** Given to the SDK as a function rather than an instance (meaningful only where the SDK takes factories). */
  readonly factory: boolean;
  readonly capabilities?: { readonly execute: boolean; readonly delete: boolean };
  readonly default?: BackendShape;
  readonly routes: readonly { readonly prefix: string; readonly backend: BackendShape }[];
}

/** A filesystem middleware's `tools` option after the runtime's normalisation (docs/reference/tools-and-backends.md). */
export interface FilesystemAllowlist {
  /** Every tool is registered (`tools` omitted, `null`, `"all"`, or a value the runtime ignores). */
  readonly all: boolean;
  /** The registered tools, in canonical order (input order and duplicates do not matter). */
  readonly tools: readonly FilesystemToolName[];
  /** The runtime refuses the value when the middleware is constructed. */
  readonly error?: { kind: "read-file-missing" | "not-iterable"; message: string };
}

/** The construction-time guard against path rules on a backend that can execute (docs/reference/tools-and-backends.md). */
export interface SandboxGuardRule {
  /** JS fires only when `execute` is allowlisted; Python ignores `tools` (docs/reference/tools-and-backends.md). */
  readonly considersAllowlist: boolean;
  /** JS skips backends given as factories (`typeof backend !== "function"`); Python takes no factories at all. */
  readonly skipsFactories: boolean;
  /** The runtime's exception, word for word, including its class. */
  readonly message: string;
  /** What every `execute` call answers when the guard was skipped for a factory (docs/reference/tools-and-backends.md), if the runtime says so. */
  readonly factoryExecuteMessage?: string;
}

/** Names a top-level user tool may not take (`TOOL_NAME_COLLISION`, docs/reference/tools-and-backends.md). */
export interface ToolNameCollisionRule {
  readonly names: readonly string[];
  /** Whether `createDeepAgent` refuses a top-level user tool with such a name. */
  readonly refusesAtConstruction: boolean;
  message(names: readonly string[]): string;
}

/** What the runtime adds to the system message (docs/reference/prompt.md). */
export interface PromptSurface {
  /**
   * What joins a middleware's prompt text (a custom filesystem middleware's `systemPrompt`, the skills section) to
   * the system message: JS `systemMessage.concat(text)` inserts nothing (docs/reference/prompt.md); Python `append_to_system_message`
   * a blank line (docs/reference/prompt.md).
   */
  readonly middlewarePromptSeparator: string;
  /** Python adds a "shell paths vs. virtual paths" section for a composite with routes when `execute` is visible (docs/reference/prompt.md). */
  readonly routeSectionWhenExecuteVisible: boolean;
}

/**
 * A runtime's name in a finding: the config's own `runtime` by its label, a runtime the finding holds for only
 * because `compatibleWith` names it marked so, for the reader to see which setting brought it in.
 */
export function runtimeLabel(runtime: Runtime, primary: boolean): string {
  return primary ? runtime.label : `${runtime.label} (in compatibleWith)`;
}

/** `runtimeLabel` for a runtime of `model`'s checks: primary when it is the config's own `runtime`. */
export function runtimeLabelFor(runtime: Runtime, model: { readonly runtime: Runtime }): string {
  return runtimeLabel(runtime, runtime === model.runtime);
}

export interface Runtime {
  readonly id: RuntimeId;
  /** The package and version whose behaviour is modelled, for messages: "deepagents-js 1.14.1". */
  readonly label: string;
  /** Modes the runtime gives a meaning to. Any other string silently allows and stops later rules (docs/reference/paths.md V20). */
  readonly modes: readonly string[];
  /** Construction-time validation of one entry of a rule's `paths` (docs/reference/paths.md). */
  permissionPathProblem(path: unknown): PathProblem | undefined;
  /**
   * Call-time canonicalisation of a tool's path argument (docs/reference/paths.md). `agentHasRules` matters in JS only: with no
   * rules the middleware validates nothing and hands the raw path on.
   */
  canonicalToolPath(raw: string, agentHasRules: boolean): CanonicalToolPath;
  /** Compile one pattern with the runtime's glob matcher (docs/reference/globs.md). */
  compilePattern(pattern: string): CompiledPattern;
  /**
   * Whether the matcher could refuse this pattern at all (`CompiledPattern.unusable`), read off its text: `false`
   * means it certainly does not, so a check need not compile it to ask (compiling every pattern dominates `check`).
   */
  mayRefusePattern(pattern: string): boolean;
  /**
   * How the matcher writes each brace range `{x..y}` of `pattern` when it does not expand ranges as bash does
   * (picomatch 2.3.2 builds a class out of the range's parts): the parts and what replaced them, in the order the
   * matcher met them. `undefined` where the runtime expands ranges as bash does, or the pattern does not compile.
   */
  braceRangeReplacements(pattern: string): readonly BraceRangeReplacement[] | undefined;
  /** Whether `*` and `**` skip names that start with `.` (wcmatch without `DOTGLOB`), unlike deepagents-js's `{ dot: true }`. */
  readonly wildcardsSkipDotNames: boolean;
  /** Names `interruptOn` may give besides the agents' tools (authorization/agentTools.ts): deepagents-py's `write_todos`. */
  readonly interruptibleBuiltInTools: readonly string[];
  /**
   * The same matcher, for the simplest patterns and plain paths only (`isPlainPath`), read off the pattern text
   * with nothing compiled (simpleGlob.ts); `undefined` for any other pattern.
   */
  simplePatternMatcher(pattern: string): ((plainPath: string) => boolean) | undefined;
  /** Does a rule's `operations` value (as written, any JSON) cover `op`? Both runtimes use a membership test. */
  operationsCover(operations: unknown, op: Operation): boolean;
  /** That test as the runtime's source spells it, for messages: `rule.operations.includes(op)`, `op in rule.operations`. */
  readonly operationsTest: string;
  /**
   * The exception a tool call raises when the decision loop reaches a malformed rule (an `operations` that is
   * not a list or string, `paths` that is not a list), word for word; `undefined` for a well-formed rule.
   */
  ruleCallFailure(rule: { operations: unknown; paths: unknown }, op: Operation): string | undefined;

  /** docs/reference/tools-and-backends.md: can the resolved backend execute (JS `isSandboxBackend`, Python `supports_execution`)? */
  canExecute(backend: BackendShape): boolean;
  /** docs/reference/tools-and-backends.md: does the resolved backend delete (JS `typeof delete === "function"`, Python overrides `delete`)? */
  canDelete(backend: BackendShape): boolean;
  /**
   * docs/reference/tools-and-backends.md: the model-call filter removes every tool *named* `execute` when the backend cannot execute; for `delete`
   * JS removes only its own tool instance (a user tool named `delete` stays), Python every tool of that name.
   */
  readonly capabilityFilterByName: { readonly execute: boolean; readonly delete: boolean };
  /** docs/reference/routes.md: is one permission path scoped to one of the composite's route prefixes, under this runtime's predicate? */
  routeScoped(path: string, routePrefixes: readonly string[]): boolean;
  /** `routeScoped` in words, for messages. */
  readonly routeScopingRule: string;
  readonly sandboxGuard: SandboxGuardRule;
  /**
   * The exception a filesystem middleware raises when its backend is given as a factory function (deepagents-py
   * 0.7 removed them, docs/reference/tools-and-backends.md); `undefined` where factories are taken (deepagents-js).
   */
  readonly backendFactoryRefusal: string | undefined;
  /** docs/reference/tools-and-backends.md: a filesystem middleware's `tools` value as the runtime reads it. */
  normalizeFilesystemTools(value: unknown): FilesystemAllowlist;
  /** docs/reference/subagents.md: what a subagent's `permissions: null` means. */
  readonly nullSubagentPermissions: "inherit" | "unrestricted";
  /** docs/reference/subagents.md: whether `mode: "fork"` exists (forks inherit the parent's custom middleware and carry `task`). */
  readonly forkedSubagents: boolean;
  readonly toolNameCollision: ToolNameCollisionRule;
  /** What the runtime answers for two subagents with one name. */
  duplicateSubagentMessage(name: string): string;
  readonly promptSurface: PromptSurface;
}
