import { compileJsGlob, PICOMATCH_MAX_LENGTH, picomatchRangeReplacements } from "./jsGlob";
import { commonPrefix, literalPrefixOfRegex } from "./literalPrefix";
import { backendCanDelete, backendCanExecute } from "./backendCapabilities";
import { FILESYSTEM_TOOLS, isSettledToolPath, type CanonicalToolPath, type CompiledPattern, type FilesystemAllowlist, type Operation, type PathProblem, type Runtime } from "./runtime";
import { PICOMATCH_READING, simpleGlobMatcher } from "./simpleGlob";

/**
 * deepagents-js 1.14.1 (npm), whose permission code is identical to the 1.13.1 source (compared function by function).
 * `validatePath` (js:permissions/enforce.ts L31–50) both validates rule paths at construction and canonicalises
 * tool paths at call time: segments are split on `/` only, empty segments are dropped, `.` segments are kept.
 */
export function validatePath(raw: unknown): { ok: true; path: string } | { ok: false; problem: PathProblem } {
  if (typeof raw !== "string" || raw.length === 0) {
    return fail(typeof raw === "string" ? "empty" : "not-a-string", "path must be a non-empty string");
  }
  if (!raw.startsWith("/")) return fail("not-absolute", `path must be absolute: ${JSON.stringify(raw)}`);
  const segments = raw.split("/").filter((s) => s.length > 0);
  if (segments.includes("..")) return fail("parent-segment", `path must not contain "..": ${JSON.stringify(raw)}`);
  if (segments.includes("~")) return fail("tilde-segment", `path must not contain "~": ${JSON.stringify(raw)}`);
  return { ok: true, path: `/${segments.join("/")}` };
}

/**
 * `normalizeFilesystemTools` (js:middleware/fs.ts L1661–1676): `null`/`undefined`/`"all"` register everything;
 * anything else is copied into a `Set` (any iterable: a string is iterated character by character) and must hold
 * `read_file`. Unknown names are ignored; registration follows `FILESYSTEM_TOOL_NAMES` order (docs/reference/tools-and-backends.md).
 */
function normalizeFilesystemTools(value: unknown): FilesystemAllowlist {
  if (value === undefined || value === null || value === "all") return { all: true, tools: FILESYSTEM_TOOLS };
  let names: Set<unknown>;
  if (typeof value === "string" || Array.isArray(value) || value instanceof Set) names = new Set(value);
  else {
    // `new Set(5)`, `new Set({})`, `new Set(true)` throw before the `read_file` test.
    const what = value !== null && typeof value === "object" ? "object" : `${typeof value} ${String(value)}`;
    return { all: false, tools: [], error: { kind: "not-iterable", message: `TypeError: ${what} is not iterable (cannot read property Symbol(Symbol.iterator))` } };
  }
  const tools = FILESYSTEM_TOOLS.filter((t) => names.has(t));
  if (!names.has("read_file")) {
    return { all: false, tools, error: { kind: "read-file-missing", message: "Error: read_file must be included in tools; it is required by FilesystemMiddleware" } };
  }
  return { all: false, tools };
}

/** `BUILTIN_TOOL_NAMES` (dist `createDeepAgent`): the filesystem tools, the async-task tools and `task` (docs/reference/tools-and-backends.md). */
const BUILT_IN_TOOL_NAMES = [
  ...FILESYSTEM_TOOLS,
  "start_async_task",
  "check_async_task",
  "update_async_task",
  "cancel_async_task",
  "list_async_tasks",
  "task",
];

function fail(kind: PathProblem["kind"], message: string): { ok: false; problem: PathProblem } {
  return { ok: false, problem: { kind, message } };
}

