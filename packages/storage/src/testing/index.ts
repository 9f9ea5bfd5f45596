/**
 * @agent-tools/storage/testing: a throwaway PostgreSQL cluster, and the usual
 * backends of a store test file, for tests.
 * Imports no test runner.
 *
 * @packageDocumentation
 */
export { findPostgresBinDir, startPostgresTestCluster } from "./postgres-test-cluster.js";
export type { PostgresTestCluster, PostgresTestClusterOptions } from "./postgres-test-cluster.js";
export { createStoreTestBackends } from "./store-test-backends.js";
export type { StoreTestBackends } from "./store-test-backends.js";
