import { readFileSync } from "node:fs";
import { SdkError, type ToolPlugin } from "@agent-tools/core";
import { isModuleNotFoundError } from "@agent-tools/core/internal";
import type { McpHostOptions } from "@agent-tools/core/mcp";

/** The optional peer that implements the `mcp` option. */
export const MCP_PACKAGE = "@agent-tools/mcp";

/** What the sdk uses of `@agent-tools/mcp` (typed here, so the sdk's declarations never name the package). */
export interface LoadedMcpPackage {
  mcpTools(options: McpHostOptions): ToolPlugin & { deferralActive(): boolean };
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
  try {
    return await load();
  } catch (error) {
    if (!isModuleNotFoundError(error, MCP_PACKAGE)) throw error;
    const version = sdkVersion();
    const install = version === undefined ? MCP_PACKAGE : `${MCP_PACKAGE}@${version}`;
    throw new SdkError(
      "unsupported",
      `The mcp option needs the optional package ${MCP_PACKAGE}, which is not installed: npm install ${install} (or leave mcp out).`,
      { option: "mcp", package: MCP_PACKAGE, ...(version === undefined ? {} : { version }) },
      { cause: error },
    );
  }
}

/** The version in the sdk's package.json (read only to word the install hint). */
function sdkVersion(): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
    return typeof manifest.version === "string" ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}
