import {
  type AdditionalRoot,
  type ApprovalOptions,
  type Logger,
  type RuntimeScope,
  SdkError,
  type ToolBundle,
  type ToolConcurrencyOptions,
  type ToolDefinition,
  type ToolEvent,
  type ToolPorts,
  type ToolTelemetryOptions,
  createToolRegistry,
  resolveDataDir,
  snapshotApprovalOptions,
} from "@agent-tools/core";
import type { McpHostOptions } from "@agent-tools/mcp";
import { type MemoryToolBundleOptions, createMemoryToolBundle } from "@agent-tools/memory";
import { leaseSqliteStorage } from "@agent-tools/storage";
import { type FsToolBundleOptions, createFsToolBundle } from "@agent-tools/tools-fs";
import { type ShellToolBundleOptions, createShellToolBundle } from "@agent-tools/tools-shell";
import { type TaskToolBundleOptions, createTaskToolBundle } from "@agent-tools/tools-tasks";
import type { BuiltinToolRegistry } from "./builtin-tool-types.js";
import { createNodePorts } from "./create-node-ports.js";
import { type SystemToolId, createSystemToolBundle } from "./system-tools/system-tools.js";
import { type SdkCronOptions, createSdkCronBundle } from "./cron-wiring.js";
import { type SdkSkillOptions, createSdkSkillBundle } from "./skill-wiring.js";
import { type SdkSandboxOptions, withSandboxPort } from "./sandbox-wiring.js";
import { type SandboxMountSource, dataDirSandboxMounts, withSandboxMounts } from "./sandbox-mounts.js";
import { type SdkCheckpointStoreOptions, sdkCheckpointRegistryOptions } from "./checkpoint-wiring.js";
import { type SdkSubagentOptions, createSdkSubagentBundle } from "./subagent-wiring.js";
import { type InteractionHostOptions, createInteractionToolBundle } from "./interaction-tools/index.js";
import { BUILTIN_TOOL_CONCURRENCY } from "./tool-concurrency-defaults.js";
import { defineMcpToolDeferral } from "./mcp-deferral-wiring.js";
import { sdkMcpRoots } from "./mcp-roots-wiring.js";
import { sqliteMemoryStoreFactory, sqliteTaskStoreFactory } from "./task-store-status.js";
import { BUILTIN_TOOL_NAMES } from "./approval-wiring.js";
import { sdkTaskBundleOptions } from "./task-wiring.js";
import { checkBuiltinToolRegistryOptionKeys } from "./registry-option-keys.js";

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
  /**
   * allow / ask / deny rules. Each key must be a tool name this registry
   * has or any built-in tool's name (exact case), `server:<id>` of a
   * configured MCP server, or `group:<id>`; each value exactly `allow`, `ask`
   * or `deny`. Anything else throws `SdkError` naming the key and the closest
   * name, so a misspelt rule never silently fails to apply.
   */
  approval?: ApprovalOptions;
  /** Every event of every call. */
  onEvent?(event: ToolEvent): void;
  logger?: Logger;
  /**
   * OpenTelemetry for every call: one `execute_tool <name>` span per call,
   * MCP `tools/call` spans as its children; a call's own `telemetry` option
   * wins. Omitted: the global tracer of `@opentelemetry/api` when installed.
   */
  telemetry?: ToolTelemetryOptions;
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
   * The conversation served: task lists are kept per workdir and this id
   * (default `subagents.conversationId`; without either, per registry), and
   * subagent runs persist under it unless `subagents.conversationId` is set.
   */
  conversationId?: string;
  /**
   * Task-tool options (chat scope only). Without `store`, lists persist in
   * the SQLite file `<dataDir>/agent-tools.sqlite`, opened on the first task
   * call. The file's storage is shared by every registry of the process on
   * the same `dataDir` and closed when the last of them closes. Registries
   * given the same `run: { conversationId }` share one list on purpose;
   * otherwise see `conversationId`. Bad keys or ids throw `SdkError`.
   */
  tasks?: TaskToolBundleOptions;
  /**
   * MemoryManager (long-term memory: Markdown files under `<dataDir>/memory`,
   * indexed for search), in chat and cron; `false` leaves it out. `mode`
   * defaults to `rw` in chat and `ro` in cron: a scheduled run has no user
   * watching, so by default it may consult memory but not change it (pass
   * `mode: "rw"` to let a cron job keep a journal). Without `store`,
   * `storage` or `service`, the index lives in the same SQLite file as the
   * tasks (`<dataDir>/agent-tools.sqlite`, shared, opened on the first call).
   */
  memory?: MemoryToolBundleOptions | false;
  /**
   * MCP servers as tools, McpManager and ToolSearch; registered only when
   * `getSettings` (a live getter) is given. Without `applyOps`, and always in
   * the cron scope, MCP settings are read-only. Load failures default to
   * `continue` in chat and `throw` in cron. Servers may list the workspace
   * and the granted roots (`roots/list`; read-only ones named so) unless
   * `mcp.roots` is the host's own getter or `false`.
   */
  mcp?: McpHostOptions;
  /**
   * Selectable system tools by id, e.g. `["HttpGetTest"]`; registered after
   * the built-in bundles. An unknown id throws `SdkError` listing the known ones.
   */
  systemTools?: readonly SystemToolId[];
  /**
   * The host's own tools (`defineTool`), registered after the built-ins and
   * system tools, before MCP. Each is offered in its own `scopes`. A name
   * that equals a built-in's, or differs from one only in case, throws
   * `SdkError` (`duplicate_tool`), in either scope.
   */
  tools?: readonly ToolDefinition[];
  /**
   * The host's own bundles, registered after `tools`, before MCP. A trusted
   * bundle's duplicate of an earlier name throws `SdkError`; an untrusted
   * one's is skipped with a warning.
   */
  bundles?: readonly ToolBundle[];
  /**
   * Agent and SendMessage (chat scope only): children run on `model`,
   * read-only in this workspace or in their own git worktree (a registry
   * built like this one on the worktree, memory read-only, no subagents),
   * persisted under `conversationId` in the shared SQLite file unless a
   * store is given. Off when absent.
   */
  subagents?: SdkSubagentOptions;
  /**
   * Skills (chat and cron): SkillsManager, `skill://<name>/...` paths for the
   * file tools and the skill guard in Bash, rooted at `<dataDir>/skills`
   * unless `rootDir` is given, under the host's access `policy`. Off when
   * absent; worktree subagents run without skills.
   */
  skills?: SdkSkillOptions;
  /**
   * CronTaskManager (chat and cron): scheduled bash, http and prompt tasks in
   * the host's store, its storage, or the shared SQLite file. Off when
   * absent. Firing them is the job of a scheduler the host starts
   * (`startBuiltinCronScheduler`); worktree subagents never get it.
   */
  cron?: SdkCronOptions;
  /**
   * Start in plan mode: `tools` lists, and calls run, only read-only tools
   * plus AskUserQuestion, ExitPlanMode, Agent (read-only agents only: a worktree agent is
   * refused) and SendMessage; any other call is refused. Toggle with
   * `registry.setPlanMode`; ExitPlanMode leaves it when the user approves.
   */
  planMode?: boolean;
  /**
   * The host's dialogs (chat scope): `onAskUserQuestion` lists AskUserQuestion,
   * `onExitPlanMode` lists ExitPlanMode while in plan mode. Without a
   * callback its tool is not listed and a call is refused.
   */
  interaction?: InteractionHostOptions;
  /**
   * Parallel calls per tool name; calls past a limit wait in FIFO order.
   * Default {@link BUILTIN_TOOL_CONCURRENCY} (Agent 8, Bash 4, others 2);
   * `false` runs every call at once.
   */
  concurrency?: ToolConcurrencyOptions | false;
  /**
   * Confine Bash, Bash sessions and ManagedProcess commands with bubblewrap
   * (Linux): read-only file system except the workspace, roots granted with
   * write access, `writableRoots` and a private `/tmp`; secrets directories
   * hidden; no network unless `allowNetwork`. Probed once here. Fail closed:
   * when it cannot start, the registry still builds but every command is
   * refused with `unavailable` (never run unconfined), and MCP stdio servers
   * are not started. A host's own `ports.sandbox` wins.
   */
  sandbox?: SdkSandboxOptions;
  /**
   * Every call (chat scope) records what Write, Edit and Delete change into
   * this checkpoint (e.g. `{ id: "<conversation>:<turn>" }`); a call's own
   * `checkpointId` wins. Rewind with `openFileCheckpoints().rewindCheckpoint(id)`.
   * Ignored in the cron scope.
   */
  checkpoint?: { id: string };
  /** Where checkpoint records live; default the shared SQLite file `<dataDir>/agent-tools.sqlite`. */
  checkpoints?: SdkCheckpointStoreOptions;
}

