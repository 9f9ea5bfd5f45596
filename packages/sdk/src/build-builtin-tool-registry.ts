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
} from "@agent-tools/core";
import os from "node:os";
import path from "node:path";
// --- imports: fs ---
import { type FsToolBundleOptions, createFsToolBundle } from "@agent-tools/tools-fs";
// --- imports: shell ---
import { type ShellToolBundleOptions, createShellToolBundle } from "@agent-tools/tools-shell";
// --- imports: tasks ---
import { type Storage, openSqliteStorage } from "@agent-tools/core";
import { KyselyTaskStateStore, type TaskToolBundleOptions, createTaskToolBundle } from "@agent-tools/tools-tasks";
// --- imports: mcp ---
import type { McpHostOptions } from "@agent-tools/mcp";

/** Options of {@link buildBuiltinToolRegistry}. */
export interface BuiltinToolRegistryOptions {
  /** Absolute project directory. */
  workdir: string;
  /** `chat` (default) or `cron`. */
  runtimeScope?: RuntimeScope;
  /** Where the SDK keeps skills, memory, logs and its SQLite file; default `~/.agent-tools`. */
  dataDir?: string;
  /** Extra directories for the file tools, as `root://alias/...`. */
  additionalRoots?: readonly AdditionalRoot[];
  /** Ports; every one has a Node default. */
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
  // --- options: fs ---
  /** File-tool options. */
  fs?: FsToolBundleOptions;
  // --- options: shell ---
  /** Shell-tool options. */
  shell?: ShellToolBundleOptions;
  // --- options: tasks ---
  /**
   * Task-tool options (chat scope only). Without `store`, lists persist in
   * the SQLite file `<dataDir>/agent-tools.sqlite`, opened on the first task
   * call and closed with the registry.
   */
  tasks?: TaskToolBundleOptions;
  // --- options: mcp ---
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
  const dataDir = path.resolve(options.dataDir ?? path.join(os.homedir(), ".agent-tools"));
  const bundles: ToolBundle[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  let registry: ToolRegistry;
  try {
    // --- bundles: fs ---
    bundles.push(createFsToolBundle(options.fs));
    // --- bundles: shell ---
    bundles.push(createShellToolBundle({ providerId: options.providerId, ...options.shell }));
    // --- bundles: tasks ---
    if (runtimeScope === "chat") {
      let taskStorage: Promise<Storage> | undefined;
      const openTaskStorage = (): Promise<Storage> =>
        (taskStorage ??= openSqliteStorage({ dataDir }).catch((error: unknown) => {
          taskStorage = undefined;
          throw error;
        }));
      const store = options.tasks?.store ?? (async () => KyselyTaskStateStore.open(await openTaskStorage()));
      cleanups.push(async () => void (await taskStorage?.then((storage) => storage.close(), () => undefined)));
      bundles.push(createTaskToolBundle({ ...options.tasks, store }));
    }
    // --- bundles: mcp ---
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
    registry = createToolRegistry({
      workdir: options.workdir,
      runtimeScope,
      dataDir,
      additionalRoots: options.additionalRoots,
      bundles,
      ports: options.ports,
      approval: options.approval,
      onEvent: options.onEvent,
      logger: options.logger,
      maxOutputChars: options.maxOutputChars,
    });
  } catch (error) {
    // Nothing may leak when the options are invalid: close what was opened.
    await Promise.allSettled([...bundles.map((bundle) => bundle.close?.()), ...cleanups.map((cleanup) => cleanup())]);
    throw error;
  }
  if (cleanups.length === 0) return registry;
  const close = registry.close.bind(registry);
  return Object.assign(Object.create(registry) as ToolRegistry, {
    async close() {
      await close();
      await Promise.allSettled(cleanups.map((cleanup) => cleanup()));
    },
  });
}
