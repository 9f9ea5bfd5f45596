/**
 * Test helpers of @agent-tools/subagents: contract suites any store or
 * adapter can run (they import vitest, so they live apart from the main
 * entry).
 *
 * @packageDocumentation
 */
export { runSubagentStoreContract } from "./subagent-store-contract.js";
export type { SubagentStoreContractTarget } from "./subagent-store-contract.js";
