/**
 * What only some commands or options need, loaded when one does: start-up is most of a CLI run on a small file
 * (bench/cli.ts), and each module costs its load and initialisation.
 */
export const later = {
  // The engine itself: `--version`, `--help` and a mistyped option run without loading it (a mistyped command
  // loads only the engine's did-you-mean, to name the command meant).
  checkConfig: () => require("../engine/checkConfig") as typeof import("../engine/checkConfig"),
  diagnostics: () => require("../engine/diagnostics") as typeof import("../engine/diagnostics"),
  checks: () => require("../engine/checks/index") as typeof import("../engine/checks/index"),
  didYouMean: () => require("../engine/didYouMean") as typeof import("../engine/didYouMean"),
  agents: () => require("../engine/agents/agents") as typeof import("../engine/agents/agents"),
  output: () => require("../engine/output") as typeof import("../engine/output"),
  // Shared with the language server, so it lives in the engine's bundle.
  files: () => require("../host/files") as typeof import("../host/files"),
  dryRun: () => require("../engine/checkDryRun") as typeof import("../engine/checkDryRun"),
  explain: () => require("../engine/explain") as typeof import("../engine/explain"),
  effectiveTools: () => require("../engine/agents/effectiveTools") as typeof import("../engine/agents/effectiveTools"),
  runtime: () => require("../engine/runtime/runtime") as typeof import("../engine/runtime/runtime"),
  promptPreview: () => require("../engine/agents/promptPreview") as typeof import("../engine/agents/promptPreview"),
  fixes: () => require("../engine/fixes") as typeof import("../engine/fixes"),
  analysis: () => (require("../engine/analysisLoader") as typeof import("../engine/analysisLoader")).exactAnalysis(),
  // The source front ends (and, on first use, the parser's WebAssembly: sources/treeSitter.ts).
  configReference: () => require("../engine/configReference") as typeof import("../engine/configReference"),
  sources: () => require("../engine/sources") as typeof import("../engine/sources"),
  grammarFiles: () => require("../host/grammarFiles") as typeof import("../host/grammarFiles"),
  sarif: () => require("./sarif") as typeof import("./sarif"),
  workspace: () => require("../host/workspace") as typeof import("../host/workspace"),
  deerflowFiles: () => require("../engine/deerflow/fileNames") as typeof import("../engine/deerflow/fileNames"),
  deerflow: () => require("../engine/deerflow/checkDeerFlow") as typeof import("../engine/deerflow/checkDeerFlow"),
};
