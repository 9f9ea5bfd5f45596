import os from "node:os";
import path from "node:path";
import { expandHome } from "./path-policy.js";

/** The SDK's data directory when the host names none. */
export const DEFAULT_DATA_DIR_NAME = ".agent-tools";

/**
 * The absolute data directory for a `dataDir` option: `~` and `~/...` expand
 * to the home directory, a relative path resolves against the current
 * directory, and a missing value means `~/.agent-tools`. The registry and
 * `@agent-tools/sdk` both use it, so one option means one directory.
 *
 * @example
 * resolveDataDir("~/work/.agent-tools"); // "/home/me/work/.agent-tools"
 * resolveDataDir(); // "/home/me/.agent-tools"
 */
export function resolveDataDir(dataDir?: string): string {
  return path.resolve(expandHome(dataDir ?? path.join(os.homedir(), DEFAULT_DATA_DIR_NAME)));
}
