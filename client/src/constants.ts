/** Names both halves of the client use (extension.ts and session.ts are bundled apart; this is all they share). */
export const LANGUAGES = ["agent-sandbox", "agent-sandbox-dryrun"];
export const PREVIEW_SCHEME = "agent-sandbox-preview";
