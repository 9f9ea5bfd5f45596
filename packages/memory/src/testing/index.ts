/**
 * @agent-tools/memory/testing: the contract suite every memory index store
 * passes. Imports vitest.
 *
 * @packageDocumentation
 */
export { runMemoryIndexStoreContract } from "./memory-index-store-contract.js";
export type { MemoryIndexStoreContractTarget } from "./memory-index-store-contract.js";
