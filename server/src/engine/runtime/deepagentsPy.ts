import { compilePyGlob, hasLiteralAlternative, pyGlobError, pyGlobTextLiteralAlternatives, type CompiledPyGlob } from "./pyGlob";
import { commonPrefix, literalPrefixOfRegex } from "./literalPrefix";
import { DFA_NO, DFA_YES, PlainPathDfa, pyPlainPathRegex } from "./pyPlainPath";
import { hasParentSegment, posixNormpath } from "./posixpath";
import { pyRepr, pyTypeName } from "./pyRepr";
import { backendCanDelete, backendCanExecute } from "./backendCapabilities";
import { FILESYSTEM_TOOLS, isPlainPath, isSettledToolPath, type CanonicalToolPath, type CompiledPattern, type FilesystemAllowlist, type Operation, type PathProblem, type PlainPathRegex, type Runtime } from "./runtime";
import { WCMATCH_READING, simpleGlobMatcher } from "./simpleGlob";

/**
 * Questions one pattern answers past its literal text (by the Pike VM, or for a simple pattern on a plain path by
 * reading its text) before its plain-path automaton is built (see `compilePattern`). A cold check's patterns
 * rarely get this many: building the automaton (restatement, states) for the few dozen they do get cost more than
 * answering them (was 16).
 */
const DFA_AFTER = 256;

const simplePyGlobMatcher = (pattern: string) => simpleGlobMatcher(pattern, WCMATCH_READING);

/**
 * deepagents-py 0.7.8. Rule paths are validated in `FilesystemPermission.__post_init__` (py:middleware/
 * filesystem.py L405–417): backslashes become `/` first, then `PurePosixPath(...).parts` is tested, and a `~`
 * part raises `NotImplementedError`, not `ValueError` (docs/reference/paths.md).
 */
function permissionPathProblem(path: unknown): PathProblem | undefined {
  if (typeof path !== "string") {
    // `path.startswith` on a non-str (docs/reference/paths.md V14).
    return { kind: "not-a-string", message: `AttributeError: '${pyTypeName(path)}' object has no attribute 'startswith'` };
  }
  if (!path.startsWith("/")) {
    return { kind: path === "" ? "empty" : "not-absolute", message: `ValueError: Permission path must start with '/': ${pyRepr(path)}` };
  }
  const parts = purePosixParts(path.replace(/\\/g, "/"));
  if (parts.includes("..")) return { kind: "parent-segment", message: `ValueError: Permission path must not contain '..': ${pyRepr(path)}` };
  if (parts.includes("~")) return { kind: "tilde-segment", message: `NotImplementedError: Permission path must not contain '~': ${pyRepr(path)}` };
  return undefined;
}

/** `PurePosixPath(p).parts` without the anchor: empty and `.` components are dropped. */
function purePosixParts(path: string): string[] {
  return path.split("/").filter((part) => part !== "" && part !== ".");
}

/** `validate_path` (py:backends/utils.py L643–706), run by every tool whether or not rules exist (docs/reference/paths.md). */
function validateToolPath(path: string): CanonicalToolPath {
  return isSettledToolPath(path) ? { ok: true, path } : validateToolPathFully(path);
}

/** `validate_path` step by step, without the shortcut for settled paths (exported for the test that backs it). */
export function validateToolPathFully(path: string): CanonicalToolPath {
  if (hasParentSegment(path.replace(/\\/g, "/")) || path.startsWith("~")) {
    return { ok: false, error: `Path traversal not allowed: ${path}` };
  }
  if (/^[a-zA-Z]:/.test(path)) {
    return {
      ok: false,
      error: `Windows absolute paths are not supported: ${path}. Please use virtual paths starting with / (e.g., /workspace/file.txt)`,
    };
  }
  let normalized = posixNormpath(path).replace(/\\/g, "/");
  if (!normalized.startsWith("/")) normalized = `/${normalized}`;
  if (normalized.split("/").includes("..")) {
    return { ok: false, error: `Path traversal detected after normalization: ${path} -> ${normalized}` };
  }
  return { ok: true, path: normalized };
}

