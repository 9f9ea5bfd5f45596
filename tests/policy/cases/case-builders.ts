/**
 * Small builders that keep the case files readable as tables: one line per
 * row, the shared rule set written once.
 */
import type { ApprovalData, Decision, PermissionLayersData, PermissionSettingsData, PolicyCase } from "./case-types.js";

/** What a row may add beyond name, call and decision. */
export type RowExtra = Partial<Pick<PolicyCase, "rule" | "layer" | "setup" | "explainOnly" | "open" | "expectedCaseInsensitive">>;

/** A Bash row: [name, command, expected, rule?, extra?]. */
export type BashRow = readonly [name: string, command: string, expected: Decision, rule?: string, extra?: RowExtra];

/** A row on any tool: [name, tool, input, expected, rule?, extra?]. */
export type CallRow = readonly [name: string, tool: string, input: Readonly<Record<string, unknown>>, expected: Decision, rule?: string, extra?: RowExtra];

/** The rule set and fallback every row of a block shares. */
export interface RuleBlock {
  permissions: PermissionSettingsData | PermissionLayersData;
  approval?: ApprovalData;
}

/** Rows of Bash calls under one rule set. */
export function bashRows(block: RuleBlock, rows: readonly BashRow[]): PolicyCase[] {
  return rows.map(([name, command, expected, rule, extra]) => ({
    name,
    ...block,
    call: { tool: "Bash", input: { command } },
    expected,
    ...(rule === undefined ? {} : { rule }),
    ...extra,
  }));
}

/** Rows of calls of any tool under one rule set. */
export function callRows(block: RuleBlock, rows: readonly CallRow[]): PolicyCase[] {
  return rows.map(([name, tool, input, expected, rule, extra]) => ({
    name,
    ...block,
    call: { tool, input },
    expected,
    ...(rule === undefined ? {} : { rule }),
    ...extra,
  }));
}
