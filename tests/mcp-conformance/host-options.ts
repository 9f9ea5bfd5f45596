/**
 * The MCP host options the conformance driver gives `buildBuiltinToolRegistry`:
 * OAuth, elicitation, sampling and roots callbacks that act without a user.
 */
import type { BuiltinToolRegistryOptions } from "../../packages/sdk/src/index.js";

/** What the driver knows when it builds the options. */
export interface ConformanceHostContext {
  scenario: string;
  workdir: string;
  log(line: string): void;
}

type McpOptions = NonNullable<BuiltinToolRegistryOptions["mcp"]>;

/** The host callbacks of one scenario run (settings and load hooks are added by the driver). */
export function conformanceHostOptions(_context: ConformanceHostContext): Partial<McpOptions> {
  return {};
}