/**
 * `FilesystemMiddleware.__init__` (py:middleware/filesystem.py L1671–1673, L1714–1719): only a `list` is read as an
 * allowlist (and must hold `read_file`); `"all"`, `None` and every other type fall through to all eight tools with
 * no check (docs/reference/tools-and-backends.md). From JSON, only an array is a `list`.
 */
function normalizeFilesystemTools(value: unknown): FilesystemAllowlist {
  if (!Array.isArray(value)) return { all: true, tools: FILESYSTEM_TOOLS };
  const names = new Set<unknown>(value);
  const tools = FILESYSTEM_TOOLS.filter((t) => names.has(t));
  if (!names.has("read_file")) {
    return { all: false, tools, error: { kind: "read-file-missing", message: "ValueError: read_file must be included in tools; it is required by FilesystemMiddleware" } };
  }
  return { all: false, tools };
}

export const deepagentsPy: Runtime = {
  id: "deepagents-py",
  label: "deepagents-py 0.7.8",
  modes: ["allow", "deny", "interrupt"],
  permissionPathProblem,
  canonicalToolPath: (raw: string) => validateToolPath(raw),
  simplePatternMatcher: simplePyGlobMatcher,
  // wcmatch's errors come from brace expansion (its pattern limit) and classes (Python's `re`).
  mayRefusePattern: (pattern) => /[{[]/.test(pattern),
  // bracex expands ranges as bash does.
  braceRangeReplacements: () => undefined,
  // wcmatch is called without DOTGLOB (docs/reference/globs.md).
  wildcardsSkipDotNames: true,
  interruptibleBuiltInTools: ["write_todos"],
  compilePattern(pattern: string): CompiledPattern {
    // Compiling is most of the cost of a Python pattern, and many callers only ask whether it is usable (a brace
    // count, `pyGlobError`) or never reach it: the matcher and the literal prefix are built on first use.
    // A `[` can make Python's `re` refuse the pattern, which only compiling tells (see `pyGlobError`).
    let glob: CompiledPyGlob | undefined = pattern.includes("[") ? compilePyGlob(pattern) : undefined;
    const full = () => (glob ??= compilePyGlob(pattern));
    // Until a path gets past the pattern's literal text, there is nothing to compile: a rule list asks most of its
    // patterns about paths that do not even contain their folder names. With braces, one expansion's text must be
    // there (`/w/{dist,.cache}/**` asks for `dist` or `.cache`, not just `w`).
    let literals: string[][] | undefined | null = null;
    let prefix: string | undefined;
    let plain: PlainPathRegex | undefined | null = null;
    const plainRegex = () => (plain === null ? (plain = pattern.startsWith("/") ? pyPlainPathRegex(full()) : undefined) : plain);
    // The restatement as a small automaton (exact on plain paths, a sure "no" on any string), built once the
    // pattern has needed the Pike VM `DFA_AFTER` times: building costs tens of VM runs, and compiled patterns
    // are shared across runs (checks/common/patternTable.ts), so a busy one pays once.
    let dfa: PlainPathDfa | undefined | null = null;
    let vmRuns = 0;
    // Until the automaton exists, a simple pattern asked about a plain path is read off its text (simpleGlob.ts),
    // not compiled: a pattern asked a few questions is then never compiled at all.
    let simple: ((plainPath: string) => boolean) | undefined | null = null;
    return {
      pattern,
      matches(path) {
        if (!glob) {
          if (literals === null) literals = pyGlobTextLiteralAlternatives(pattern);
          if (literals && !hasLiteralAlternative(literals, path)) return false;
        }
        if (dfa === null && ++vmRuns > DFA_AFTER) {
          const re = plainRegex();
          dfa = re ? new PlainPathDfa(re) : undefined;
        }
        if (dfa) {
          const answer = dfa.test(path);
          if (answer === DFA_NO) return false;
          if (answer === DFA_YES && isPlainPath(path)) return true;
        }
        if (simple === null) simple = glob ? undefined : simplePyGlobMatcher(pattern);
        if (simple && isPlainPath(path)) return simple(path);
        return full().matches(path);
      },
      unusable: glob ? glob.error : pyGlobError(pattern),
      get literalPrefix(): string {
        // Every expansion of a pattern that starts with `/` starts with wcmatch's `[/]+`: no literal prefix, and
        // nothing to compile to learn that.
        if (prefix === undefined && pattern.startsWith("/")) prefix = "";
        if (prefix === undefined) {
          const { regexes } = full();
          prefix = pattern;
          for (const regex of regexes) prefix = commonPrefix(prefix, literalPrefixOfRegex(regex.source));
          if (regexes.length === 0) prefix = "";
        }
        return prefix;
      },
      // Only rule lists asked many questions read it (ruleList.ts builds its automaton after a few decisions).
      get plainPathRegex(): PlainPathRegex | undefined {
        return plainRegex();
      },
    };
  },
  ruleCallFailure(rule) {
    // `operation not in rule.operations` on a value that is not a container (py:middleware/filesystem.py L420–430).
    const { operations } = rule;
    if (operations === null || operations === undefined || typeof operations === "number" || typeof operations === "boolean") {
      return `argument of type '${pyTypeName(operations)}' is not iterable`;
    }
    return undefined;
  },
  operationsTest: "op in rule.operations",
  operationsCover(operations: unknown, op: Operation): boolean {
    // `operation not in rule.operations`: list membership, substring for a str, key membership for a dict.
    if (Array.isArray(operations)) return operations.includes(op);
    if (typeof operations === "string") return operations.includes(op);
    if (operations !== null && typeof operations === "object") return Object.prototype.hasOwnProperty.call(operations, op);
    return false;
  },
  canExecute: backendCanExecute,
  canDelete: backendCanDelete,
  // `_filter_unsupported_tools_and_apply_prompt` removes every tool *named* `execute` / `delete` (docs/reference/tools-and-backends.md).
  capabilityFilterByName: { execute: true, delete: true },
  routeScoped(path: string, routePrefixes: readonly string[]): boolean {
    // `_all_paths_scoped_to_routes` (py:middleware/filesystem.py L638–653): raw `startswith`, no slash added (R2, R7).
    return routePrefixes.some((prefix) => path.startsWith(prefix));
  },
  routeScopingRule: "a path must start with a route prefix exactly as written",
  // FilesystemMiddleware.__init__, before the sandbox guard (`callable(self.backend) and not isinstance(…)`).
  backendFactoryRefusal:
    "TypeError: backend must be an initialized backend instance. Backend factories were removed in deepagents 0.7; pass StateBackend(), CompositeBackend(...), or another BackendProtocol instance instead.",
  sandboxGuard: {
    // The guard ignores `tools` (L1693–1700, docs/reference/tools-and-backends.md); Python 0.7 rejects factories outright (docs/reference/tools-and-backends.md), so a factory is
    // never a way around it.
    considersAllowlist: false,
    skipsFactories: false,
    message:
      "NotImplementedError: FilesystemMiddleware does not yet support permissions with backends that provide command execution (SandboxBackendProtocol). Tool-level permissions for the execute tool are not implemented. Either remove permissions or use a backend without execution support.",
  },
  normalizeFilesystemTools,
  // `spec.get("permissions", permissions)`: the key is present, so `None` is passed and means no rules (docs/reference/subagents.md).
  nullSubagentPermissions: "unrestricted",
  forkedSubagents: false,
  toolNameCollision: {
    // deepagents-py 0.7.8 has no construction-time check (not observed in the spec): the names still clash.
    names: [...FILESYSTEM_TOOLS, "task"],
    refusesAtConstruction: false,
    message: (names) => `deepagents-py does not refuse ${names.map((n) => JSON.stringify(n)).join(", ")} at construction, but a built-in tool has the same name`,
  },
  duplicateSubagentMessage: (name) => `two subagents named '${name}': the task tool cannot tell them apart`,
  // `append_to_system_message` separates parts with a blank line (docs/reference/prompt.md).
  promptSurface: { middlewarePromptSeparator: "\n\n", routeSectionWhenExecuteVisible: true },
};
