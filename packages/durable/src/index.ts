/**
 * @agent-tools/durable.
 *
 * @packageDocumentation
 */
export {};
