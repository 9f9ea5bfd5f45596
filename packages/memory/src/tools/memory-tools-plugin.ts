import type { ToolPlugin } from "@agent-tools/core";
import { type MemoryToolBundleOptions, createMemoryToolBundle } from "./memory-tool-bundle.js";

/**
 * MemoryManager as a plugin, in chat and cron. `mode` defaults to `rw` in
 * chat and `ro` in cron (a scheduled run has no user watching); a
 * subagent's child registry gets it read-only.
 *
 * @example
 * const registry = await composeToolRegistry({ workdir, plugins: [memoryTools({ store })] });
 */
export function memoryTools(options: MemoryToolBundleOptions = {}): ToolPlugin {
  return {
    id: "memory",
    scopes: ["chat", "cron"],
    child: "readonly",
    readonlyChild: () => memoryTools({ ...options, mode: "ro" }),
    create: (host) => createMemoryToolBundle({ ...options, mode: options.mode ?? (host.runtimeScope === "cron" ? "ro" : "rw") }),
  };
}
