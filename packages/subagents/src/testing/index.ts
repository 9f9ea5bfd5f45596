/**
 * Test helpers of @agent-tools/subagents: contract suites any store or
 * adapter can run (they import vitest, so they live apart from the main
 * entry).
 *
 * @packageDocumentation
 */
export {};
