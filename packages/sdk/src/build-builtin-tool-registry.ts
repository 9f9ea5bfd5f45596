import {
  type AdditionalRoot,
  type ApprovalOptions,
  type Logger,
  type RuntimeScope,
  type ToolBundle,
  type ToolEvent,
  type ToolPorts,
  type ToolRegistry,
  createToolRegistry,
  resolveDataDir,
} from "@agent-tools/core";
import type { McpHostOptions } from "@agent-tools/mcp";
import { leaseSqliteStorage } from "@agent-tools/storage";
import { type FsToolBundleOptions, createFsToolBundle } from "@agent-tools/tools-fs";
import { type ShellToolBundleOptions, createShellToolBundle } from "@agent-tools/tools-shell";
import { KyselyTaskStateStore, type TaskToolBundleOptions, createTaskToolBundle } from "@agent-tools/tools-tasks";
import { createNodePorts } from "./create-node-ports.js";

/** Options of {@link buildBuiltinToolRegistry}. */
export interface BuiltinToolRegistryOptions {
  /** Absolute project directory. */
  workdir: string;
  /** `chat` (default) or `cron`. */
  runtimeScope?: RuntimeScope;
  /** Where the SDK keeps skills, memory, logs and its SQLite file; default `~/.agent-tools`; `~/` expands (`resolveDataDir`). */
  dataDir?: string;
  /** Extra directories for the file tools, as `root://alias/...`. */
  additionalRoots?: readonly AdditionalRoot[];
  /** Ports; every one left out gets its Node default (`createNodePorts`). */
  ports?: Partial<ToolPorts>;
  /** allow / ask / deny rules. */
  approval?: ApprovalOptions;
  /** Every event of every call. */
  onEvent?(event: ToolEvent): void;
  logger?: Logger;
  /** Default cap of a result's text in characters. */
  maxOutputChars?: number;
  /**
   * The model provider (`claude_code`, `codex`, `gemini`, `xai`, `deepseek`,
   * ...): picks the synchronous Bash timeout table unless `shell.providerId` is set.
   */
  providerId?: string;
  /** File-tool options. */
  fs?: FsToolBundleOptions;
  /** Shell-tool options. */
  shell?: ShellToolBundleOptions;
  /**
   * Task-tool options (chat scope only). Without `store`, lists persist in
   * the SQLite file `<dataDir>/agent-tools.sqlite`, opened on the first task
   * call. The file's storage is shared by every registry of the process on
   * the same `dataDir` and closed when the last of them closes.
   */
  tasks?: TaskToolBundleOptions;
  /**
   * MCP servers as tools, McpManager and ToolSearch; registered only when
   * `getSettings` (a live getter) is given. Without `applyOps`, and always in
   * the cron scope, MCP settings are read-only. Load failures default to
   * `continue` in chat and `throw` in cron.
   */
  mcp?: McpHostOptions;
}

/**
 * Builds a registry with every built-in bundle on Node defaults: file tools,
 * shell, tasks (chat), MCP (when settings are given).
 *
 * @example
 * import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
 * const registry = await buildBuiltinToolRegistry({ workdir: process.cwd() });
 * const result = await registry.executeToolCall({ id: "1", name: "TaskList", arguments: {} });
 * await registry.close();
 */
export async function buildBuiltinToolRegistry(options: BuiltinToolRegistryOptions): Promise<ToolRegistry> {
  const runtimeScope = options.runtimeScope ?? "chat";
  const dataDir = resolveDataDir(options.dataDir);
  const ports = createNodePorts({ ports: options.ports });
  const bundles: ToolBundle[] = [];
  const cleanups: Array<() => Promise<void>> = [() => ports.close()];
  try {
    bundles.push(createFsToolBundle(options.fs));
    bundles.push(createShellToolBundle({ providerId: options.providerId, ...options.shell }));
    if (runtimeScope === "chat") {
      let store = options.tasks?.store;
      if (store === undefined) {
        // One SQLite connection per dataDir and process, shared with every other registry on it.
        const storage = leaseSqliteStorage({ dataDir });
        cleanups.push(() => storage.release());
        store = async () => KyselyTaskStateStore.open(await storage.get());
      }
      bundles.push(createTaskToolBundle({ ...options.tasks, store }));
    }
    if (typeof options.mcp?.getSettings === "function") {
      const { onReady, ...mcpOptions } = options.mcp;
      // Imported only when MCP is configured: the MCP client stack costs ~0.3 s of start-up.
      const { createMcpToolBundles } = await import("@agent-tools/mcp");
      const mcp = await createMcpToolBundles({
        ...mcpOptions,
        runtimeScope,
        logger: options.logger,
        applyOps: runtimeScope === "chat" ? mcpOptions.applyOps : undefined,
        loadFailureMode: mcpOptions.loadFailureMode ?? (runtimeScope === "cron" ? "throw" : "continue"),
      });
      bundles.push(...mcp.bundles);
      onReady?.(mcp);
    }
    return createToolRegistry({
      workdir: options.workdir,
      runtimeScope,
      dataDir,
      additionalRoots: options.additionalRoots,
      bundles,
      ports,
      approval: options.approval,
      onEvent: options.onEvent,
      logger: options.logger,
      maxOutputChars: options.maxOutputChars,
      cleanups,
    });
  } catch (error) {
    // Nothing may leak when the options are invalid: close what was opened.
    await Promise.allSettled([...bundles.map((bundle) => bundle.close?.()), ...cleanups.map((cleanup) => cleanup())]);
    throw error;
  }
}
