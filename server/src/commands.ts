/**
 * Client command ids: the server names them in code lenses and hover links; the client registers them. In a file
 * of their own, with no imports, so that the client's entry bundle can register the commands without loading the
 * LSP libraries (protocol.ts re-exports them).
 */
export const Commands = {
  previewPrompt: "agentSandbox.previewPrompt",
  explainDecision: "agentSandbox.explainDecision",
  showEffectiveTools: "agentSandbox.showEffectiveTools",
  /** Runs a dry-run scenario (`{ uri }`: the scenario file) and shows its transcript: the Dry run lens of a source file's call. */
  runScenario: "agentSandbox.runScenario",
} as const;