export const deepagentsJs: Runtime = {
  id: "deepagents-js",
  label: "deepagents-js 1.14.1",
  // `interrupt` is Python-only: in JS it is an unknown mode and silently allows (docs/reference/paths.md V21).
  modes: ["allow", "deny"],
  permissionPathProblem(path: unknown): PathProblem | undefined {
    const result = validatePath(path);
    return result.ok ? undefined : { kind: result.problem.kind, message: `Error: ${result.problem.message}` };
  },
  canonicalToolPath(raw: string, agentHasRules: boolean): CanonicalToolPath {
    // `checkPermission` runs only when rules exist (js:middleware/fs.ts L463–484); without rules the backend
    // receives the raw argument, unvalidated (docs/reference/paths.md).
    if (!agentHasRules || isSettledToolPath(raw)) return { ok: true, path: raw };
    const result = validatePath(raw);
    return result.ok ? result : { ok: false, error: result.problem.message };
  },
  // picomatch refuses a pattern longer than its limit at call time: that one is left to the compiled matcher.
  simplePatternMatcher: (pattern) => (pattern.length > PICOMATCH_MAX_LENGTH ? undefined : simpleGlobMatcher(pattern, PICOMATCH_READING)),
  compilePattern(pattern: string): CompiledPattern {
    const glob = compileJsGlob(pattern);
    return {
      pattern,
      matches: glob.matches,
      unusable: glob.error,
      // picomatch also matches the pattern text itself by string equality, so the prefix must hold for both.
      literalPrefix: glob.regex ? commonPrefix(literalPrefixOfRegex(glob.regex.source), pattern) : "",
      get plainPathRegex() {
        return glob.plain;
      },
    };
  },
  // picomatch refuses nothing but length.
  mayRefusePattern: (pattern) => pattern.length > PICOMATCH_MAX_LENGTH,
  braceRangeReplacements: picomatchRangeReplacements,
  wildcardsSkipDotNames: false,
  interruptibleBuiltInTools: [],
  ruleCallFailure(rule, op) {
    // `decidePathAccess` calls `rule.operations.includes(op)`, then `rule.paths.some(...)` (js:permissions/enforce.ts).
    const { operations, paths } = rule;
    if (operations === null || operations === undefined) return `Cannot read properties of ${operations} (reading 'includes')`;
    if (!Array.isArray(operations) && typeof operations !== "string") return "rule.operations.includes is not a function";
    if (!operations.includes(op)) return undefined;
    if (paths === null || paths === undefined) return `Cannot read properties of ${paths} (reading 'some')`;
    if (!Array.isArray(paths)) return "rule.paths.some is not a function";
    return undefined;
  },
  operationsTest: "rule.operations.includes(op)",
  operationsCover(operations: unknown, op: Operation): boolean {
    // `rule.operations.includes(op)`: array membership, or a substring test when a string was given (docs/reference/paths.md V19).
    if (Array.isArray(operations)) return operations.includes(op);
    if (typeof operations === "string") return operations.includes(op);
    return false;
  },
  canExecute: backendCanExecute,
  canDelete: backendCanDelete,
  // `wrapModelCall` drops every tool named `execute`, but only its own `delete` tool instance (docs/reference/tools-and-backends.md, A6).
  capabilityFilterByName: { execute: true, delete: false },
  routeScoped(path: string, routePrefixes: readonly string[]): boolean {
    // `allPathsScopedToRoutes` (js:middleware/fs.ts L1678–1700): the route gets a trailing `/`; the route root
    // itself counts (#768, R2); raw strings, no glob understanding (R13).
    return routePrefixes.some((prefix) => {
      const normalized = prefix.endsWith("/") ? prefix : `${prefix}/`;
      return path === normalized.slice(0, -1) || path.startsWith(normalized);
    });
  },
  routeScopingRule: "a path must equal a route without its trailing slash, or start with the route followed by a slash",
  backendFactoryRefusal: undefined,
  sandboxGuard: {
    considersAllowlist: true,
    skipsFactories: true,
    message:
      "Error: Filesystem permissions cannot be used with a backend that supports command execution. Shell commands can access any path, making path-based rules ineffective. Either remove permissions, use a backend without execution support, or use a CompositeBackend with all permission paths scoped to a route prefix.",
    factoryExecuteMessage:
      "Error: Execution not available. Filesystem permissions cannot be used with a backend that supports command execution because shell commands can access any path, making path-based rules ineffective.",
  },
  normalizeFilesystemTools,
  // `input.permissions ?? permissions`: `??` treats null as missing (docs/reference/subagents.md).
  nullSubagentPermissions: "inherit",
  forkedSubagents: true,
  toolNameCollision: {
    names: BUILT_IN_TOOL_NAMES,
    refusesAtConstruction: true,
    message: (names) => `ConfigurationError: Tool name(s) [${names.join(", ")}] conflict with built-in tools. Rename your custom tools to avoid this.`,
  },
  duplicateSubagentMessage: (name) => `Error: Duplicate subagent name '${name}'; each subagent must have a unique name.`,
  promptSurface: { middlewarePromptSeparator: "", routeSectionWhenExecuteVisible: false },
};
