/**
 * @agent-tools/storage/testing: the Storage contract suite
 * (`runStorageContract`, on vitest, an optional peer) for hosts to run on
 * their own storage, a throwaway PostgreSQL cluster (also as a vitest hook,
 * `usePostgresTestCluster`), and the usual backends of a store test file.
 *
 * @packageDocumentation
 */
export { findPostgresBinDir, startPostgresTestCluster } from "./postgres-test-cluster.js";
export type { PostgresTestCluster, PostgresTestClusterOptions } from "./postgres-test-cluster.js";
export { createStoreTestBackends } from "./store-test-backends.js";
export type { StoreTestBackends } from "./store-test-backends.js";
export { runStorageContract, usePostgresTestCluster } from "./storage-contract.js";
export type { StorageContractTarget } from "./storage-contract.js";
export { sqliteTestBackends } from "./sqlite-test-backends.js";
export type { SqliteTestBackend } from "./sqlite-test-backends.js";
