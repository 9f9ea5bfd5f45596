/**
 * @agent-tools/restate.
 *
 * @packageDocumentation
 */
export {};
