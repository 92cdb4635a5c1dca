/** Names both halves of the client use (extension.ts and session.ts are bundled apart; this is all they share). */
export const LANGUAGES = ["agent-sandbox", "agent-sandbox-dryrun"];
/** DeerFlow's config.yaml and skills' SKILL.md, checked in place (the server checks a config.yaml only when it is DeerFlow's). */
export const DEERFLOW_DOCUMENTS = [
  { language: "yaml", pattern: "**/config.{yaml,yml}" },
  { language: "markdown", pattern: "**/SKILL.md" },
];
/**
 * Source languages whose files may call deepagents (`createDeepAgent`, `create_deep_agent`): sent to the server
 * for their diagnostics and the hover on the call, saved files only. The server claims nothing else in them, and
 * says nothing at all in a file that does not call the runtime.
 */
export const SOURCE_LANGUAGES = ["typescript", "typescriptreact", "javascript", "javascriptreact", "python"];
export const PREVIEW_SCHEME = "agent-sandbox-preview";

/** The Capability Map view (package.json `contributes.views`) and the client-only commands (no server names them). */
export const MAP_VIEW = "agentSandbox.capabilityMap";
export const ClientCommands = {
  showCapabilityMap: "agentSandbox.showCapabilityMap",
  mapChooseAgent: "agentSandbox.capabilityMap.chooseAgent",
  mapChooseRole: "agentSandbox.capabilityMap.chooseRole",
  mapChooseConfig: "agentSandbox.capabilityMap.chooseConfig",
  mapRefresh: "agentSandbox.capabilityMap.refresh",
  createSampleConfig: "agentSandbox.createSampleConfig",
} as const;
