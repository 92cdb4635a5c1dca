import type { Check, ReportedCheck } from "./check";
import { jsonSyntax } from "./json/jsonSyntax";
import { yamlSyntax } from "./yaml/yamlSyntax";
import { schema } from "./schema/schema";
import { sourceDynamic } from "./source/sourceDynamic";
import { dotSegmentBypass } from "./dot/dotSegmentBypass";
import { authzInvalid } from "./authz/authzInvalid";
import { authzDefaultRoleUndefined } from "./authz/authzDefaultRoleUndefined";
import { authzResourceUnknown } from "./authz/authzResourceUnknown";
import { authzResourceUnenforced } from "./authz/authzResourceUnenforced";
import { authzLiteralStar } from "./authz/authzLiteralStar";
import { authzLiteralGlob } from "./authz/authzLiteralGlob";
import { authzToolUnknown } from "./authz/authzToolUnknown";
import { authzDenyAll } from "./authz/authzDenyAll";
import { modeUnknown } from "./mode/modeUnknown";
import { operationsNotList } from "./operation/operationsNotList";
import { operationUnknown } from "./operation/operationUnknown";
import { pathEmpty } from "./path/pathEmpty";
import { pathNotAbsolute } from "./path/pathNotAbsolute";
import { pathParentSegment } from "./path/pathParentSegment";
import { pathTildeSegment } from "./path/pathTildeSegment";
import { pathsNotList } from "./path/pathsNotList";
import { patternTooComplex } from "./pattern/patternTooComplex";
import { patternClassNegation } from "./pattern/patternClassNegation";
import { patternNeverMatches } from "./pattern/patternNeverMatches";
import { patternRootGlobstar } from "./pattern/patternRootGlobstar";
import { patternRuntimeSyntax } from "./pattern/patternRuntimeSyntax";
import { ruleEmpty } from "./rule/ruleEmpty";
import { systemPromptConflict } from "./system/systemPromptConflict";
import { permissionsWithSandbox } from "./permission/permissionsWithSandbox";
import { permissionsWithSandboxFactory } from "./permission/permissionsWithSandboxFactory";
import { permissionOutsideRoutes } from "./permission/permissionOutsideRoutes";
import { routePrefixWithoutSlash } from "./route/routePrefixWithoutSlash";
import { readFileRequired } from "./read/readFileRequired";
import { toolsNotList } from "./tool/toolsNotList";
import { toolUnknown } from "./tool/toolUnknown";
import { toolUnavailable } from "./tool/toolUnavailable";
import { toolDuplicate } from "./tool/toolDuplicate";
import { toolNameCollision } from "./tool/toolNameCollision";
import { middlewareDropsPermissions } from "./middleware/middlewareDropsPermissions";
import { middlewareDropsBackend } from "./middleware/middlewareDropsBackend";
import { subagentEscalation } from "./subagent/subagentEscalation";
import { subagentPermissionsNull } from "./subagent/subagentPermissionsNull";
import { subagentDuplicateName } from "./subagent/subagentDuplicateName";
import { subagentMissingDescription } from "./subagent/subagentMissingDescription";
import { skillAllowedToolsString } from "./skill/skillAllowedToolsString";
import { skillToolUnknown } from "./skill/skillToolUnknown";
import { backendFactoryUnsupported } from "./backend/backendFactoryUnsupported";
import { ruleShadowed } from "./rule/ruleShadowed";
import { ruleRedundant } from "./rule/ruleRedundant";
import { rulePartiallyShadowed } from "./rule/rulePartiallyShadowed";
import { runtimeDivergence } from "./runtime/runtimeDivergence";
import { dotfilesUnprotected } from "./dotfile/dotfilesUnprotected";

/** Every check that runs on a parsed config, in the order the diagnostics catalogue lists them. */
export const CHECKS: readonly Check[] = [
  systemPromptConflict,
  pathNotAbsolute,
  pathEmpty,
  pathParentSegment,
  pathTildeSegment,
  pathsNotList,
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
 * Registered like every other check, with their code, severity and summary; what their `run` needs of refa and
 * the automata lives in ../analysis.ts, which they load on first use (../analysisLoader.ts): a host that does not
 * analyse never loads it.
 */
// dotfiles-unprotected is decided on the automata too (a walk over every rule in two readings): it runs with the
// analysis, in the editor's worker, not in the first phase every keystroke waits for.
export const ANALYSIS_CHECKS: readonly Check[] = [ruleShadowed, ruleRedundant, rulePartiallyShadowed, runtimeDivergence, dotfilesUnprotected];

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
  "scenario-run-stopped",
] as const;

/**
 * The codes whose findings the parser, the schema validator and the source front ends (a value they could not read)
 * make, before any check runs.
 */
export const BUILT_IN_CHECKS: readonly ReportedCheck[] = [jsonSyntax, schema, yamlSyntax, sourceDynamic];
export const BUILT_IN_CODES = BUILT_IN_CHECKS.map((c) => c.code);

/**
 * Every code a finding can carry, for hosts that take codes from the user (`--severity CODE=LEVEL`): the checks',
 * the analysis's, the parser's and schema's, the scenario checks', and `internal-error` (a check that failed).
 */
export function knownCodes(): readonly string[] {
  return [
    ...BUILT_IN_CODES,
    ...CHECKS.map((c) => c.code),
    ...ANALYSIS_CHECKS.map((c) => c.code),
    ...SCENARIO_CHECK_CODES,
    "internal-error",
  ];
}