/**
 * Builds a registry with every built-in bundle on Node defaults: file tools,
 * shell, skills (when asked), tasks (chat), memory, then the selected system tools, the host's tools and
 * bundles, and MCP (when settings are given).
 *
 * @example
 * import { buildBuiltinToolRegistry, defineTool } from "@agent-tools/sdk";
 * const Greet = defineTool({ name: "Greet", description: "Greets someone.", inputSchema: z.object({ who: z.string() }), execute: ({ who }) => ({ content: `Hello, ${who}!` }) });
 * const registry = await buildBuiltinToolRegistry({ workdir: process.cwd(), tools: [Greet], systemTools: ["HttpGetTest"] });
 * const result = await registry.executeToolCall({ id: "1", name: "TaskList", arguments: {} });
 * await registry.close();
 */
export function buildBuiltinToolRegistry(options: BuiltinToolRegistryOptions): Promise<BuiltinToolRegistry> {
  return buildRegistry(options, []);
}

/**
 * {@link buildBuiltinToolRegistry} with approval keys the registry accepts
 * although it lacks what they name: a worktree child's registry takes its
 * parent's rules, whose host tools and bundles it does not have.
 */
async function buildRegistry(options: BuiltinToolRegistryOptions, inheritedApprovalKeys: readonly string[]): Promise<BuiltinToolRegistry> {
  // Unknown or misspelt keys throw before anything starts.
  checkBuiltinToolRegistryOptionKeys(options, true);
  // Read once (own properties, each getter once): this registry and every worktree child's, built later, get the same rules.
  const approval = snapshotApprovalOptions(options.approval) as ApprovalOptions | undefined;
  const runtimeScope = options.runtimeScope ?? "chat";
  const dataDir = resolveDataDir(options.dataDir);
  // Confined commands see the dataDir masked (and, once the skills bundle is built, only the skills the policy lets them use).
  const sandboxMounts: SandboxMountSource[] = [dataDirSandboxMounts(dataDir)];
  const ports = withSandboxMounts(await withSandboxPort(createNodePorts({ ports: options.ports }), options.sandbox, options.ports?.sandbox), sandboxMounts);
  const bundles: ToolBundle[] = [];
  const cleanups: Array<() => Promise<void>> = [() => ports.close()];
  let isMcpDeferralActive: (() => boolean) | undefined;
  try {
    const skills =
      options.skills === undefined
        ? undefined
        : await createSdkSkillBundle({ options: options.skills, dataDir, workdir: options.workdir, gitClient: ports.gitClient });
    bundles.push(createFsToolBundle(options.fs));
    if (skills !== undefined) sandboxMounts.push(() => skills.sandboxMounts());
    const commandPolicies = [...(options.shell?.commandPolicies ?? []), ...(skills === undefined ? [] : [skills.commandPolicy()])];
    bundles.push(createShellToolBundle({ providerId: options.providerId, ...options.shell, commandPolicies }));
    if (skills !== undefined) bundles.push(skills);
    // One SQLite connection per dataDir and process, shared with every other registry on it (leased on first need).
    let lease: ReturnType<typeof leaseSqliteStorage> | undefined;
    const sharedStorage = () => {
      if (lease === undefined) {
        const leased = leaseSqliteStorage({ dataDir });
        lease = leased;
        cleanups.push(() => leased.release());
      }
      return lease;
    };
    // Checked in either scope; see task-wiring.ts for whose list a call sees.
    const taskOptions = sdkTaskBundleOptions(options);
    if (runtimeScope === "chat") {
      // Its open failures say what to do; see task-store-status.ts.
      const store = taskOptions.store ?? sqliteTaskStoreFactory(sharedStorage());
      bundles.push(createTaskToolBundle({ ...taskOptions, store }));
    }
    if (options.cron !== undefined) bundles.push(await createSdkCronBundle({ options: options.cron, sharedStorage }));
    if (options.memory !== false) {
      const memory = options.memory ?? {};
      const ownIndex = memory.service !== undefined || memory.store !== undefined || memory.storage !== undefined;
      bundles.push(
        createMemoryToolBundle({
          ...memory,
          mode: memory.mode ?? (runtimeScope === "cron" ? "ro" : "rw"),
          ...(ownIndex ? {} : { store: sqliteMemoryStoreFactory(sharedStorage()) }),
        }),
      );
    }
    let registry: BuiltinToolRegistry | undefined;
    bundles.push(createInteractionToolBundle({ ...options.interaction, planMode: () => registry }));
    if (options.subagents !== undefined && runtimeScope === "chat") {
      bundles.push(
        await createSdkSubagentBundle({
          // The registry's conversation also names the subagents' saved runs unless they are given their own.
          options:
            options.subagents.conversationId === undefined && options.conversationId !== undefined
              ? { ...options.subagents, conversationId: options.conversationId }
              : options.subagents,
          workdir: options.workdir,
          logger: options.logger,
          ports,
          additionalRoots: options.additionalRoots ?? [],
          parentRegistry: () => {
            if (registry === undefined) throw new SdkError("invalid_options", "The subagent tools ran before their registry was built.");
            return registry;
          },
          sharedStorage,
          buildChildRegistry: (workdir, additionalRoots) =>
            buildRegistry(
              {
                ...options,
                approval,
                workdir,
                additionalRoots,
                // The parent's probed sandbox: a child confines the same way without probing bubblewrap again.
                ports: ports.sandbox === undefined ? options.ports : { ...options.ports, sandbox: ports.sandbox },
                memory: options.memory === false ? false : { ...options.memory, mode: "ro" },
                mcp: options.mcp === undefined ? undefined : { ...options.mcp, applyOps: undefined, loadFailureMode: "continue" },
                subagents: undefined,
                planMode: undefined,
                checkpoint: undefined,
                interaction: undefined,
                skills: undefined,
                cron: undefined,
                systemTools: undefined,
                tools: undefined,
                bundles: undefined,
              },
              [...inheritedApprovalKeys, ...Object.keys(approval?.policies ?? {})],
            ),
        }),
      );
    }
    if (options.systemTools !== undefined) bundles.push(createSystemToolBundle(options.systemTools));
    if (options.tools !== undefined) bundles.push(hostToolBundle(options.tools, bundles, runtimeScope));
    if (options.bundles !== undefined) {
      if (!Array.isArray(options.bundles)) throw new SdkError("invalid_options", "bundles must be an array of tool bundles.");
      bundles.push(...options.bundles);
    }
    if (typeof options.mcp?.getSettings === "function") {
      const { onReady, ...mcpOptions } = options.mcp;
      // Imported only when MCP is configured: the MCP client stack costs ~0.3 s of start-up.
      const { createMcpToolBundles, KyselyMcpOAuthStore } = await import("@agent-tools/mcp");
      // OAuth tokens and registrations default to the shared SQLite file (opened on the first sign-in).
      const oauthStorage = mcpOptions.oauth !== undefined && mcpOptions.oauth.store === undefined ? sharedStorage() : undefined;
      const mcp = await createMcpToolBundles({
        ...mcpOptions,
        ...(oauthStorage === undefined ? {} : { oauth: { ...mcpOptions.oauth, store: async () => KyselyMcpOAuthStore.open(await oauthStorage.get()) } }),
        runtimeScope,
        sandbox: mcpOptions.sandbox ?? ports.sandbox !== undefined,
        logger: options.logger,
        applyOps: runtimeScope === "chat" ? mcpOptions.applyOps : undefined,
        // The workspace and the granted roots, unless the host gives its own (or false).
        roots: mcpOptions.roots ?? sdkMcpRoots(() => registry?.paths, options),
        loadFailureMode: mcpOptions.loadFailureMode ?? (runtimeScope === "cron" ? "throw" : "continue"),
      });
      bundles.push(...mcp.bundles);
      isMcpDeferralActive = () => mcp.isDeferralActive();
      onReady?.(mcp);
    }
    // The same registry; BuiltinToolRegistry only types the results of built-in tools.
    registry = createToolRegistry({
      workdir: options.workdir,
      runtimeScope,
      dataDir,
      additionalRoots: options.additionalRoots,
      bundles,
      ...sdkCheckpointRegistryOptions({ ...options, hostRecorder: options.ports?.fileCheckpoints, runtimeScope, ports, sharedStorage }),
      approval,
      knownApprovalKeys: [...BUILTIN_TOOL_NAMES, ...inheritedApprovalKeys],
      onEvent: options.onEvent,
      logger: options.logger,
      telemetry: options.telemetry,
      maxOutputChars: options.maxOutputChars,
      planMode: options.planMode,
      concurrency: options.concurrency ?? BUILTIN_TOOL_CONCURRENCY,
      ...(skills === undefined ? {} : { skills: skills.pathOptions() }),
      cleanups,
    }) as BuiltinToolRegistry;
    return defineMcpToolDeferral(registry, isMcpDeferralActive);
  } catch (error) {
    // Nothing may leak when the options are invalid: close what was opened.
    await Promise.allSettled([...bundles.map((bundle) => bundle.close?.()), ...cleanups.map((cleanup) => cleanup())]);
    throw error;
  }
}

