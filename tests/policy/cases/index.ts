/** Every group of the permission decision table, in the order the test runs them. */
import { bashCompoundCases } from "./bash-compound-cases.js";
import { bashPatternCases } from "./bash-pattern-cases.js";
import { bashWordCases } from "./bash-word-cases.js";
import { bashWrapperCases } from "./bash-wrapper-cases.js";
import type { CaseGroup } from "./case-types.js";
import { fallbackCases } from "./fallback-cases.js";
import { layerCases } from "./layer-cases.js";
import { mcpCases } from "./mcp-cases.js";
import { modeCases } from "./mode-cases.js";
import { pathCases } from "./path-cases.js";
import { trapCases } from "./trap-cases.js";

export type { CaseGroup, Decision, PolicyCase } from "./case-types.js";

/** The table. */
export const caseGroups: readonly CaseGroup[] = [
  bashPatternCases,
  bashCompoundCases,
  bashWordCases,
  bashWrapperCases,
  pathCases,
  mcpCases,
  modeCases,
  layerCases,
  fallbackCases,
  trapCases,
];
