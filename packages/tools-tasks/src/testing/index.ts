/**
 * @agent-tools/tools-tasks/testing: the TaskStateStore contract suite, for
 * hosts that implement their own store. Imports vitest.
 *
 * @packageDocumentation
 */
export { runTaskStateStoreContract } from "./task-state-store-contract.js";
export type { TaskStateStoreContractTarget } from "./task-state-store-contract.js";
