/**
 * `@agent-tools/core/durable`: the call ledger contract of durable runs. A
 * registry given a `ledger` records every call made with
 * `executeToolCall(call, { durable: { runId } })` as `started` before its
 * tool runs and `completed` / `failed` after; a resumed run gets recorded
 * results back, runs again what is safe to run again, and reports the rest
 * `outcome_unknown`. `@agent-tools/durable` implements the ledger over
 * memory, SQLite and PostgreSQL.
 *
 * @packageDocumentation
 */
export type { ToolEffects, ToolResumeDecision } from "../types.js";
export { TOOL_EFFECTS } from "../registry/call-ledger.js";
export type {
  CallLedger,
  CallLedgerCall,
  CallLedgerClaim,
  CallLedgerEntry,
  CallLedgerKey,
  CallLedgerState,
  DurableCallOptions,
} from "../registry/call-ledger.js";
