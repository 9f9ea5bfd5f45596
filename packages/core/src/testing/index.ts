/**
 * @agent-tools/core/testing: fakes of every port and contract suites a host
 * can run against its own adapters. Imports vitest.
 *
 * @packageDocumentation
 */
export {};
