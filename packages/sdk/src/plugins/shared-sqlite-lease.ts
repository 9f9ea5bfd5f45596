import type { ToolPluginHost } from "@agent-tools/core";
import { type SharedStorageLease, leaseSqliteStorage } from "@agent-tools/storage";

/**
 * The SQLite file `<dataDir>/agent-tools.sqlite` of a plugin's host: one
 * storage per host resource hub (shared with child registries and every
 * plugin on the hub), opened on the first call and closed with the hub.
 */
export function sharedSqliteLease(host: Pick<ToolPluginHost, "dataDir" | "resources">): SharedStorageLease {
  return leaseSqliteStorage({ dataDir: host.dataDir, resources: host.resources });
}
