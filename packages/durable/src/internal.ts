/** Internals of @agent-tools/durable for the SDK's own packages: input checks and the ledger's rules as pure functions. */
export {
  CALL_LEDGER_DEFAULT_LIST_LIMIT,
  CALL_LEDGER_MAX_KEY_LENGTH,
  CALL_LEDGER_MAX_LIST_LIMIT,
  checkLedgerCall,
  checkLedgerKey,
  resultFromJson,
  resultToJson,
} from "./domain/call-ledger-input.js";
export type { CallLedgerOutcome } from "./domain/call-ledger-input.js";
export { canFinish, decideApprove, decideStart, isConsistentEntry, newEntry, sameIdentity } from "./domain/call-ledger-transitions.js";
export type { StartWrite } from "./domain/call-ledger-transitions.js";
export { CALL_LEDGER_MIGRATIONS, CALL_LEDGER_TABLE, DURABLE_STORAGE_NAMESPACE } from "./stores/call-ledger-schema.js";
export type { CallLedgerDatabase, CallLedgerRow } from "./stores/call-ledger-schema.js";
