import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { ModelClient, SandboxState, ToolPorts } from "@agent-tools/core";
import { resolveDataDir } from "@agent-tools/core";
import type { CronMissedRunPolicy, CronSchedulerEvent, CronSchedulerHandle } from "@agent-tools/cron";
import { type Storage, leaseSqliteStorage } from "@agent-tools/storage";
import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { createNodePorts } from "./create-node-ports.js";
import { checkSdkSandboxOptions, cronBashSandboxOf, resolveSdkSandbox } from "./sandbox-wiring.js";

/** Options of {@link startBuiltinCronScheduler}. */
export interface BuiltinCronSchedulerOptions {
  /**
   * The database of the tasks. Default: the shared SQLite file
   * `<dataDir>/agent-tools.sqlite` (the same the `cron` option of
   * `buildBuiltinToolRegistry` uses), where one scheduler per dataDir may
   * run; on PostgreSQL any number of schedulers share the tasks and each
   * occurrence runs once.
   */
  readonly storage?: Storage;
  /** Where the SDK keeps its files; default `~/.agent-tools`. */
  readonly dataDir?: string;
  /** Ports; the process runner runs bash tasks (default the Node ports). */
  readonly ports?: Partial<ToolPorts>;
  /** Runs prompt tasks; without it prompt runs wait for a scheduler that has one (and expire after 10 minutes). */
  readonly model?: ModelClient;
  /**
   * Options of the cron-scope registry each prompt run gets on its task's
   * workdir (`buildBuiltinToolRegistry` with `runtimeScope: "cron"`): e.g.
   * `mcp`, `memory`, `skills`. `workdir` and `runtimeScope` are set per run.
   * Its `sandbox` (or `ports.sandbox`) also confines bash tasks, each with its
   * workdir writable; when the sandbox cannot start, bash runs fail unstarted.
   */
  readonly registryOptions?: Omit<BuiltinToolRegistryOptions, "workdir" | "runtimeScope">;
  /** `skip` (default) or `run_once` for occurrences missed while no scheduler ran. */
  readonly missedRunPolicy?: CronMissedRunPolicy;
  /** IANA time zone of tasks without their own; default the process's. */
  readonly timeZone?: string;
  /** Time between ticks, ms; default 1000. */
  readonly tickMs?: number;
  /** Every scheduler event (runs started and finished, errors). */
  readonly onEvent?: (event: CronSchedulerEvent) => void;
}

/**
 * Starts the cron scheduler on Node defaults: the tasks of the shared SQLite
 * file (or the given storage), bash tasks through the Node process runner
 * (process trees killed on timeout), http tasks with `fetch`, prompt tasks
 * with `model` and a fresh cron-scope registry per run. `stop()` ends the
 * runs in progress, releases the scheduler lock, the storage lease and the
 * ports.
 *
 * @example
 * const scheduler = await startBuiltinCronScheduler({ model });
 * const registry = await buildBuiltinToolRegistry({ workdir, cron: { currentModelId: () => model.id } });
 * // the model creates tasks with CronTaskManager; the scheduler fires them
 * await scheduler.stop();
 */
export async function startBuiltinCronScheduler(options: BuiltinCronSchedulerOptions = {}): Promise<CronSchedulerHandle> {
  const { KyselyCronStore, acquireSqliteSchedulerLock, startCronScheduler } = await import("@agent-tools/cron");
  // A mistyped sandbox option fails here, not at the first run (the probe itself is lazy).
  if (options.registryOptions?.sandbox !== undefined) checkSdkSandboxOptions(options.registryOptions.sandbox);
  const dataDir = resolveDataDir(options.dataDir);
  const lease = options.storage === undefined ? leaseSqliteStorage({ dataDir }) : undefined;
  const ports = createNodePorts({ ports: options.ports });
  try {
    const storage = options.storage ?? (await (lease as NonNullable<typeof lease>).get());
    const store = await KyselyCronStore.open(storage);
    const cronOptions = { store, currentModelId: options.model === undefined ? undefined : () => options.model?.id };
    // bubblewrap is probed at most once for the scheduler: bash tasks and every prompt run's registry share the probe.
    let probe: Promise<SandboxState | undefined> | undefined;
    const probedSandbox = () => (probe ??= resolveSdkSandbox(options.registryOptions?.sandbox));
    const registryPorts = async () => {
      const given = options.registryOptions?.ports;
      if (given?.sandbox !== undefined) return given;
      const sandbox = await probedSandbox();
      // Over the host's ports object, not a copy of it: its adapters may be lazy getters.
      return sandbox === undefined ? given : (Object.create(given ?? null, { sandbox: { value: sandbox, enumerable: true } }) as Partial<ToolPorts>);
    };
    const handle = await startCronScheduler({
      store,
      storageDialect: storage.dialect,
      sqliteLock: () => acquireSqliteSchedulerLock(storage, `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`),
      processRunner: ports.processRunner,
      bashSandbox: cronBashSandboxOf(options.ports?.sandbox ?? (await probedSandbox())),
      ...(options.model === undefined
        ? {}
        : {
            model: options.model,
            buildPromptRegistry: async (workdir: string) =>
              buildBuiltinToolRegistry({
                dataDir,
                ...options.registryOptions,
                ports: await registryPorts(),
                workdir,
                runtimeScope: "cron",
                cron: { ...options.registryOptions?.cron, ...cronOptions },
              }),
          }),
      ...(options.missedRunPolicy === undefined ? {} : { missedRunPolicy: options.missedRunPolicy }),
      ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
      ...(options.tickMs === undefined ? {} : { tickMs: options.tickMs }),
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    });
    return {
      ...handle,
      get activeRuns() {
        return handle.activeRuns;
      },
      async stop() {
        try {
          await handle.stop();
        } finally {
          await lease?.release();
          await ports.close();
        }
      },
    };
  } catch (error) {
    await lease?.release();
    await ports.close();
    throw error;
  }
}
