/**
 * @agent-tools/tools-tasks/testing: the TaskStateStore contract suite
 * (`runTaskStateStoreContract`, on vitest, an optional peer) for hosts to
 * run on their own store.
 *
 * @example
 * import { runTaskStateStoreContract } from "@agent-tools/tools-tasks/testing";
 * runTaskStateStoreContract("my store", { open: async () => new MyTaskStateStore() });
 *
 * @packageDocumentation
 */
export { runTaskStateStoreContract } from "./task-state-store-contract.js";
export type { TaskStateStoreContractTarget } from "./task-state-store-contract.js";
