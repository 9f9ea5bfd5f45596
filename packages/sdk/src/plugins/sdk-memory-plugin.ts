import type { ToolPlugin } from "@agent-tools/core";
import { type MemoryToolBundleOptions, memoryTools } from "@agent-tools/memory";
import { sqliteMemoryStoreFactory } from "../task-store-status.js";
import { sharedSqliteLease } from "./shared-sqlite-lease.js";

/**
 * MemoryManager of a built-in registry: its index in the shared SQLite file
 * unless the host gives a store, storage or service; read-only in a child.
 */
export function sdkMemoryPlugin(options: MemoryToolBundleOptions): ToolPlugin {
  const ownIndex = options.service !== undefined || options.store !== undefined || options.storage !== undefined;
  return {
    ...memoryTools(options),
    readonlyChild: () => sdkMemoryPlugin({ ...options, mode: "ro" }),
    create: (host) => memoryTools(ownIndex ? options : { ...options, store: sqliteMemoryStoreFactory(sharedSqliteLease(host)) }).create(host),
  };
}