/**
 * The host's tools as one trusted bundle (`host`), after checking them
 * against every built-in name. Checked across scopes (the cron registry has
 * no task bundle, so those names are listed here), so a tool list that
 * builds in one scope builds in the other; and case-insensitively, because
 * calls resolve names case-insensitively.
 */
function hostToolBundle(tools: readonly ToolDefinition[], builtins: readonly ToolBundle[], runtimeScope: RuntimeScope): ToolBundle {
  if (!Array.isArray(tools)) throw new SdkError("invalid_options", "tools must be an array of tool definitions (defineTool).");
  const reserved = new Map<string, string>();
  const builtinBundles = runtimeScope === "chat" ? builtins : [...builtins, createTaskToolBundle()];
  for (const bundle of builtinBundles) for (const tool of bundle.listTools()) reserved.set(tool.name.toLowerCase(), `${tool.name} (bundle ${bundle.id})`);
  const seen = new Map<string, string>();
  for (const tool of tools) {
    if (tool === null || typeof tool !== "object" || typeof tool.name !== "string" || typeof tool.execute !== "function" || !Array.isArray(tool.scopes)) {
      throw new SdkError("invalid_options", "Each entry of tools must be a tool definition made with defineTool.");
    }
    const key = tool.name.toLowerCase();
    const builtin = reserved.get(key);
    if (builtin !== undefined) {
      throw new SdkError("duplicate_tool", `Host tool ${tool.name} collides with the built-in tool ${builtin}; give it another name.`, { name: tool.name });
    }
    const earlier = seen.get(key);
    if (earlier !== undefined)
      throw new SdkError("duplicate_tool", `Host tools ${earlier} and ${tool.name} have the same name; names must differ (case-insensitively).`, {
        name: tool.name,
      });
    seen.set(key, tool.name);
  }
  const list = [...tools];
  return { id: "host", trusted: true, listTools: () => list };
}
