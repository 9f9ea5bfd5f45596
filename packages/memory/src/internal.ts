/**
 * Not public API: shared by the @agent-tools packages, may change in any release.
 *
 * The MemoryManager input schema, typed by the sdk's built-in tool map. Hosts import from `@agent-tools/memory`.
 *
 * @packageDocumentation
 */
export { memoryManagerInputSchema } from "./tools/memory-manager-schema.js";
