/**
 * @agent-tools/memory/testing: the contract suite every memory index store
 * passes. Imports vitest.
 *
 * @packageDocumentation
 */
export { runMemoryIndexStoreContract } from "./memory-index-store-contract.js";
export type { MemoryIndexStoreContractTarget } from "./memory-index-store-contract.js";
export { CROSS_BACKEND_BM25_TOLERANCE, runMemoryIndexCrossBackendContract } from "./memory-index-cross-backend-contract.js";
export type { MemoryIndexBackendTarget } from "./memory-index-cross-backend-contract.js";
export { runMemoryVectorIndexContract } from "./memory-vector-index-contract.js";
export { FunctionEmbeddingClient } from "./function-embedding-client.js";
export { memoryRecord } from "./memory-record-builder.js";
export type { FunctionEmbeddingClientOptions } from "./function-embedding-client.js";
