/**
 * The exact rule analysis as one module: refa and the automata are most of the engine's code and of its load time,
 * and only `check --analysis` and the editor's second phase need them, so the engine loads this module lazily
 * through analysisLoader.ts (the build bundles it apart, as dist/analysis.js). The analysis checks
 * (checks/rule/, checks/runtime/, checks/dotfile/, the path half of checks/subagent/subagentEscalation.ts) are
 * registered with the others and reach what they need from here through `exactAnalysis()`, inside their `run`:
 * import from here statically only in code that runs the analysis anyway.
 */
export { DEFAULT_PRODUCT_BUDGET, WorkAllowance } from "./automata/budget";
export { Confirm, toolArgumentFor } from "./automata/confirm";
export { dotfileGaps } from "./automata/dotfileGaps";
export { confirmedPathEscalations } from "./automata/escalation";
export { analysisForCheck, analysisWorkExhausted, clearAnalysisResults, modelAnalysis, skippedAnalyses, type SkippedAnalysis } from "./automata/modelAnalysis";
