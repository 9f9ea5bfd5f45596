/** `@agent-tools/durable/testing`: the call ledger contract suite (on vitest, an optional peer) for hosts to run on their own ledgers. */
export { runCallLedgerContract } from "./call-ledger-contract.js";
export type { CallLedgerContractTarget } from "./call-ledger-contract.js";
