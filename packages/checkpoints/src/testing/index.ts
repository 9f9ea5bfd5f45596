/** Test helpers of @agent-tools/checkpoints: the store contract suite (imports vitest). */
export { runCheckpointStoreContract } from "./checkpoint-store-contract.js";
export type { CheckpointStoreContractTarget, OpenedCheckpointStore } from "./checkpoint-store-contract.js";
