import { lazyAnalysisCheck } from "../analysisLoader";
import type { Check } from "./check";
import { dotSegmentBypass } from "./dotSegmentBypass";
import { authzInvalid } from "./authzInvalid";
import { authzDefaultRoleUndefined } from "./authzDefaultRoleUndefined";
import { authzResourceUnknown } from "./authzResourceUnknown";
import { authzResourceUnenforced } from "./authzResourceUnenforced";
import { authzLiteralStar } from "./authzLiteralStar";
import { authzLiteralGlob } from "./authzLiteralGlob";
import { authzToolUnknown } from "./authzToolUnknown";
import { authzDenyAll } from "./authzDenyAll";
import { modeUnknown } from "./modeUnknown";
import { operationsNotList } from "./operationsNotList";
import { operationUnknown } from "./operationUnknown";
import { pathEmpty } from "./pathEmpty";
import { pathNotAbsolute } from "./pathNotAbsolute";
import { pathParentSegment } from "./pathParentSegment";
import { pathTildeSegment } from "./pathTildeSegment";
import { patternTooComplex } from "./patternTooComplex";
import { patternClassNegation } from "./patternClassNegation";
import { patternNeverMatches } from "./patternNeverMatches";
import { patternRootGlobstar } from "./patternRootGlobstar";
import { patternRuntimeSyntax } from "./patternRuntimeSyntax";
import { ruleEmpty } from "./ruleEmpty";
import { systemPromptConflict } from "./systemPromptConflict";
import { permissionsWithSandbox } from "./permissionsWithSandbox";
import { permissionsWithSandboxFactory } from "./permissionsWithSandboxFactory";
import { permissionOutsideRoutes } from "./permissionOutsideRoutes";
import { routePrefixWithoutSlash } from "./routePrefixWithoutSlash";
import { readFileRequired } from "./readFileRequired";
import { toolsNotList } from "./toolsNotList";
import { toolUnknown } from "./toolUnknown";
import { toolUnavailable } from "./toolUnavailable";
import { toolDuplicate } from "./toolDuplicate";
import { toolNameCollision } from "./toolNameCollision";
import { middlewareDropsPermissions } from "./middlewareDropsPermissions";
import { middlewareDropsBackend } from "./middlewareDropsBackend";
import { subagentEscalation } from "./subagentEscalation";
import { subagentPermissionsNull } from "./subagentPermissionsNull";
import { subagentDuplicateName } from "./subagentDuplicateName";
import { subagentMissingDescription } from "./subagentMissingDescription";
import { skillAllowedToolsString } from "./skillAllowedToolsString";
import { skillToolUnknown } from "./skillToolUnknown";
import { backendFactoryUnsupported } from "./backendFactoryUnsupported";

/** Every check that runs on a parsed config, in the order the catalogue lists them (docs/checks/README.md). */
export const CHECKS: readonly Check[] = [
  systemPromptConflict,
  pathNotAbsolute,
  pathEmpty,
  pathParentSegment,
  pathTildeSegment,
  patternTooComplex,
  patternNeverMatches,
  patternClassNegation,
  patternRootGlobstar,
  patternRuntimeSyntax,
  ruleEmpty,
  operationUnknown,
  operationsNotList,
  modeUnknown,
  dotSegmentBypass,
  authzInvalid,
  authzDefaultRoleUndefined,
  authzResourceUnknown,
  authzResourceUnenforced,
  authzLiteralStar,
  authzLiteralGlob,
  authzToolUnknown,
  authzDenyAll,
  permissionsWithSandbox,
  permissionsWithSandboxFactory,
  backendFactoryUnsupported,
  permissionOutsideRoutes,
  routePrefixWithoutSlash,
  readFileRequired,
  toolsNotList,
  toolUnknown,
  toolUnavailable,
  toolDuplicate,
  toolNameCollision,
  middlewareDropsPermissions,
  middlewareDropsBackend,
  subagentEscalation,
  subagentPermissionsNull,
  subagentDuplicateName,
  subagentMissingDescription,
  skillAllowedToolsString,
  skillToolUnknown,
];

/**
 * The exact glob-set analysis (rule order decided on automata; docs/checks/rule-shadowed.md). Hosts run it unless
 * told not to (`check --no-analysis`, the editor's `agentSandbox.ruleAnalysis` setting).
 *
 * They live in ../analysis.ts with the automata and refa, loaded on first use (../analysisLoader.ts): hosts that do
 * not analyse never load them.
 */
// dotfiles-unprotected is decided on the automata too (a walk over every rule in two readings): it runs with the
// analysis, in the editor's worker, not in the first phase every keystroke waits for.
const ANALYSIS_CHECK_NAMES = ["ruleShadowed", "ruleRedundant", "rulePartiallyShadowed", "runtimeDivergence", "dotfilesUnprotected"] as const;
export const ANALYSIS_CHECKS: readonly Check[] = ANALYSIS_CHECK_NAMES.map(lazyAnalysisCheck);

/**
 * The scenario checks' codes (checks/scenarioChecks.ts `SCENARIO_CHECKS`, which a test holds to this list): spelled
 * here so that asking for codes does not load the dry-run engine.
 */
export const SCENARIO_CHECK_CODES = [
  "scenario-config-missing",
  "scenario-config-invalid",
  "scenario-agent-unknown",
  "scenario-role-unknown",
  "scenario-tool-unknown",
  "scenario-args-invalid",
  "scenario-expectation-failed",
] as const;

/** Codes reported by the parser and the schema rather than by a `Check`, and the source front ends' `source-dynamic`. */
export const BUILT_IN_CODES = ["json-syntax", "schema", "source-dynamic"] as const;

/**
 * Every code a finding can carry, for hosts that take codes from the user (`--severity CODE=LEVEL`): the checks',
 * the analysis's (its checks' names in kebab case, so that asking does not load the analysis; a test holds the two
 * to each other), the parser's and schema's, and `internal-error` (a check that failed).
 */
export function knownCodes(): readonly string[] {
  return [
    ...BUILT_IN_CODES,
    ...CHECKS.map((c) => c.code),
    ...ANALYSIS_CHECK_NAMES.map((name) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)),
    ...SCENARIO_CHECK_CODES,
    "internal-error",
  ];
}
