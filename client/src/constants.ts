/** Names both halves of the client use (extension.ts and session.ts are bundled apart; this is all they share). */
export const LANGUAGES = ["agent-sandbox", "agent-sandbox-dryrun"];
/**
 * Source languages whose files may call deepagents (`createDeepAgent`, `create_deep_agent`): sent to the server
 * for their diagnostics and the hover on the call, saved files only. The server claims nothing else in them, and
 * says nothing at all in a file that does not call the runtime.
 */
export const SOURCE_LANGUAGES = ["typescript", "typescriptreact", "javascript", "javascriptreact", "python"];
export const PREVIEW_SCHEME = "agent-sandbox-preview";
