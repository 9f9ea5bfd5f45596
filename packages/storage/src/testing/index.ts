/**
 * @agent-tools/storage/testing: a throwaway PostgreSQL cluster for tests.
 * Imports no test runner.
 *
 * @packageDocumentation
 */
export { findPostgresBinDir, startPostgresTestCluster } from "./postgres-test-cluster.js";
export type { PostgresTestCluster, PostgresTestClusterOptions } from "./postgres-test-cluster.js";
