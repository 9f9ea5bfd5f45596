import { type ToolRegistry, type ToolRegistryOptions, createToolRegistry as createCoreToolRegistry } from "@agent-tools/core";
import { createNodePorts } from "./create-node-ports.js";

/**
 * Core's `createToolRegistry` with the Node defaults of every port the host
 * leaves out ({@link createNodePorts}); `close()` also releases them.
 *
 * @example
 * import { createToolRegistry } from "@agent-tools/sdk";
 * const registry = createToolRegistry({ workdir: process.cwd(), bundles: [createShellToolBundle()] });
 */
export function createToolRegistry(options: ToolRegistryOptions): ToolRegistry {
  const ports = createNodePorts({ ports: options.ports });
  const close = () => ports.close();
  // Anything but an array goes through unchanged, so core refuses it with its own SdkError.
  const cleanups = options.cleanups === undefined ? [close] : Array.isArray(options.cleanups) ? [...options.cleanups, close] : options.cleanups;
  return createCoreToolRegistry({ ...options, ports, cleanups });
}
