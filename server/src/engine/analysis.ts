/**
 * The exact rule analysis as one module: refa and the automata are most of the engine's code and of its load time,
 * and only `check --analysis` and the editor's second phase need them, so hosts load this module lazily through
 * analysisLoader.ts (the build bundles it apart, as dist/analysis.js). Import from here only in code that runs the
 * analysis anyway.
 */
import { ruleShadowed } from "./checks/rule/ruleShadowed";
import { ruleRedundant } from "./checks/rule/ruleRedundant";
import { rulePartiallyShadowed } from "./checks/rule/rulePartiallyShadowed";
import { runtimeDivergence } from "./checks/runtime/runtimeDivergence";
import { dotfilesUnprotected } from "./checks/dotfile/dotfilesUnprotected";

export { ruleShadowed, ruleRedundant, rulePartiallyShadowed, runtimeDivergence, dotfilesUnprotected };
export { pathEscalationFindings } from "./automata/escalation";
export { analysisWorkExhausted, clearAnalysisResults, skippedAnalyses, type SkippedAnalysis } from "./automata/modelAnalysis";
