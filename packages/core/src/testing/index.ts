/**
 * @agent-tools/core/testing: fakes of every port and contract suites a host
 * can run against its own adapters. The suites import vitest.
 *
 * @packageDocumentation
 */
export * from "./process.js";
export * from "./git.js";
export * from "./storage.js";
export * from "./model.js";
