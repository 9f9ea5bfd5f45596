/**
 * Test helpers of @agent-tools/cron: contract suites any store or adapter
 * can run (they import vitest, so they live apart from the main entry).
 *
 * @packageDocumentation
 */
export { runCronStoreContract } from "./cron-store-contract.js";
export { ManualCronClock } from "../runtime/cron-clock.js";
export type { CronStoreContractTarget, OpenedCronStore, OpenedCronStores } from "./cron-store-contract.js";
