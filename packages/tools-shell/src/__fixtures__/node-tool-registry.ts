import { type ToolRegistry, type ToolRegistryOptions, createToolRegistry } from "@agent-tools/core";
import { ExecaProcessRunner } from "@agent-tools/node";

/**
 * core's `createToolRegistry` with the Node ProcessRunner
 * (`ExecaProcessRunner`, closed with the registry) unless the options give
 * one: what the shell tools need of a host, without the sdk above them.
 */
export function createNodeToolRegistry(options: ToolRegistryOptions): ToolRegistry {
  if (options.ports?.processRunner) return createToolRegistry(options);
  const processRunner = new ExecaProcessRunner();
  const close = () => processRunner.close();
  return createToolRegistry({ ...options, ports: { ...options.ports, processRunner }, cleanups: [...(options.cleanups ?? []), close] });
}
