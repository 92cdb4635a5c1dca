// The layers of ARCHITECTURE.md as import boundaries: ESLint's own `no-restricted-imports`, one set of forbidden
// specifiers per folder, and nothing else (`npm run lint`; test/engine/structure.test.ts holds the same rules).
// A file matched by several entries gets the last one's options, so each entry lists everything its folder may
// not import.
import { builtinModules } from "node:module";
import tsParser from "@typescript-eslint/parser";

/** A relative import that reaches a folder of this name, at any depth (`../../lsp/server`, `../cli/files`). */
const folder = (...names) => `^\\.{1,2}/(?:.*/)?(?:${names.join("|")})(?:/|$)`;
const rule = (regex, message) => ({ regex, message });

const NODE = [
  rule("^node:", "The engine runs in every host, the browser included: it reads nothing itself (ARCHITECTURE.md)."),
  rule(`^(?:${builtinModules.filter((m) => !m.startsWith("_")).map((m) => m.replace(/[/]/g, "\\/")).join("|")})(?:/|$)`, "The engine imports no Node module (ARCHITECTURE.md)."),
];
const ENGINE = [
  ...NODE,
  rule(folder("cli", "lsp", "host", "client"), "The engine knows no host: hosts call the engine, never the reverse (ARCHITECTURE.md)."),
  rule("^(?:vscode|vscode-languageserver|vscode-languageclient|vscode-languageserver-protocol|vscode-languageserver-textdocument)(?:/|$)", "The engine knows no editor protocol (ARCHITECTURE.md)."),
  rule("^\\.{1,2}/(?:.*/)?(?:protocol|commands|docsLocation)$", "The engine knows no host: protocol.ts, commands.ts and docsLocation.ts are the hosts' (ARCHITECTURE.md)."),
];
const BELOW_CHECKS = [...ENGINE, rule(folder("checks"), "This folder is below the checks: a check asks it, it never words a finding (ARCHITECTURE.md).")];
const CHECKS = [
  ...ENGINE,
  rule("^(?:picomatch|micromatch|refa|jsonc-parser)(?:/|$)", "A check asks the Runtime (runtime/runtime.ts) or the automata through exactAnalysis(), never a matcher or parser library (ARCHITECTURE.md)."),
];
const CLI = [rule(folder("lsp"), "The CLI and the language server share code through server/src/host/ only (ARCHITECTURE.md).")];
const LSP = [rule(folder("cli"), "The CLI and the language server share code through server/src/host/ only (ARCHITECTURE.md).")];
const HOST = [rule(folder("cli", "lsp"), "host/ is shared by the CLI and the language server and owned by neither (ARCHITECTURE.md).")];
const CLIENT = [
  rule(folder("engine", "cli", "lsp", "host"), "The VS Code client talks to the server through protocol.ts only; it loads no engine (ARCHITECTURE.md)."),
];

const restrict = (files, patterns) => ({ files, rules: { "no-restricted-imports": ["error", { patterns }] } });

export default [
  { ignores: ["dist/**", "node_modules/**", "e2e/**", "bench/**", "test/**", "scripts/**", "*.mjs", "*.js", ".vscode-test/**"] },
  {
    files: ["server/src/**/*.ts", "client/src/**/*.ts"],
    languageOptions: { parser: tsParser, ecmaVersion: 2022, sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  restrict(["server/src/engine/**/*.ts"], ENGINE),
  restrict(["config", "runtime", "permissions", "automata", "agents", "authorization", "dryrun", "workspace"].map((d) => `server/src/engine/${d}/**/*.ts`), BELOW_CHECKS),
  restrict(["server/src/engine/checks/**/*.ts"], CHECKS),
  restrict(["server/src/cli/**/*.ts"], CLI),
  restrict(["server/src/lsp/**/*.ts"], LSP),
  restrict(["server/src/host/**/*.ts"], HOST),
  restrict(["client/src/**/*.ts"], CLIENT),
];
