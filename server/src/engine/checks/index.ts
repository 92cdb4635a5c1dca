import type { Check } from "./check";
import { modeUnknown } from "./modeUnknown";
import { operationsNotList } from "./operationsNotList";
import { operationUnknown } from "./operationUnknown";
import { pathEmpty } from "./pathEmpty";
import { pathNotAbsolute } from "./pathNotAbsolute";
import { pathParentSegment } from "./pathParentSegment";
import { pathTildeSegment } from "./pathTildeSegment";
import { ruleEmpty } from "./ruleEmpty";
import { systemPromptConflict } from "./systemPromptConflict";

/** Every check that runs on a parsed config, in the order the catalogue lists them (docs/checks/README.md). */
export const CHECKS: readonly Check[] = [
  systemPromptConflict,
  pathNotAbsolute,
  pathEmpty,
  pathParentSegment,
  pathTildeSegment,
  ruleEmpty,
  operationUnknown,
  operationsNotList,
  modeUnknown,
];

/** Codes reported by the parser and the schema rather than by a `Check`. */
export const BUILT_IN_CODES = ["json-syntax", "schema"] as const;
