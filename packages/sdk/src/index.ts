/**
 * @agent-tools/sdk: `buildBuiltinToolRegistry()` with every built-in bundle on Node defaults.
 *
 * @packageDocumentation
 */
export { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
export type { BuiltinToolRegistryOptions } from "./build-builtin-tool-registry.js";
