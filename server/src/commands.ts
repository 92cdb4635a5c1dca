/**
 * Client command ids: the server names them in code lenses and hover links; the client registers them. In a file
 * of their own, with no imports, so that the client's entry bundle can register the commands without loading the
 * LSP libraries (protocol.ts re-exports them).
 */
export const Commands = {
  previewPrompt: "agentSandbox.previewPrompt",
  explainDecision: "agentSandbox.explainDecision",
  showEffectiveTools: "agentSandbox.showEffectiveTools",
} as const;
