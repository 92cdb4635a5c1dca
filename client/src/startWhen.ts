/**
 * When the language server is worth starting: the cheap tests extension.ts makes on the workspace's files and the
 * open documents before it starts the language client. Plain text tests, no parser and no VS Code, so that a
 * workspace of TypeScript or Python files that never name deepagents gets no server process at all.
 */

/** Config and dry-run files (package.json `contributes.languages`): the server is needed as soon as one exists. */
export const CONFIG_FILES = "**/{agent-sandbox.jsonc,agent-sandbox.json,*.agent-sandbox.jsonc,*.agent-sandbox.json,*.dryrun.jsonc,*.dryrun.json}";
/** DeerFlow's files by name: needed only when the text is DeerFlow's (`isDeerFlowFile`), not another program's. */
export const DEERFLOW_FILES = "**/{config.yaml,config.yml,SKILL.md}";
/** Folders no search for these files looks into. */
export const EXCLUDED = "**/{node_modules,.git}/**";

/**
 * Whether a source text may call the runtime: it names `deepagents` (the import every call needs). The server
 * makes the same test before it loads a grammar, so a file that passes here and calls nothing still costs no parse.
 */
export function namesRuntime(text: string): boolean {
  return text.includes("deepagents");
}

/** The little of a VS Code document and of an edit to it that `editNamesRuntime` reads. */
export interface EditedDocument {
  readonly lineCount: number;
  lineAt(line: number): { readonly text: string };
}
export interface Edit {
  readonly range: { readonly start: { readonly line: number } };
  readonly text: string;
}

/**
 * Whether an edit made the document name the runtime: only the lines the edit wrote are read (a name never spans
 * lines), so typing in a long file that does not use deepagents costs a line or two per keystroke.
 */
export function editNamesRuntime(document: EditedDocument, edit: Edit): boolean {
  const first = edit.range.start.line;
  const last = Math.min(document.lineCount - 1, first + (edit.text.match(/\n/g)?.length ?? 0));
  for (let line = first; line <= last; line++) if (namesRuntime(document.lineAt(line).text)) return true;
  return false;
}

/**
 * Whether a file named config.yaml / config.yml / SKILL.md is DeerFlow's, as the server decides it
 * (server/src/engine/deerflow/fileNames.ts `isDeerFlowText`; test/client/startWhen.test.ts holds the two to the
 * same answers): a config with one of the sections only DeerFlow has or a class path into `deerflow.`, a skill
 * whose frontmatter has `allowed-tools`.
 */
export function isDeerFlowFile(fileName: string, text: string): boolean {
  const base = baseName(fileName);
  if (!isDeerFlowName(base)) return false;
  if (base !== "SKILL.md") return /^(authorization|tool_groups|tool_search|guardrails)[ \t]*:/m.test(text) || /\buse:[ \t]*["']?deerflow\./.test(text);
  const open = /^(?:\uFEFF)?---[ \t]*\r?\n/.exec(text);
  if (!open) return false;
  const rest = text.slice(open[0].length);
  const close = /^(?:---|\.\.\.)[ \t]*\r?$/m.exec(rest);
  return !!close && /^allowed-tools[ \t]*:/m.test(rest.slice(0, close.index));
}

/** config.yaml, config.yml or SKILL.md: the names DeerFlow reads, the only files whose text `isDeerFlowFile` reads. */
export function isDeerFlowName(fileName: string): boolean {
  return /^(?:config\.ya?ml|SKILL\.md)$/.test(baseName(fileName));
}

const baseName = (fileName: string) => fileName.split(/[\\/]/).at(-1) ?? fileName;
