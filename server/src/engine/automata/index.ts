/**
 * Exact analysis of permission rules on automata (issue 5): glob patterns compiled per runtime into refa DFAs over
 * path strings, restricted to the runtime's canonical tool paths, and the questions the checks, `explain` and the
 * hovers ask of them. Everything here is exact or silent: what cannot be decided within its budget is listed by
 * `skippedAnalyses`, never guessed.
 */
export { Budget, BudgetExceeded, NotAnalysable, DEFAULT_PATTERN_BUDGET, DEFAULT_PRODUCT_BUDGET, DEFAULT_RULE_BUDGET, type BudgetLimits } from "./budget";
export { regexDfa, type RegexSource } from "./regexAutomaton";
export { patternLanguage, canonicalPaths, type PatternLanguage } from "./languages";
export {
  analysisForCheck,
  clearAnalysisResults,
  describeList,
  modelAnalysis,
  skippedAnalyses,
  witnessCandidates,
  ModelAnalysis,
  type AnalysisOptions,
  type RuleAnswers,
  type SkippedAnalysis,
} from "./modelAnalysis";
export { explainRuleOverlap, type OperationOverlap, type RuleOverlap } from "./explainOverlap";
export { confirmedPathEscalations, pathEscalations, type PathEscalation } from "./escalation";
export type { Divergence } from "./outcomes";
export type { RuleAnalysis, RuleVerdict, TakenBy, OperationFacts, RemovalChange } from "./ruleListAnalysis";
export type { Decision } from "./ruleTables";
export { Confirm } from "./confirm";
