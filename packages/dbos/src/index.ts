/**
 * @agent-tools/dbos.
 *
 * @packageDocumentation
 */
export {};
