import type { ToolPlugin } from "@agent-tools/core";
import type { McpHostBundles, McpHostOptions } from "@agent-tools/core/mcp";
import { loadOptionalPeer } from "./load-optional-peer.js";

/** The optional peer that implements the `mcp` option. */
export const MCP_PACKAGE = "@agent-tools/mcp";

/** What the sdk uses of `@agent-tools/mcp` (typed here, so the sdk's declarations never name the package). */
export interface LoadedMcpPackage {
  mcpTools(options: McpHostOptions): ToolPlugin & { deferralActive(): boolean; hostBundles(): McpHostBundles | undefined };
}

/**
 * Imports `@agent-tools/mcp`, an optional peer of the sdk: only a host that
 * configures `mcp` installs it. When it is not installed this rejects with
 * `SdkError("unsupported")` naming the package and the command that installs
 * it (the sdk's own version: the packages are released together);
 * `details` holds `option`, `package` and `version`. Any other failure to
 * load it is rethrown as is. `load` is the import (a test passes its own).
 */
export async function loadMcpPackage(load: () => Promise<LoadedMcpPackage> = () => import("@agent-tools/mcp")): Promise<LoadedMcpPackage> {
  return loadOptionalPeer("mcp", MCP_PACKAGE, load);
}
