// Testing exports of the storage area: list each export by name.
export { findPostgresBinDir, startPostgresTestCluster } from "../storage/testing/postgres-test-cluster.js";
export type { PostgresTestCluster, PostgresTestClusterOptions } from "../storage/testing/postgres-test-cluster.js";
export { runStorageContract, usePostgresTestCluster } from "../storage/testing/storage-contract.js";
export type { StorageContractTarget } from "../storage/testing/storage-contract.js";
