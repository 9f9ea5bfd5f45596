import { type Logger, type ResourceHub, SdkError } from "@agent-tools/core";
import type { McpManifest, McpManifestStore } from "@agent-tools/core/mcp";
import { leaseSqliteStorage } from "@agent-tools/storage";
import { KyselyMcpManifestStore } from "./kysely-mcp-manifest-store.js";

/** What the default cache needs of the plugin host. */
export interface McpManifestCacheHost {
  readonly dataDir: string;
  readonly resources: ResourceHub;
  readonly logger?: Logger;
}

/**
 * Throws `SdkError("invalid_options")` naming `where` (e.g. `mcp.manifestCache`)
 * unless `value` is undefined, `false`, or an object with `get`, `put` and
 * `delete` functions.
 */
export function checkMcpManifestCacheOption(value: unknown, where: string): void {
  if (value === undefined || value === false) return;
  const missing =
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? (["get", "put", "delete"] as const).filter((method) => typeof (value as Record<string, unknown>)[method] !== "function")
      : undefined;
  if (missing !== undefined && missing.length === 0) return;
  const shown = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : (JSON.stringify(value) ?? typeof value);
  const lacking = missing === undefined ? "" : ` (it has no ${missing.join(", ")} function${missing.length === 1 ? "" : "s"})`;
  throw new SdkError(
    "invalid_options",
    `${where} must be false or an McpManifestStore (an object with get, put and delete functions, e.g. new InMemoryMcpManifestStore()), not ${shown}${lacking}.`,
    { option: where, suggestion: value === true ? "false" : "new InMemoryMcpManifestStore()", ...(missing === undefined ? {} : { missing }) },
  );
}

/**
 * The manifest cache a plugin hands to its bundles: `false` stays `false`, a
 * host's store passes through, and undefined becomes the default: a
 * {@link KyselyMcpManifestStore} on the SQLite file of the host's data
 * directory, leased from the host's resource hub (released with it) and
 * opened on first use. A default that cannot open (no SQLite driver, an
 * unwritable directory) degrades to no cache with one `logger.warn`.
 */
export function resolveMcpManifestCache(option: McpManifestStore | false | undefined, host: McpManifestCacheHost): McpManifestStore | false {
  if (option !== undefined) return option;
  return degradingMcpManifestStore(async () => {
    const lease = leaseSqliteStorage({ dataDir: host.dataDir, resources: host.resources });
    return KyselyMcpManifestStore.open(await lease.get());
  }, host.logger);
}

/**
 * A store opened by `open` on first use. If opening fails, or the opened store
 * throws, the store acts as an empty cache (a miss on `get`, nothing kept on
 * `put`) and the logger hears of it once: a cache must never fail a build.
 */
export function degradingMcpManifestStore(open: () => Promise<McpManifestStore>, logger: Logger | undefined): McpManifestStore {
  let opening: Promise<McpManifestStore | undefined> | undefined;
  let warned = false;
  const warnOnce = (what: string, error: unknown) => {
    if (warned) return;
    warned = true;
    const reason = error instanceof Error ? error.message : String(error);
    logger?.warn(
      `MCP manifest cache: ${what} (${reason}); servers' tools are listed live at each registry build. Give mcp.manifestCache a store (or false to turn the cache off).`,
    );
  };
  const store = () => {
    opening ??= open().catch((error: unknown) => {
      warnOnce("the default SQLite store could not be opened", error);
      return undefined;
    });
    return opening;
  };
  return {
    async get(serverId: string, configHash: string): Promise<McpManifest | undefined> {
      const opened = await store();
      try {
        return await opened?.get(serverId, configHash);
      } catch (error) {
        warnOnce("a read failed", error);
        return undefined;
      }
    },
    async put(manifest: McpManifest): Promise<void> {
      const opened = await store();
      try {
        await opened?.put(manifest);
      } catch (error) {
        warnOnce("a write failed", error);
      }
    },
    async delete(serverId: string): Promise<void> {
      const opened = await store();
      try {
        await opened?.delete(serverId);
      } catch (error) {
        warnOnce("a delete failed", error);
      }
    },
  };
}
