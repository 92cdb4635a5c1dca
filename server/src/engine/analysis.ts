/**
 * The exact rule analysis as one module: refa and the automata are most of the engine's code and of its load time,
 * and only `check --analysis` and the editor's second phase need them, so hosts load this module lazily through
 * analysisLoader.ts (the build bundles it apart, as dist/analysis.js). Import from here only in code that runs the
 * analysis anyway.
 */
import { ruleShadowed } from "./checks/ruleShadowed";
import { ruleRedundant } from "./checks/ruleRedundant";
import { rulePartiallyShadowed } from "./checks/rulePartiallyShadowed";
import { runtimeDivergence } from "./checks/runtimeDivergence";
import { dotfilesUnprotected } from "./checks/dotfilesUnprotected";

export { ruleShadowed, ruleRedundant, rulePartiallyShadowed, runtimeDivergence, dotfilesUnprotected };
export { pathEscalationFindings } from "./automata/escalation";
export { analysisWorkExhausted, clearAnalysisResults, skippedAnalyses, type SkippedAnalysis } from "./automata/modelAnalysis";
